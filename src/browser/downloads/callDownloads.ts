import type {PathSandbox} from '../../util/sandbox.js';
import type {DownloadRecord, DownloadTracker} from './downloads.js';

/** How long a response waits for the downloads its call started to finish. */
const DOWNLOAD_WAIT_MS = 3_000;
/** How long a response waits for a download its call is known to have started to begin. */
const DOWNLOAD_BEGIN_TIMEOUT_MS = 5_000;

/** A page as far as its downloads go: its id, and how many downloads its actions started (a link, a form). */
interface DownloadingPage {
  readonly id: number;
  readonly downloadsExpected: number;
}

/**
 * The downloads of one tool call, from its start to its response: the
 * tracker's mark when the call began, the expected-download count of the
 * page it acts on before its actions, and which records are the calling
 * session's (other sessions' pages download into the same folder).
 */
export class CallDownloads {
  #page: {page: DownloadingPage; expectedBefore: number} | undefined;

  private constructor(
    readonly tracker: DownloadTracker,
    readonly owns: (record: DownloadRecord) => boolean,
    readonly mark: number,
  ) {}

  /**
   * Starts the bookkeeping of a call. --downloadsDir must be inside the
   * calling session's roots, which its client may have changed: it is judged
   * again first. A private session downloads into its own folder: it does
   * not judge the shared one.
   */
  static async begin(
    tracker: DownloadTracker,
    owns: (record: DownloadRecord) => boolean,
    files: PathSandbox,
  ): Promise<CallDownloads> {
    if (!files.options.privateFolder) {
      await tracker.refresh(dir => files.validate(dir), files.roots.join('\0'));
    }
    return new CallDownloads(tracker, owns, tracker.mark());
  }

  /** The page the call acts on, before its actions (they may add to its expected downloads). */
  watch(page: DownloadingPage): void {
    this.#page = {page, expectedBefore: page.downloadsExpected};
  }

  /**
   * The session's downloads that began during the call: those its actions
   * are known to have started waited for to begin, and all of them a while
   * to finish (most are small: the response says where the file is rather
   * than "in progress").
   */
  async collect(): Promise<DownloadRecord[]> {
    const watched = this.#page;
    const expected = watched ? watched.page.downloadsExpected - watched.expectedBefore : 0;
    if (watched && expected > 0) {
      // A download link answers only once its server does: wait for the download to begin.
      await this.tracker.waitForBegun(this.mark, watched.page.id, expected, DOWNLOAD_BEGIN_TIMEOUT_MS);
    }
    const downloads = this.tracker.since(this.mark).filter(this.owns);
    if (downloads.length) {
      await this.tracker.settle(downloads, DOWNLOAD_WAIT_MS);
    }
    return downloads;
  }
}
