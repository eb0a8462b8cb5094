/**
 * The shapes of structured content (`--experimentalStructuredContent`), one
 * per response part, as valibot schemas: they give the TypeScript types of
 * what tools hand over, and the JSON Schemas tools declare as outputSchema.
 * Key names and shapes are chrome-devtools-mcp 1.11's.
 */
import * as v from 'valibot';

import type {SnapshotJsonNode} from './snapshotJson.js';

/** One page of a page list. */
export const PAGE = v.object({
  id: v.number(),
  url: v.string(),
  title: v.string(),
  selected: v.boolean(),
  isolatedContext: v.optional(v.string()),
});

/** Where a page of a paginated list is (indexes 0-based, end exclusive). */
export const PAGINATION = v.object({
  currentPage: v.number(),
  totalPages: v.number(),
  hasNextPage: v.boolean(),
  hasPreviousPage: v.boolean(),
  startIndex: v.number(),
  endIndex: v.number(),
  invalidPage: v.boolean(),
});

/** A node of the snapshot tree: its printed attributes and its children. */
export const SNAPSHOT_NODE: v.GenericSchema<SnapshotJsonNode> = v.objectWithRest(
  {
    id: v.string(),
    role: v.optional(v.string()),
    name: v.optional(v.string()),
    children: v.optional(v.array(v.lazy(() => SNAPSHOT_NODE))),
  },
  v.union([v.string(), v.number(), v.boolean()]),
);

/** A request of the network list. */
export const NETWORK_REQUEST = v.object({
  requestId: v.number(),
  method: v.string(),
  url: v.string(),
  /** HTTP status code, else the failure text, else "pending". */
  status: v.string(),
  selectedInDevToolsUI: v.boolean(),
});

const HEADERS = v.record(v.string(), v.string());

/** One request in full. */
export const NETWORK_REQUEST_DETAIL = v.object({
  ...NETWORK_REQUEST.entries,
  requestHeaders: HEADERS,
  requestBody: v.optional(v.string()),
  requestBodyFilePath: v.optional(v.string()),
  responseHeaders: v.optional(HEADERS),
  responseBody: v.optional(v.string()),
  responseBodyFilePath: v.optional(v.string()),
  failure: v.optional(v.string()),
  redirectChain: v.optional(v.array(NETWORK_REQUEST)),
});

/** A console message or a DevTools issue of the console list. */
export const CONSOLE_MESSAGE = v.union([
  v.object({
    type: v.string(),
    text: v.string(),
    argsCount: v.number(),
    id: v.number(),
    /** Consecutive equal messages shown as one. */
    count: v.optional(v.number()),
    stackTrace: v.optional(v.string()),
  }),
  v.object({type: v.literal('issue'), title: v.string(), count: v.number(), id: v.number()}),
]);

/** One console message or issue in full. */
export const CONSOLE_MESSAGE_DETAIL = v.object({
  id: v.number(),
  type: v.string(),
  text: v.optional(v.string()),
  argsCount: v.optional(v.number()),
  args: v.optional(v.array(v.string())),
  stackTrace: v.optional(v.string()),
  title: v.optional(v.string()),
  description: v.optional(v.string()),
  count: v.optional(v.number()),
  affectedResources: v.optional(v.array(v.string())),
});

/** An installed extension. */
export const EXTENSION = v.object({
  id: v.string(),
  name: v.string(),
  version: v.string(),
  path: v.string(),
  enabled: v.boolean(),
});

/** A tool the page offers (WebMCP, third-party developer tools). */
export const PAGE_TOOL = v.object({
  name: v.string(),
  description: v.string(),
  inputSchema: v.optional(v.record(v.string(), v.unknown())),
  annotations: v.optional(v.record(v.string(), v.unknown())),
});

/** A group of third-party developer tools. */
export const PAGE_TOOL_GROUP = v.object({
  name: v.string(),
  description: v.optional(v.string()),
  tools: v.array(PAGE_TOOL),
});

/** A service worker of an extension (`sw-<n>`). */
export const SERVICE_WORKER = v.object({id: v.string(), url: v.string()});

/** The emulated state of the response's page, each field only when emulated. */
export const EMULATION = {
  networkConditions: v.optional(v.string()),
  navigationTimeout: v.optional(v.number()),
  geolocation: v.optional(v.object({latitude: v.number(), longitude: v.number()})),
  viewport: v.optional(
    v.object({
      deviceScaleFactor: v.number(),
      isMobile: v.boolean(),
      hasTouch: v.boolean(),
      isLandscape: v.boolean(),
      width: v.number(),
      height: v.number(),
    }),
  ),
  userAgent: v.optional(v.string()),
  cpuThrottlingRate: v.optional(v.number()),
  colorScheme: v.optional(v.string()),
  forcedColors: v.optional(v.string()),
  prefersContrast: v.optional(v.string()),
  prefersReducedMotion: v.optional(v.string()),
};

/** The open dialog of the response's page. */
export const DIALOG = v.object({type: v.string(), message: v.string(), defaultValue: v.optional(v.string())});
