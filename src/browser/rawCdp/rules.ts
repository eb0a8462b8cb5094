/**
 * The vocabulary of the raw CDP policy: what a rule sees (the calling
 * session's own contexts and targets, the operator's switches, the file
 * sandbox) and the small rules the tables are written with.
 *
 * A rule answers with the reason a command is refused, or undefined when it
 * may go. Rules see a copy of the parameters and may rewrite them (a file
 * path becomes the checked path Chrome is handed).
 */
import type {CdpCommand} from '../../../protocol/index.js';

export type RawTarget = 'page' | 'browser';

/** Tool categories whose switches the policy applies (the tools' `--category…` flags). */
export type RawCategory =
  'input' | 'navigation' | 'emulation' | 'performance' | 'network' | 'memory' | 'extensions' | 'pwa' | 'webmcp';

/** The operator's switches and the file sandbox, as the calling session has them. */
export interface RawSwitches {
  javascriptEvaluation: boolean;
  fileNavigations: boolean;
  acceptInsecureCerts: boolean;
  redactNetworkHeaders: boolean;
  /** Categories that are on. */
  categories: ReadonlySet<RawCategory>;
  /** Throws (saying why) when the tools may not navigate to `url` (script and file URLs, by the switches). */
  checkNavigation(url: string): void;
  /** A local file or folder Chrome will read, checked as upload_file checks it; what to hand Chrome (a private copy of a file). */
  checkReadPath(path: string): Promise<string>;
  /** Whether the URL policy (--blockedUrlPattern/--allowedUrlPattern) lets the browser load `url`. */
  urlAllowed(url: string): Promise<boolean>;
}

/** What belongs to the calling session. */
export interface Ownership {
  /** A browser context of the session's own (undefined: the default context). */
  context(id: string | undefined): boolean;
  /** A target (page, frame, worker, tab) of the session's own. */
  target(id: string): boolean;
  /** A page the server tracks (any session's): closing or detaching it behind the server's back breaks the model. */
  trackedPage(id: string): boolean;
  /** The session's browser contexts, for messages. */
  contextIds(): string[];
  /** The window ids of the session's pages. */
  windows(): Promise<number[]>;
}

export interface RuleContext {
  readonly target: RawTarget;
  readonly switches: RawSwitches;
  readonly own: Ownership;
}

export type Params = Record<string, unknown>;
export type Verdict = string | undefined;
export type Rule = (params: Params, context: RuleContext) => Verdict | Promise<Verdict>;

export type Domain = CdpCommand extends infer M ? (M extends `${infer D}.${string}` ? D : never) : never;
export type CommandOf<D extends string> = CdpCommand extends infer M
  ? M extends `${D}.${infer N}`
    ? N
    : never
  : never;

/** How one domain is treated: the default for its commands, with exceptions by command. */
export interface DomainPolicy<D extends string> {
  /** Why the default is what it is. */
  why: string;
  /** The tool category that does what this domain does: off, the domain is refused. */
  category?: RawCategory;
  default: Rule;
  commands?: Partial<Record<CommandOf<D>, Rule>>;
}

export type DomainTable = {[D in Domain]: DomainPolicy<D>};

export const allow: Rule = () => undefined;

export const refuse =
  (reason: string): Rule =>
  () =>
    reason;

/** Refused while --no-javascript-evaluation is on: the command runs (or plants) caller-given JavaScript. */
export const needsJavaScript =
  (what = 'it runs JavaScript the caller gives'): Rule =>
  (_params, {switches}) =>
    switches.javascriptEvaluation
      ? undefined
      : `${what}, and --no-javascript-evaluation turns that off (as it does evaluate_script).`;

/** Refused while the category is off, as its tools are. */
export const inCategory =
  (category: RawCategory, flag: string): Rule =>
  (_params, {switches}) =>
    switches.categories.has(category)
      ? undefined
      : `what it does belongs to the tools of ${flag}, which is off. Restart the server with ${flag}=true.`;

/** The first refusal of several rules, in order. */
export function all(...rules: Rule[]): Rule {
  return async (params, context) => {
    for (const rule of rules) {
      const verdict = await rule(params, context);
      if (verdict !== undefined) {
        return verdict;
      }
    }
    return undefined;
  };
}

/** Refused when `field` is true. */
export const unless =
  (field: string, reason: string): Rule =>
  params =>
    params[field] === true ? reason : undefined;

/** Refused when the (optional) string `field` is given and `when(value)` holds. */
export function whenString(
  field: string,
  when: (value: string, context: RuleContext) => Verdict | Promise<Verdict>,
): Rule {
  return (params, context) => {
    const value = params[field];
    return typeof value === 'string' ? when(value, context) : undefined;
  };
}

/** The URL check of the navigation tools (script and file URLs by the switches), as a rule. */
export function navigationUrl(field = 'url'): Rule {
  return whenString(field, (url, {switches}) => {
    try {
      switches.checkNavigation(url);
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  });
}

/** Local paths Chrome will read (a string or an array of strings), checked against the roots and rewritten. */
export function readPaths(field: string, holder?: string): Rule {
  return async (params, {switches}) => {
    const owner = holder ? params[holder] : params;
    if (!owner || typeof owner !== 'object') {
      return undefined;
    }
    const record = owner as Params;
    const value = record[field];
    try {
      if (typeof value === 'string') {
        record[field] = await switches.checkReadPath(value);
      } else if (Array.isArray(value)) {
        record[field] = await Promise.all(value.map(path => switches.checkReadPath(String(path))));
      }
      return undefined;
    } catch (error) {
      return `it hands Chrome local files, which must be inside the allowed roots: ${error instanceof Error ? error.message : String(error)}`;
    }
  };
}
