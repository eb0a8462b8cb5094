/**
 * A corpus page: a real web app or component library, from its unmodified,
 * exactly pinned npm package, served by the fixture server, with the
 * interactions an agent would do on it and a task whose result is read back
 * from the app's own state.
 */

/** An npm package a page is built from (pinned exactly in package.json; checked by a unit test). */
export interface CorpusPackage {
  name: string;
  version: string;
  /** SPDX licence of that version, as its package.json says. */
  license: string;
}

/** Where a page is served: addresses the definition needs to build its HTML. */
export interface CorpusHost {
  /** URL of a path on the page's own site (http://127.0.0.1:port). */
  url(path: string): string;
  /** URL of a path on another site (http://localhost:port): loaded in a frame, it is out of process. */
  crossSiteUrl(path: string): string;
}

/** One agent action, done through a tool on the element a snapshot line names. */
export type CorpusStep = {
  /** What the step does (test names). */
  label: string;
  /**
   * In-page condition (a JS expression, evaluated in the top document) that
   * holds once the app has reacted; waited for before the next snapshot.
   */
  until?: string;
} & (
  | {tool: 'click'; target: RegExp; dblClick?: boolean}
  | {tool: 'hover'; target: RegExp}
  | {tool: 'fill'; target: RegExp; value: string}
  | {tool: 'type_text'; text: string; submitKey?: string}
  | {tool: 'press_key'; key: string}
  | {tool: 'drag'; target: RegExp; to: RegExp}
  | {tool: 'evaluate_script'; function: string}
);

export interface CorpusPage {
  /** Short id: the served path is `/corpus/<id>`. */
  id: string;
  /** What a user would call it. */
  title: string;
  packages: CorpusPackage[];
  /** Constructs the page covers (test names and docs/corpus.md). */
  constructs: string[];
  /** The page's HTML (it loads the package's files from /node_modules/...). */
  html(host: CorpusHost): string;
  /** Other documents the page loads (frames, API specs), by path. */
  routes?(host: CorpusHost): Record<string, {body: string; contentType?: string}>;
  /** In-page condition (JS expression) that holds once the app has rendered. */
  ready: string;
  /** The scripted agent interactions, in order. */
  steps: CorpusStep[];
  task: {
    /** What the agent is asked to do. */
    description: string;
    /** A function (source) run with evaluate_script that reads the app's own state back. */
    check: string;
    /** What `check` returns once the task is done. */
    expect: unknown;
  };
}
