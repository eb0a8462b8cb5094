/**
 * One comparison point of a corpus page: both servers' snapshots, verbose
 * then non-verbose (timed: one server after the other), normalised and diffed as the oracle library does (uid
 * placeholders kept across the page's comparisons, so uid stability is
 * compared too). The non-verbose one is taken last: it is each server's
 * latest snapshot, whose uids the next interaction uses, so no extra
 * snapshot is needed per step.
 */
import assert from 'node:assert/strict';

import type {TestServer} from '../mcpClient.js';
import {diffLines, type OraclePair, snapshotSection, UidNormalizer} from '../oracle.js';
import {changedLines} from './report.js';
import {snapshot} from './runner.js';

/** Differing lines shown in a failure message. */
const SHOWN_DIFF_LINES = 60;

export interface ModeComparison {
  ours: string;
  theirs: string;
  diff: string[];
}

export interface ComparisonPoint {
  verbose: ModeComparison;
  nonVerbose: ModeComparison;
  /** The non-verbose take_snapshot texts with their real uids, for the next interaction. */
  oursText: string;
  theirsText: string;
  /** Milliseconds each server's non-verbose take_snapshot took. */
  oursMs: number;
  theirsMs: number;
}

async function timed(server: TestServer, verbose: boolean): Promise<{text: string; ms: number}> {
  const started = performance.now();
  const text = await snapshot(server, verbose);
  return {text, ms: performance.now() - started};
}

export class CorpusComparison {
  readonly #ours = new UidNormalizer();
  /** The reference shares one uid among AX nodes without a DOM node (see the oracle library). */
  readonly #theirs = new UidNormalizer(true);
  #points = 0;

  /** @param timed take the timed snapshots one server after the other (the report); tests take them at once. */
  constructor(
    readonly pair: OraclePair,
    readonly timed = false,
  ) {}

  async #mode(
    verbose: boolean,
  ): Promise<{cmp: ModeComparison; ours: {text: string; ms: number}; theirs: {text: string; ms: number}}> {
    // The timed (non-verbose) ones one after the other, each server first in
    // turn: run at the same time, the two Chromes compete for the cores and
    // the times say little. Verbose ones (not timed) run together.
    let ours: {text: string; ms: number};
    let theirs: {text: string; ms: number};
    if (verbose || !this.timed) {
      [ours, theirs] = await Promise.all([timed(this.pair.ours, verbose), timed(this.pair.theirs, verbose)]);
    } else if (this.#points++ % 2 === 0) {
      ours = await timed(this.pair.ours, verbose);
      theirs = await timed(this.pair.theirs, verbose);
    } else {
      theirs = await timed(this.pair.theirs, verbose);
      ours = await timed(this.pair.ours, verbose);
    }
    const o = this.#ours.normalize(snapshotSection(ours.text));
    const t = this.#theirs.normalize(snapshotSection(theirs.text));
    return {cmp: {ours: o, theirs: t, diff: diffLines(o, t)}, ours, theirs};
  }

  async compare(): Promise<ComparisonPoint> {
    const verbose = await this.#mode(true);
    const nonVerbose = await this.#mode(false);
    return {
      verbose: verbose.cmp,
      nonVerbose: nonVerbose.cmp,
      oursText: nonVerbose.ours.text,
      theirsText: nonVerbose.theirs.text,
      oursMs: nonVerbose.ours.ms,
      theirsMs: nonVerbose.theirs.ms,
    };
  }
}

/** Fails, with the differing lines of each mode, when the two servers' snapshots of a point differ. */
export function assertSamePoint(page: string, when: string, point: ComparisonPoint): void {
  const failures: string[] = [];
  for (const [mode, {diff}] of [
    ['non-verbose', point.nonVerbose],
    ['verbose', point.verbose],
  ] as const) {
    if (diff.length) {
      failures.push(`${mode}: ${changedLines(diff)} differing lines`, ...diff.slice(0, SHOWN_DIFF_LINES));
    }
  }
  assert.deepEqual(failures, [], `${page} ${when}: our snapshot differs from chrome-devtools-mcp's`);
}
