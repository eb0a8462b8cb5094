/** The page state a finished call's response shows, as the server resolved it. */
import type {DialogView, EmulationView, PageSummary} from './format.js';
import type {DownloadView} from './formatDownloads.js';

/** A service worker of an extension, as page lists show it. */
export interface WorkerSummary {
  /** `sw-<n>`, what evaluate_script and list_console_messages take as serviceWorkerId. */
  id: string;
  url: string;
}

/** What the server resolved for a finished call: the page state the response shows. */
export interface ResponseState {
  notes: string[];
  /** The response's page emulation and its default navigation timeout; absent for page-less tools. */
  emulation?: {state: EmulationView; navigationTimeoutMs: number};
  dialog?: DialogView;
  /** Resolved only when the tool asked for the page list. */
  pages?: {
    note?: string;
    items: PageSummary[];
    /** With --categoryExtensions: `chrome-extension://` pages, listed apart. */
    extensionPages?: PageSummary[];
    /** With --categoryExtensions: the extensions' service workers. */
    serviceWorkers?: WorkerSummary[];
  };
  /** Resolved only when the tool asked for a snapshot. */
  snapshot?: string[];
  /** Downloads that began during the call. */
  downloads?: DownloadView[];
  /** What the URL policy blocked during the call that pages started by themselves. */
  blocked?: Array<{kind: string; url: string}>;
  /** The handler's (or the resolution's) failure. */
  error?: string;
  /** Whether the error quotes the page (util/pageQuote.ts): --untrustedContentMarkers marks it then. */
  errorQuotesPage?: boolean;
}
