import * as v from 'valibot';

import {definePageTool} from './defineTool.js';

export const getCssStyles = definePageTool({
  name: 'get_css_styles',
  pageContent: ['lines'],
  title: 'Get CSS styles',
  description:
    'CSS rules applying to an element, highest precedence first: inline, matched (selector, source line, @media etc.), inherited, pseudo-elements. Losing declarations marked [overloaded]. Paginated by rules.',
  annotations: {category: 'debugging', readOnlyHint: true},
  blockedByDialog: true,
  schema: {
    uid: v.pipe(v.string(), v.description('uid of the element from take_snapshot.')),
    pageSize: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.description('Rules per page. Default is 10.')),
      10,
    ),
    pageIdx: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Page of rules to return, from 0. Default is 0.')),
      0,
    ),
  },
  async handler({params, page}, response) {
    response.line(...(await page.cssStyles(params.uid, params.pageSize, params.pageIdx)));
  },
});
