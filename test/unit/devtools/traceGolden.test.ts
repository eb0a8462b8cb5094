import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {before, describe, it} from 'node:test';
import {gunzipSync} from 'node:zlib';

import {
  type AnalyzedTrace,
  analyzeTrace,
  formatInsight,
  formatTraceSummary,
  insightNames,
} from '../../../src/devtools/trace/analysis.js';
import {loadPolyfills} from '../../../src/devtools/vendor.js';
import {markdownSection, readGoldens, traceFixture} from '../../support/goldens.js';

/** Every insight the vendored engine computes for a navigation (tools.md §5.3). */
const ALL_INSIGHTS = [
  'INPBreakdown',
  'LCPBreakdown',
  'LCPDiscovery',
  'CLSCulprits',
  'RenderBlocking',
  'NetworkDependencyTree',
  'ImageDelivery',
  'DocumentLatency',
  'FontDisplay',
  'Viewport',
  'DOMSize',
  'ThirdParties',
  'DuplicatedJavaScript',
  'SlowCSSSelector',
  'ForcedReflow',
  'Cache',
  'CharacterSet',
  'ModernHTTP',
  'LegacyJavaScript',
];

/**
 * Goldens whose trace had nothing to report for that insight: their text does
 * not depend on the trace, so our bundle must print them byte for byte on the
 * clean fixture page.
 */
const TRACE_INDEPENDENT_GOLDENS: Record<string, string> = {
  CLSCulprits: 'PerformanceInsightFormatter CLS serializes correctly when there are no layout shifts',
  NetworkDependencyTree:
    'PerformanceInsightFormatter NetworkDependencyTree serializes correctly when there are no results',
  ImageDelivery:
    'PerformanceInsightFormatter ImageDelivery serializes the correct details when there are no optimizable images',
  FontDisplay: 'PerformanceInsightFormatter FontDisplay serializes correctly when there are no results',
  DOMSize: 'PerformanceInsightFormatter DomSize serializes correctly when there are no results',
  ThirdParties: 'PerformanceInsightFormatter ThirdParties serializes correctly when there are no results',
  DuplicatedJavaScript:
    'PerformanceInsightFormatter Duplicated javascript serializes no details if there is no duplicate javascript',
  SlowCSSSelector: 'PerformanceInsightFormatter SlowCssSelector serializes correctly when there are no results',
  ForcedReflow: 'PerformanceInsightFormatter ForcedReflow serializes correctly when there are no results',
  Cache: 'PerformanceInsightFormatter Cache serializes correctly when there are no results',
  ModernHTTP:
    'PerformanceInsightFormatter ModernHTTP serializes the correct details when no requests are using legacy http',
  LegacyJavaScript:
    'PerformanceInsightFormatter Legacy JavaScript serializes the correct details when there is no legacy javascript in modules',
};

async function analyzeFixture(name: 'clean' | 'shop'): Promise<AnalyzedTrace> {
  return analyzeTrace(gunzipSync(readFileSync(traceFixture(name))), {cpuThrottling: 1});
}

