/** Tools for other programs that drive the same browser (`--experimentalInteropTools`). */
import {definePageTool} from './defineTool.js';

export const getTabId = definePageTool({
  name: 'get_tab_id',
  title: 'Get tab id',
  description:
    "Return the id of the page's tab target, for another tool or extension that drives the same browser by tab.",
  annotations: {category: 'navigation', readOnlyHint: true, conditions: ['experimentalInteropTools']},
  sections: ['tabId'],
  blockedByDialog: false,
  schema: {},
  async handler({page}, response) {
    const tabId = await page.tabId();
    response.line(`Tab ID: ${tabId}`);
    response.section('tabId', [], tabId);
  },
});
