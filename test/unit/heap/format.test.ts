import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {parseByteSize, parseByteSizeRange} from '../../../src/devtools/heap/byteSize.js';
import {
  formatBytesToKb,
  formatContexts,
  formatDiffDetail,
  formatDuplicateStrings,
  formatName,
  formatNodeList,
  formatRetainingPaths,
} from '../../../src/devtools/heap/format.js';
import {formatLeakVerdict} from '../../../src/devtools/heap/leakVerdict.js';
import {paginate, paginationLines} from '../../../src/devtools/heap/paginate.js';

const kB = (text: string) => text.replaceAll(' kB', '\u00a0kB');

describe('heap formatting (chrome-devtools-mcp 1.11 text)', () => {
  it('formats sizes as DevTools does: kB with a no-break space, one decimal below 100 kB', () => {
    // Values and texts from chrome-devtools-mcp's own output.
    assert.equal(formatBytesToKb(2232654), kB('2,233 kB'));
    assert.equal(formatBytesToKb(1538700), kB('1,539 kB'));
    assert.equal(formatBytesToKb(169288), kB('169 kB'));
    assert.equal(formatBytesToKb(99392), kB('99.4 kB'));
    assert.equal(formatBytesToKb(48), kB('0.0 kB'));
    assert.equal(formatBytesToKb(0), kB('0.0 kB'));
    assert.equal(formatBytesToKb(-20), kB('-0.0 kB'));
    assert.equal(formatBytesToKb(-150_000), kB('-150.0 kB'));
  });

  it('cuts long names and escapes line breaks', () => {
    assert.equal(formatName('a'.repeat(101), {}), `${'a'.repeat(100)}...`);
    assert.equal(formatName('abcdef', {maxNameLength: 3}), 'abc...');
    assert.equal(formatName('one\ntwo\rthree', {}), 'one\\ntwo\\rthree');
  });

  it('prints node and edge lists, and an empty line for an empty list', () => {
    const node = {id: 7, name: 'Foo', distance: 3, nodeIndex: 0, retainedSize: 2000, selfSize: 24, type: 'object'};
    const nodes = formatNodeList({kind: 'nodes', page: paginate([node])}, {});
    assert.deepEqual(nodes, [
      kB('nodeId,nodeName,type,distance,selfSize,retainedSize\n7,Foo,object,3,0.0 kB,2.0 kB'),
      'Showing 1-1 of 1 (Page 1 of 1).',
    ]);
    const edges = formatNodeList(
      {kind: 'edges', page: paginate([{name: 'x', type: 'property', edgeIndex: 0, node}])},
      {},
    );
    assert.equal(edges[0], kB('name,type,nodeId,nodeName,selfSize,retainedSize\nx,property,7,Foo,0.0 kB,2.0 kB'));
    assert.deepEqual(formatNodeList({kind: 'nodes', page: paginate([])}, {}), ['', 'Showing 0-0 of 0 (Page 1 of 1).']);
  });

  it('paginates like the reference', () => {
    const items = Array.from({length: 45}, (_, i) => i);
    assert.deepEqual(paginationLines(paginate(items, {pageSize: 20, pageIdx: 1}).info), [
      'Showing 21-40 of 45 (Page 2 of 3).',
      'Next page: 2',
      'Previous page: 0',
    ]);
    const invalid = paginate(items, {pageIdx: 9});
    assert.deepEqual(invalid.items, items.slice(0, 20));
    assert.deepEqual(paginationLines(invalid.info), [
      'Invalid page number provided. Showing first page.',
      'Showing 1-20 of 45 (Page 1 of 3).',
      'Next page: 1',
    ]);
    assert.equal(paginate(items).items.length, 45);
  });

  it('prints retaining paths as an indented tree with the limits reached', () => {
    const leaf = {
      edgeIndex: 0,
      edgeName: 'leaks',
      edgeType: 'property',
      nodeId: 2,
      nodeIndex: 0,
      nodeName: 'Window',
      distance: 3,
    };
    const lines = formatRetainingPaths(
      {
        paths: [
          {
            ...leaf,
            nodeId: 1,
            nodeName: 'Array',
            edgeName: '0',
            edgeType: 'element',
            distance: 4,
            children: [{...leaf, children: []}],
          },
        ],
        limitsReached: {depth: true, nodes: false},
      },
      {},
    );
    assert.deepEqual(lines, [
      '### Retaining Paths',
      '<- @1 Array via element 0 (distance: 4)',
      '  <- @2 Window via property leaks (distance: 3)',
      'Note: results are truncated, the following limits were reached: depth.',
    ]);
    assert.deepEqual(formatRetainingPaths({paths: [], limitsReached: {}}, {}), [
      '### Retaining Paths',
      'No retaining paths found.',
    ]);
  });

  it('prints duplicate strings, diffs and context analysis', () => {
    const groups = [
      {
        value: 'x'.repeat(5),
        count: 2,
        totalSelfSize: 40,
        totalRetainedSize: 40,
        nodes: [
          {id: 3, selfSize: 20, retainedSize: 20, distance: 1},
          {id: 5, selfSize: 20, retainedSize: 20, distance: 1},
        ],
      },
    ];
    assert.deepEqual(formatDuplicateStrings(paginate(groups), {maxNameLength: 2}).slice(2), [
      'value,count,totalSelfSize,totalRetainedSize,truncated,nodeIds',
      kB('"xx...",2,0.0 kB,0.0 kB,false,@3 @5'),
    ]);
    const diff = {
      index: 0,
      className: 'Foo',
      addedCount: 2,
      removedCount: 1,
      countDelta: 1,
      addedSize: 2000,
      removedSize: 0,
      sizeDelta: -100,
      addedIds: [4, 6],
      addedSelfSizes: [1000, 1000],
      deletedIds: [2],
      deletedSelfSizes: [0],
    };
    assert.deepEqual(formatDiffDetail(diff, {}), [
      '### Heap Snapshot Detailed Diff',
      kB('Foo: # new: 2, # deleted: 1, # delta: +1, alloc size: +2.0 kB, freed size: 0.0 kB, size delta: -0.1 kB'),
      'Objects:',
      kB('  + @4 (self_size: 1.0 kB)'),
      kB('  + @6 (self_size: 1.0 kB)'),
      kB('  - @2 (self_size: 0.0 kB)'),
    ]);
    assert.deepEqual(
      formatContexts(
        {page: paginate([], {pageIdx: 0}), scriptsWithoutScopes: [{scriptNodeId: 9, scriptName: '', contextCount: 1}]},
        {},
      ),
      [
        '### Context Analysis',
        'Showing 0-0 of 0 (Page 1 of 1).',
        'No live contexts with dead fields were found.',
        '',
        'Scripts without scope metadata could not be analyzed:',
        '- `script @9` (@9) — 1 context',
      ],
    );
  });

  it('names the holder of each grown class in the leak verdict', () => {
    const path = [
      {nodeId: 10, nodeName: 'Array', edgeType: 'element', edgeName: '7', distance: 5},
      {
        nodeId: 11,
        nodeName: 'Window [JSGlobalObject] / http://a',
        edgeType: 'property',
        edgeName: 'cache',
        distance: 4,
      },
      {nodeId: 12, nodeName: 'system / NativeContext', edgeType: 'internal', edgeName: 'global_object', distance: 3},
    ];
    const lines = formatLeakVerdict(
      {grownClassCount: 4, classes: [{className: 'Item', countDelta: 300, sizeDelta: 7200, sampleId: 99, path}]},
      {},
    );
    assert.deepEqual(lines, [
      '### Leak Verdict',
      '4 classes grew in both object count and size. Check first:',
      kB(
        '- Item: +300 objects, +7.2 kB. Its newest object @99 is retained through property "cache" of Window [JSGlobalObject] / http://a:',
      ),
      '  <- @10 Array via element 7 (distance: 5)',
      '  <- @11 Window [JSGlobalObject] / http://a via property cache (distance: 4)',
      '  <- @12 system / NativeContext via internal global_object (distance: 3)',
    ]);
    assert.deepEqual(formatLeakVerdict({grownClassCount: 0, classes: []}, {}), [
      '### Leak Verdict',
      'No class grew in both object count and size between the two snapshots: no sign of a leak.',
    ]);
  });
});

