import {join} from 'node:path';

import * as v from 'valibot';

import {summarize} from '../devtools/lighthouse/summarize.js';
import {formatLighthouse} from '../response/formatLighthouse.js';
import {definePageTool} from './defineTool.js';

export const lighthouseAudit = definePageTool({
  name: 'lighthouse_audit',
  title: 'Run Lighthouse audit',
  // Lighthouse's run state and logger are process-wide, and its throttled
  // timings are only worth something with nothing else running.
  browserWide: 'a Lighthouse audit (one at a time in the whole server)',
  description:
    'Lighthouse audit (accessibility, SEO, best practices, agentic browsing; not performance): scores and failed audits; full report saved as JSON and HTML.',
  annotations: {
    category: 'debugging',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  blockedByDialog: true,
  filePaths: ['outputDirPath'],
  sections: ['lighthouse'],
  schema: {
    mode: v.optional(
      v.pipe(
        v.picklist(['navigation', 'snapshot']),
        v.description('navigation reloads and audits the load; snapshot audits the page as is.'),
      ),
      'navigation',
    ),
    device: v.optional(
      v.pipe(v.picklist(['desktop', 'mobile']), v.description('Device to emulate during the audit.')),
      'desktop',
    ),
    outputDirPath: v.optional(v.pipe(v.string(), v.description('Report folder. Default: a temp folder.'))),
  },
  async handler({params, page}, response, {files, progress}) {
    const {mode, device, outputDirPath} = params;
    const run = await page.lighthouse({mode, device, progress});
    const reports = [];
    for (const format of ['json', 'html'] as const) {
      const data = run.reports[format];
      reports.push(
        outputDirPath
          ? await files.save(data, join(outputDirPath, 'report'), `.${format}`)
          : await files.saveTemporary(data, `report.${format}`),
      );
    }
    response.section('lighthouse', formatLighthouse(summarize(run, {mode, device, reports, pageUrl: page.url})));
  },
});