describe('DevTools trace bundle against the formatter goldens of chrome-devtools-frontend', () => {
  const insightGoldens = readGoldens('PerformanceInsightFormatter');
  const traceGoldens = readGoldens('PerformanceTraceFormatter');
  let clean: AnalyzedTrace;
  let shop: AnalyzedTrace;

  before(async () => {
    clean = await analyzeFixture('clean');
    shop = await analyzeFixture('shop');
  });

  it('has the built-ins DevTools needs once the polyfills are loaded (Node 20 lacks them)', async () => {
    await loadPolyfills();
    assert.equal(typeof (Promise as unknown as Record<string, unknown>)['withResolvers'], 'function');
    const set = new Set([1, 2]) as Set<number> & {union?: unknown; intersection?: unknown; isSubsetOf?: unknown};
    assert.equal(typeof set.union, 'function');
    assert.equal(typeof set.intersection, 'function');
    assert.equal(typeof set.isSubsetOf, 'function');
    const iterator = new Map([[1, 1]]).values() as unknown as Record<string, unknown>;
    for (const helper of ['map', 'filter', 'flatMap', 'reduce', 'toArray', 'some', 'every', 'find', 'forEach']) {
      assert.equal(typeof iterator[helper], 'function', `Iterator.prototype.${helper}`);
    }
  });

  it('computes all 19 insights, including the three the engine drops silently without polyfills', () => {
    for (const trace of [clean, shop]) {
      assert.deepEqual([...insightNames(trace).keys()], ['NAVIGATION_0']);
      assert.deepEqual(insightNames(trace).get('NAVIGATION_0'), ALL_INSIGHTS);
    }
  });

  for (const [insight, title] of Object.entries(TRACE_INDEPENDENT_GOLDENS)) {
    it(`prints ${insight} exactly as the golden "${title.replace('PerformanceInsightFormatter ', '')}"`, () => {
      const golden = insightGoldens.find(g => g.title === title);
      assert.ok(golden, `golden "${title}" exists in the pinned package`);
      assert.equal(formatInsight(clean, 'NAVIGATION_0', insight, 'DESKTOP'), golden.content);
    });
  }

  it('prints the fixed parts (title, summary, external resources) of every insight as its goldens do', () => {
    let compared = 0;
    for (const trace of [clean, shop]) {
      for (const insight of ALL_INSIGHTS) {
        const ours = formatInsight(trace, 'NAVIGATION_0', insight, 'DESKTOP');
        const title = ours.split('\n')[0] ?? '';
        assert.match(title, /^## Insight Title: /);
        for (const golden of insightGoldens.filter(g => g.content.startsWith(`${title}\n`))) {
          for (const heading of ['Insight Summary:', 'External resources:']) {
            assert.equal(
              markdownSection(ours, heading),
              markdownSection(golden.content, heading),
              `${insight} ${heading}`,
            );
          }
          compared++;
        }
      }
    }
    // Every insight but CharacterSet has goldens, most several.
    assert.ok(compared >= 40, `compared ${compared} golden sections`);
  });

  it('prints the trace summary as the goldens do: header, insight descriptions and example questions', () => {
    const summaries = traceGoldens.filter(g => g.title.startsWith('PerformanceTraceFormatter formatTraceSummary'));
    assert.ok(summaries.length >= 4);
    let compared = 0;
    for (const trace of [clean, shop]) {
      const ours = formatTraceSummary(trace, 'DESKTOP');
      assert.match(ours, /^## Summary of Performance trace findings:\nURL: http:\/\/127\.0\.0\.1:\d+\/(clean|shop)\n/);
      assert.match(ours, /\nTrace bounds: \{min: \d+µs, max: \d+µs\}\nCPU throttling: 1x\nNetwork throttling: none\n/);
      assert.match(ours, /\nMetrics \(field \/ real users\): n\/a – no data for this page in CrUX\n/);
      const header = /# Available insight sets\n\n.*\n/.exec(summaries[0]?.content ?? '')?.[0];
      assert.ok(header && ours.includes(header));
      for (const block of ours.split('\n  - insight name: ').slice(1)) {
        const name = block.split('\n')[0] ?? '';
        const fixed = (text: string) =>
          text
            .split('\n')
            .filter(l => /^ {4}(description|example question): /.test(l))
            .join('\n');
        for (const golden of summaries) {
          const theirs = golden.content.split('\n  - insight name: ').find(b => b.startsWith(`${name}\n`));
          if (theirs) {
            assert.equal(fixed(block.split('\n\n')[0] ?? ''), fixed(theirs), `${name} in ${golden.title}`);
            compared++;
          }
        }
      }
    }
    assert.ok(compared >= 5, `compared ${compared} insight descriptions`);
  });

  it('answers unknown insight sets and names as the reference does', () => {
    assert.equal(
      formatInsight(clean, 'NAVIGATION_9', 'LCPBreakdown', 'DESKTOP'),
      'No Performance Insights for the given insight set id. Only use ids given in the "Available insight sets" list.',
    );
    assert.equal(
      formatInsight(clean, 'NAVIGATION_0', 'NoSuchInsight', 'DESKTOP'),
      'No Insight with the name NoSuchInsight found. Double check the name you provided is accurate and try again.',
    );
    assert.equal(
      formatInsight(clean, 'NAVIGATION_0', 'toString', 'DESKTOP'),
      'No Insight with the name toString found. Double check the name you provided is accurate and try again.',
    );
  });

  it('refuses what is not a trace with the reference error', async () => {
    await assert.rejects(
      analyzeTrace(Buffer.alloc(0)),
      /^Error: There was an unexpected error parsing the trace: No buffer was provided\.$/,
    );
    await assert.rejects(analyzeTrace(Buffer.from('{"traceEvents": []}')), /No trace events were found/);
    await assert.rejects(analyzeTrace(Buffer.from('{"traceEvents": [{"ph": ')), /not valid JSON/);
  });
});
