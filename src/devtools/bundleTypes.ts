export type {CssBundle} from './css/bundle.js';
export type {TraceBundle} from './trace/bundle.js';
