import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import type {Lhr, LhrAudit} from '../../../src/devtools/lighthouse/bundle.js';
import {countAudits, failedAudits, MAX_NODES_PER_AUDIT, summarize} from '../../../src/devtools/lighthouse/summarize.js';
import {formatLighthouse} from '../../../src/response/formatLighthouse.js';

const node = (selector: string, extra: Record<string, string> = {}) => ({
  type: 'node',
  lhId: `id-${selector}`,
  selector,
  snippet: `<${selector}>`,
  nodeLabel: selector,
  ...extra,
});

function lhr(audits: LhrAudit[], categories: Lhr['categories']): Lhr {
  return {
    lighthouseVersion: '13.4.1',
    finalDisplayedUrl: 'http://x/',
    runWarnings: [],
    categories,
    audits: Object.fromEntries(audits.map(a => [a.id, a])),
    timing: {total: 1234.5},
  };
}

const audit = (id: string, score: number | null, details?: unknown, extra: Partial<LhrAudit> = {}): LhrAudit => ({
  id,
  title: `${id} title`,
  score,
  scoreDisplayMode: score === null ? 'notApplicable' : 'binary',
  ...(details ? {details} : {}),
  ...extra,
});

describe('Lighthouse summary', () => {
  it('counts passed (score 1) and failed (below 1) audits, not unscored ones', () => {
    const result = lhr([audit('a', 1), audit('b', 0), audit('c', 0.5), audit('d', null)], {});
    assert.deepEqual(countAudits(result), {passed: 1, failed: 2});
  });

  it('lists failed audits with their categories and nodes: merged, capped, sub-items and debug data skipped', () => {
    const many = Array.from({length: 12}, (_, i) => node(`li:nth-child(${i + 1})`));
    const result = lhr(
      [
        audit('image-alt', 0, {
          type: 'table',
          items: [
            {node: node('img')},
            // The same element again, with the explanation only this occurrence has.
            {node: {...node('img'), explanation: '  Fix  this\n now '}},
            {subItems: {type: 'subitems', items: [{node: node('background')}]}},
            {debug: {type: 'debugdata', node: node('debug')}},
          ],
        }),
        audit(
          'listitem',
          0.5,
          {type: 'list', items: [{type: 'table', items: many.map(n => ({node: n}))}]},
          {
            displayValue: '12 items',
            description: 'Lists   need\n\nitems.',
          },
        ),
        audit('fine', 1, {type: 'table', items: [{node: node('p')}]}),
      ],
      {
        accessibility: {
          id: 'accessibility',
          title: 'Accessibility',
          score: 0.655,
          auditRefs: [{id: 'image-alt'}, {id: 'listitem'}],
        },
        seo: {id: 'seo', title: 'SEO', score: null, auditRefs: [{id: 'image-alt'}]},
      },
    );
    const failed = failedAudits(result);
    assert.deepEqual(
      failed.map(a => [a.id, a.categories, a.totalNodes, a.nodes.length]),
      [
        ['image-alt', ['accessibility', 'seo'], 1, 1],
        ['listitem', ['accessibility'], 12, MAX_NODES_PER_AUDIT],
      ],
    );
    assert.equal(failed[0]?.nodes[0]?.explanation, '  Fix  this\n now ');

    const text = formatLighthouse(
      summarize(
        {lhr: result, navigated: false},
        {mode: 'snapshot', device: 'mobile', reports: ['/r.json'], pageUrl: 'http://x/'},
      ),
    );
    assert.deepEqual(text.slice(0, 11), [
      '## Lighthouse audit results',
      'Mode: snapshot',
      'Device: mobile',
      'URL: http://x/',
      '### Category scores',
      '- Accessibility: 66 (accessibility)',
      '- SEO: n/a (seo)',
      '### Audit summary',
      'Passed: 1',
      'Failed: 2',
      'Total timing: 1234.5ms',
    ]);
    assert.deepEqual(text.slice(11, 16), [
      '### Failed audits',
      '- image-alt [accessibility, seo]: image-alt title (score: 0)',
      '  Nodes (1):',
      '  - selector="img" label="img" snippet="<img>"',
      '    Fix this now',
    ]);
    assert.deepEqual(text.slice(16, 19), [
      '- listitem [accessibility]: listitem title (12 items) (score: 0.5)',
      '  Lists need items.',
      '  Nodes (12, showing 10):',
    ]);
    assert.deepEqual(text.slice(-2), ['### Reports', '- /r.json']);
  });

  it('quotes node fields as JSON and notes a reload and a runtime error', () => {
    const result = {
      ...lhr(
        [audit('x', 0, {items: [{node: {type: 'node', selector: 'a[title="q"]', snippet: '<a\n  title="q">'}}]})],
        {},
      ),
      runtimeError: {code: 'ERRORED_DOCUMENT_REQUEST', message: 'Status code: 500.'},
    };
    const text = formatLighthouse(
      summarize(
        {lhr: result, navigated: true},
        {mode: 'navigation', device: 'desktop', reports: [], pageUrl: 'http://x/'},
      ),
    );
    assert.equal(text[4], 'Runtime error: ERRORED_DOCUMENT_REQUEST: Status code: 500.');
    assert.ok(text.includes('  - selector="a[title=\\"q\\"]" snippet="<a title=\\"q\\">"'), text.join('\n'));
    assert.match(text.at(-1) ?? '', /^Lighthouse reloaded the page to audit it \(now http:\/\/x\/\)/);
  });
});
