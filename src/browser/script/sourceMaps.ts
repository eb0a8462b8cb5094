import {fileURLToPath} from 'node:url';

import {isIgnored, originalPositionFor, TraceMap} from '@jridgewell/trace-mapping';

import type {Protocol} from '../../../protocol/index.js';
import type {CdpSession} from '../../cdp/CdpConnection.js';
import {withTimeout} from '../../util/async.js';
import {debug} from '../../util/logger.js';
import type {PathSandbox} from '../../util/sandbox.js';
import {PROBE_URL} from '../core/probe.js';
import type {UrlPolicy} from '../network/urlPolicy.js';
import type {StackFragment, StackFrameText, SymbolizedStack} from './stacks.js';

/** Scripts with a source map remembered per page (oldest forgotten first). */
const MAX_MAPPED_SCRIPTS = 5_000;
/** Parsed source maps cached per page. */
const MAX_CACHED_MAPS = 32;
/** Largest source map we load. */
const MAX_MAP_BYTES = 32 * 1024 * 1024;
/** Bound of loading one source map (fetch and parse). */
const MAP_LOAD_TIMEOUT_MS = 3_000;
/** Longest location label before its middle is elided. */
const MAX_NAME_CHARS = 150;

interface ScriptInfo {
  url: string;
  sourceMapURL: string;
}

/** What loading a map may touch: the URL policy for remote maps, the path sandbox for file maps. */
export interface SourceMapAccess {
  policy: UrlPolicy;
  files: Pick<PathSandbox, 'openRead'>;
  /** Session and frame through which remote maps are fetched (the page's main frame). */
  session: CdpSession;
  frameId: string;
  /** False with `--no-source-maps`: no map is loaded, stacks show the generated locations. */
  useMaps: boolean;
}

/** The label DevTools shows for a script URL: its last path segment with the query, `(index)` for a directory. */
export function displayName(url: string, scriptId?: string): string {
  if (!url) {
    return scriptId ? `VM${scriptId}` : '<anonymous>';
  }
  let name: string;
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'data:') {
      name = url;
    } else {
      const last = parsed.pathname.slice(parsed.pathname.lastIndexOf('/') + 1);
      name = (last ? decodeURIComponentSafe(last) : '(index)') + parsed.search;
    }
  } catch {
    name = url.slice(url.lastIndexOf('/') + 1) || url;
  }
  if (name.length > MAX_NAME_CHARS) {
    const half = Math.floor((MAX_NAME_CHARS - 1) / 2);
    name = `${name.slice(0, half)}…${name.slice(name.length - half)}`;
  }
  return name;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * Turns CDP stack traces into what tools print: display names, 1-based
 * positions, mapped through the page's source maps when its scripts declare
 * them. Maps are loaded lazily (when a stack is shown), cached, and only from
 * places the configuration allows.
 */
export class SourceMaps {
  /** `<sessionId>:<scriptId>` → script with a sourceMapURL. */
  readonly #scripts = new Map<string, ScriptInfo>();
  readonly #maps = new Map<string, Promise<TraceMap | undefined>>();

  /** Records scripts that declare a source map; returns the unsubscribe function. */
  attach(session: CdpSession): () => void {
    return session.on('Debugger.scriptParsed', e => {
      if (!e.sourceMapURL) {
        return;
      }
      if (this.#scripts.size >= MAX_MAPPED_SCRIPTS) {
        const oldest = this.#scripts.keys().next().value;
        if (oldest !== undefined) {
          this.#scripts.delete(oldest);
        }
      }
      this.#scripts.set(`${session.id}:${e.scriptId}`, {url: e.url, sourceMapURL: e.sourceMapURL});
    });
  }

