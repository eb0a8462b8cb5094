import type * as CallPartsModule from './callParts.js';

/** What a call needs once it has its turn (callParts.ts). */
export type CallParts = typeof CallPartsModule;

let loading: Promise<CallParts> | undefined;

/** The call-time parts, loaded when the first call gets its turn. */
export const loadCallParts = (): Promise<CallParts> => (loading ??= import('./callParts.js'));
