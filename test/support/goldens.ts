import {readFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';

/** Repo root, from build/test/support/. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Where the pinned chrome-devtools-frontend keeps its formatter goldens. */
const FORMATTERS_DIR = `${REPO_ROOT}node_modules/chrome-devtools-frontend/front_end/models/ai_assistance/data_formatters/`;

export interface Golden {
  title: string;
  content: string;
}

/** Entries of a DevTools `*.snapshot.txt` file ("Title: …\nContent:\n…\n=== end content"). */
export function readGoldens(file: 'PerformanceInsightFormatter' | 'PerformanceTraceFormatter'): Golden[] {
  const text = readFileSync(`${FORMATTERS_DIR}${file}.snapshot.txt`, 'utf8');
  return [...text.matchAll(/^Title: (.*)\nContent:\n([\s\S]*?)\n=== end content/gm)].map(m => ({
    title: m[1] ?? '',
    content: m[2] ?? '',
  }));
}

/** A trace recorded from one of the fixture pages (test/fixtures/traces/). */
export function traceFixture(name: 'clean' | 'shop'): string {
  return `${REPO_ROOT}test/fixtures/traces/${name}.json.gz`;
}

/** The `## <heading>` section of an insight text, heading line included, up to the next heading. */
export function markdownSection(text: string, heading: string): string | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex(l => l.startsWith(`## ${heading}`));
  if (start < 0) {
    return undefined;
  }
  const end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  return lines
    .slice(start, end < 0 ? undefined : end)
    .join('\n')
    .trimEnd();
}
