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
  /**
   * Text the app shows once it has reacted, in any frame (the top cannot look
   * into a cross-site frame, so `until` cannot say it): waited for with the
   * server's own wait_for before the next snapshot.
   */
  untilText?: string[];
} &
  /** `verbose`: the target is found in a verbose snapshot taken for the step (options inside a listbox are only there). */
  (
    | {tool: 'click'; target: RegExp; dblClick?: boolean; verbose?: boolean}
    | {tool: 'hover'; target: RegExp}
    | {tool: 'fill'; target: RegExp; value: string}
    | {tool: 'type_text'; text: string; submitKey?: string}
    | {tool: 'press_key'; key: string}
    | {tool: 'drag'; target: RegExp; to: RegExp}
    | {tool: 'evaluate_script'; function: string}
    /** A text file named `name` (made for the run) put into the element or the file chooser it opens. */
    | {tool: 'upload_file'; target: RegExp; name: string}
    /** Waits (with the tool) for a text in any frame, e.g. one the top document cannot read. */
    | {tool: 'wait_for'; text: string[]}
    /** The page's requests must list one matching `expect`. */
    | {tool: 'list_network_requests'; expect: RegExp}
  ) & {
    /**
     * What the snapshot oracle does on chrome-devtools-mcp's side instead of
     * this step, when the reference gets the step wrong (its result differs
     * for a product reason, not a snapshot one): both pages then reach the same
     * state to compare. The task table still runs the real step on both.
     */
    referenceInstead?: {reason: string; step: CorpusStep};
  };

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
    /**
     * The snapshot line of an element whose frame `check` runs in (it gets
     * the element as its argument): for an app in a cross-site iframe, whose
     * state the top document cannot read. Default: the top document.
     */
    checkIn?: RegExp;
    /** What `check` returns once the task is done. */
    expect: unknown;
  };
}
