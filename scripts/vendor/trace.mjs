// The performance-trace bundle: DevTools' trace engine (all handlers and
// insights) and the AI-assistance formatters chrome-devtools-mcp prints from.
export const bundle = {
  name: 'devtools-trace',
  source: `
export {setUpDevTools} from 'vendor-entry:setup';
export * as TraceEngine from './front_end/models/trace/trace.js';
export {DefaultCategories, OptionalCategories} from './front_end/models/trace/types/TraceEvents.js';
export {PerformanceTraceFormatter} from './front_end/models/ai_assistance/data_formatters/PerformanceTraceFormatter.js';
export {PerformanceInsightFormatter} from './front_end/models/ai_assistance/data_formatters/PerformanceInsightFormatter.js';
export {AgentFocus} from './front_end/models/ai_assistance/performance/AIContext.js';
`,
};

/**
 * The categories DevTools records with (its defaults plus JS sampling and
 * screenshots, as its Performance panel and chrome-devtools-mcp do), read from
 * the built bundle into a small JSON file: starting a trace needs them, and
 * should not wait for the bundle to load.
 */
export const afterBuild = {
  file: 'trace-categories.json',
  script: `
await import('./polyfills.mjs');
const {DefaultCategories, OptionalCategories} = await import('./devtools-trace.mjs');
process.stdout.write(JSON.stringify(['-*', ...DefaultCategories, ...OptionalCategories.JsSampling, ...OptionalCategories.Screenshot]));
`,
};
