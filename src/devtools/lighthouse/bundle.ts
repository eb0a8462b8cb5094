import {loadLighthouseModule} from '../vendor.js';
import type {LighthouseCdpSession} from './LighthouseSession.js';

/** What Lighthouse needs of a Puppeteer page: its URL and a way to open a CDP session to it. */
export interface LighthousePage {
  url(): string;
  target(): {createCDPSession(): Promise<LighthouseCdpSession>};
}

export interface ScreenEmulation {
  mobile: boolean;
  width: number;
  height: number;
  deviceScaleFactor: number;
  disabled: boolean;
}

/** The Lighthouse flags lighthouse_audit sets (a subset of LH.Flags). */
export interface LighthouseFlags {
  onlyCategories: string[];
  output: string[];
  maxWaitForLoad: number;
  formFactor: 'desktop' | 'mobile';
  screenEmulation: ScreenEmulation;
  emulatedUserAgent: string;
  logLevel?: 'silent' | 'error' | 'warn' | 'info' | 'verbose';
}

/** The node details Lighthouse attaches to audit items (LH.Audit.Details.NodeValue). */
export interface LhrNode {
  type: 'node';
  lhId?: string;
  path?: string;
  selector?: string;
  snippet?: string;
  nodeLabel?: string;
  explanation?: string;
}

export interface LhrAudit {
  id: string;
  title: string;
  description?: string;
  score: number | null;
  scoreDisplayMode: string;
  displayValue?: string;
  details?: unknown;
}

export interface LhrCategory {
  id: string;
  title: string;
  score: number | null;
  auditRefs: Array<{id: string}>;
}

/** The parts of a Lighthouse result (LH.Result) we read. */
export interface Lhr {
  lighthouseVersion: string;
  finalDisplayedUrl: string;
  mainDocumentUrl?: string;
  runtimeError?: {code: string; message: string};
  runWarnings: string[];
  categories: Record<string, LhrCategory>;
  audits: Record<string, LhrAudit>;
  timing: {total: number};
}

export interface LighthouseBundle {
  navigation(page: LighthousePage, url: string, options: {flags: LighthouseFlags}): Promise<{lhr: Lhr} | undefined>;
  snapshot(page: LighthousePage, options: {flags: LighthouseFlags}): Promise<{lhr: Lhr} | undefined>;
  generateReport(lhr: Lhr, format: 'json' | 'html'): string;
  lighthouseVersion: string;
  userAgents: {mobile: string; desktop: string};
  screenEmulationMetrics: {mobile: ScreenEmulation; desktop: ScreenEmulation};
  /** lighthouse-logger: its events carry [title, ...args] arrays ('status', 'warning'). */
  lighthouseLogger: {
    events: {
      on(event: 'status' | 'warning', listener: (args: unknown[]) => void): unknown;
      off(event: 'status' | 'warning', listener: (args: unknown[]) => void): unknown;
    };
  };
}

/**
 * Imports the Lighthouse bundle on first use (it is 2.4 MB: never at server
 * start), after the Node 20 polyfills. Later calls share the module.
 */
export function loadLighthouse(): Promise<LighthouseBundle> {
  return loadLighthouseModule<LighthouseBundle>();
}