describe('byte sizes and ranges', () => {
  it('reads decimal and binary units', () => {
    assert.equal(parseByteSize('1024'), 1024);
    assert.equal(parseByteSize('1.5KB'), 1500);
    assert.equal(parseByteSize('2 MiB'), 2 * 1024 * 1024);
    assert.equal(parseByteSize('1g'), 1e9);
    assert.throws(() => parseByteSize('1XB'), /Unknown unit "XB" in "1XB"\. Supported units: B, KB, KiB/);
    assert.throws(() => parseByteSize('lots'), /Invalid byte size format: "lots"/);
  });

  it('reads ranges with either bound left out', () => {
    assert.deepEqual(parseByteSizeRange('1MB'), {min: 1e6, max: undefined});
    assert.deepEqual(parseByteSizeRange('1KB-2KB'), {min: 1000, max: 2000});
    assert.deepEqual(parseByteSizeRange('-1KB'), {min: 0, max: 1000});
    assert.deepEqual(parseByteSizeRange('1KB-'), {min: 1000, max: undefined});
    assert.throws(() => parseByteSizeRange('2KB-1KB'), /The lower bound must not exceed the upper bound/);
    assert.throws(() => parseByteSizeRange('-'), /At least one bound is required/);
    assert.throws(() => parseByteSizeRange('1-2-3'), /Expected a size or range/);
  });
});
