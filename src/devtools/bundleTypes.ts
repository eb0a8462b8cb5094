export type {CssBundle} from './css/bundle.js';
export type {HeapBundle} from './heap/bundle.js';
export type {TraceBundle} from './trace/bundle.js';
