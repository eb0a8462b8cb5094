/**
 * What a call needs once it has its turn, loaded on the first call
 * (pipeline.ts): the handles over the browser model that handlers see, the
 * page guard and the response state. Behind them is the browser-side code of
 * every tool (the browser model, snapshots, input, DevTools' models, raw CDP's
 * tables), none of which tools/list needs: the server answers it without
 * loading them (test/unit/server/startup.test.ts checks this).
 */
export {BrowserHandle, PageHandle, tracingHandle} from '../tools/handles.js';
export {pageFor, pageGuard, throwIfUnusable} from './callPage.js';
export {resolveResponseState} from './responseState.js';
