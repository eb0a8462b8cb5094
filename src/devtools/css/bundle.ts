/**
 * The part of DevTools' SDK (targets, DOM and CSS models) we call, typed
 * structurally (the bundle itself is untyped JavaScript).
 */
export interface CssBundle {
  setUpDevTools(): void;
  [namespace: string]: unknown;
}