  /** Symbolizes a stack (sync part and async parents). */
  async symbolize(
    stack: Protocol.Runtime.StackTrace | undefined,
    session: CdpSession,
    access: SourceMapAccess,
  ): Promise<SymbolizedStack | undefined> {
    if (!stack) {
      return undefined;
    }
    const fragments: StackFragment[] = [];
    let first = true;
    for (let s: Protocol.Runtime.StackTrace | undefined = stack; s; s = s.parent) {
      const frames = await Promise.all(s.callFrames.map(frame => this.#frame(frame, session, access)));
      fragments.push({
        description: first ? undefined : (s.description ?? ''),
        frames: frames.filter((f): f is StackFrameText => f !== undefined),
      });
      first = false;
    }
    return {fragments};
  }

  /** One frame; undefined when the source map ignore-lists it. */
  async #frame(
    frame: Protocol.Runtime.CallFrame,
    session: CdpSession,
    access: SourceMapAccess,
  ): Promise<StackFrameText | undefined> {
    if (frame.url === PROBE_URL) {
      // Our own in-page helper (it wraps timers): not the page's code.
      return undefined;
    }
    const fallback: StackFrameText = {
      functionName: frame.functionName,
      location: `${displayName(frame.url, frame.scriptId)}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`,
    };
    const script = access.useMaps ? this.#scripts.get(`${session.id}:${frame.scriptId}`) : undefined;
    if (!script) {
      return fallback;
    }
    const map = await this.#load(script, access);
    if (!map) {
      return fallback;
    }
    const original = originalPositionFor(map, {line: frame.lineNumber + 1, column: frame.columnNumber});
    if (original.source === null) {
      return fallback;
    }
    if (isIgnored(map, original.source)) {
      return undefined;
    }
    return {
      functionName: frame.functionName,
      location: `${displayName(original.source)}:${original.line}:${original.column + 1}`,
    };
  }

  #load(script: ScriptInfo, access: SourceMapAccess): Promise<TraceMap | undefined> {
    let mapUrl: string;
    try {
      mapUrl = new URL(script.sourceMapURL, script.url || undefined).href;
    } catch {
      return Promise.resolve(undefined);
    }
    const cacheKey = mapUrl.startsWith('data:') ? `${script.url}#${mapUrl.length}:${mapUrl.slice(-64)}` : mapUrl;
    let loading = this.#maps.get(cacheKey);
    if (loading) {
      // Refresh its place in the LRU order.
      this.#maps.delete(cacheKey);
      this.#maps.set(cacheKey, loading);
      return loading;
    }
    loading = withTimeout(fetchMap(mapUrl, access), MAP_LOAD_TIMEOUT_MS, `loading ${mapUrl}`)
      .then(text => (text === undefined ? undefined : new TraceMap(text, mapUrl)))
      .catch((error: unknown) => {
        debug(`source map ${mapUrl.slice(0, 200)} not used`, error instanceof Error ? error.message : error);
        return undefined;
      });
    this.#maps.set(cacheKey, loading);
    if (this.#maps.size > MAX_CACHED_MAPS) {
      const oldest = this.#maps.keys().next().value;
      if (oldest !== undefined) {
        this.#maps.delete(oldest);
      }
    }
    return loading;
  }
}

/** The map's JSON text, or undefined when it may not or cannot be loaded. */
async function fetchMap(mapUrl: string, access: SourceMapAccess): Promise<string | undefined> {
  const url = new URL(mapUrl);
  switch (url.protocol) {
    case 'data:':
      return decodeDataUrl(mapUrl);
    case 'file:':
      return readSandboxedFile(fileURLToPath(url), access.files);
    case 'http:':
    case 'https:':
      if (!(await access.policy.isAllowed(mapUrl))) {
        debug(`source map ${mapUrl} is blocked by the URL policy`);
        return undefined;
      }
      return loadThroughBrowser(mapUrl, access);
    default:
      return undefined;
  }
}

function decodeDataUrl(dataUrl: string): string | undefined {
  const comma = dataUrl.indexOf(',');
  if (comma === -1) {
    return undefined;
  }
  const meta = dataUrl.slice(5, comma);
  const payload = dataUrl.slice(comma + 1);
  const text = meta.endsWith(';base64') ? Buffer.from(payload, 'base64').toString('utf8') : decodeURIComponent(payload);
  return text.length > MAX_MAP_BYTES ? undefined : text;
}

async function readSandboxedFile(path: string, files: Pick<PathSandbox, 'openRead'>): Promise<string | undefined> {
  const {handle, stats} = await files.openRead(path);
  try {
    if (stats.size > MAX_MAP_BYTES) {
      return undefined;
    }
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Fetches through the browser's network stack, as DevTools does: same
 * cookies, proxy and reachability as the page (also for a remote browser).
 */
async function loadThroughBrowser(mapUrl: string, access: SourceMapAccess): Promise<string | undefined> {
  const {resource} = await access.session.send('Network.loadNetworkResource', {
    frameId: access.frameId,
    url: mapUrl,
    options: {disableCache: false, includeCredentials: true},
  });
  if (!resource.success || !resource.stream) {
    return undefined;
  }
  const handle = resource.stream;
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for (;;) {
      const chunk = await access.session.send('IO.read', {handle, size: 1024 * 1024});
      const bytes = Buffer.from(chunk.data, chunk.base64Encoded ? 'base64' : 'utf8');
      total += bytes.length;
      if (total > MAX_MAP_BYTES) {
        return undefined;
      }
      chunks.push(bytes);
      if (chunk.eof) {
        break;
      }
    }
  } finally {
    void access.session.trySend('IO.close', {handle});
  }
  return Buffer.concat(chunks).toString('utf8');
}
