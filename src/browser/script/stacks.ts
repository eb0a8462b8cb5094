/**
 * Stack traces as the browser model resolves them: frames already mapped
 * through source maps and reduced to what is shown, grouped by async boundary.
 */

/** One frame, resolved to what is shown: `at <name> (<location>)`. */
export interface StackFrameText {
  functionName: string;
  /** `file.js:line:col` (1-based), or undefined when unknown. */
  location: string | undefined;
}

/** The frames between two async boundaries. */
export interface StackFragment {
  /** Async boundary (setTimeout, Promise.then, await…); undefined for the synchronous part. */
  description: string | undefined;
  frames: StackFrameText[];
}

export interface SymbolizedStack {
  fragments: StackFragment[];
  /** The `cause` of an Error, followed recursively. */
  cause?: {message: string; stack: SymbolizedStack | undefined};
}

/** An argument of a console message: a plain text, or an error with its own stack. */
export type ArgumentText = string | {message: string; stack: SymbolizedStack | undefined};
