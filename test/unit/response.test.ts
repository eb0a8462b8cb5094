import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {formatDialog, formatPageLabel, formatPages, paginate} from '../../src/response/format.js';
import {ResponseBuilder} from '../../src/response/ResponseBuilder.js';
import {parseSections} from '../../src/response/sections.js';
import {snapshotJson} from '../../src/response/snapshotJson.js';

describe('response formatting', () => {
  it('labels pages with a title, truncating long ones', () => {
    assert.equal(formatPageLabel('', 'about:blank'), 'about:blank');
    assert.equal(formatPageLabel('Home', 'http://a/'), 'Home (http://a/)');
    const long = 'x'.repeat(60);
    assert.equal(formatPageLabel(long, 'u'), `${'x'.repeat(47)}... (u)`);
  });

  it('renders the page list with selection and isolated contexts', () => {
    assert.deepEqual(
      formatPages([
        {id: 1, title: '', url: 'about:blank', selected: false},
        {id: 3, title: 'T', url: 'http://x/', selected: true, isolatedContext: 'a'},
      ]),
      ['## Pages', '1: about:blank', '3: T (http://x/) [selected] isolatedContext=a'],
    );
    assert.deepEqual(formatPages([]), []);
  });

  it('renders dialogs, with the default value for prompts', () => {
    assert.deepEqual(formatDialog({type: 'alert', message: 'Hi'}), [
      '# Open dialog',
      'alert: Hi.',
      'Call handle_dialog to handle it before continuing.',
    ]);
    assert.equal(
      formatDialog({type: 'prompt', message: 'Name?', defaultPrompt: 'x'})[1],
      'prompt: Name? (default value: "x").',
    );
  });

  it('paginates as the reference does', () => {
    const items = Array.from({length: 45}, (_, i) => i);
    assert.deepEqual(paginate(items, undefined, undefined).lines, ['Showing 1-45 of 45 (Page 1 of 1).']);
    assert.deepEqual(paginate(items, 20, 1).lines, [
      'Showing 21-40 of 45 (Page 2 of 3).',
      'Next page: 2',
      'Previous page: 0',
    ]);
    assert.deepEqual(paginate(items, 20, 2).items, [40, 41, 42, 43, 44]);
    assert.deepEqual(paginate(items, 20, 9).lines, [
      'Invalid page number provided. Showing first page.',
      'Showing 1-20 of 45 (Page 1 of 3).',
      'Next page: 1',
    ]);
    assert.deepEqual(paginate([], 10, 0).lines, ['Showing 1-0 of 0 (Page 1 of 1).']);
  });

  it('assembles sections in the fixed order', () => {
    const response = new ResponseBuilder()
      .section('consoleList', ['## Console messages'], {items: [], pageSize: undefined, pageIdx: undefined})
      .line('Did it.')
      .attachSettle({navigatedToUrl: 'http://x/'});
    const text = response.render({
      notes: ['Note: reconnected.'],
      emulation: {state: {cpuThrottlingRate: 4}, navigationTimeoutMs: 10_000},
      dialog: {type: 'confirm', message: 'Sure?'},
      pages: {note: 'Note: moved.', items: [{id: 1, title: '', url: 'http://x/', selected: true}]},
      snapshot: ['## Latest page snapshot'],
      error: 'boom',
    });
    assert.equal(
      text,
      [
        'Note: reconnected.',
        'Did it.',
        'Page navigated to http://x/.',
        'Emulating CPU throttling: 4x slowdown',
        '# Open dialog',
        'confirm: Sure?.',
        'Call handle_dialog to handle it before continuing.',
        'Note: moved.',
        '## Pages',
        '1: http://x/ [selected]',
        '## Latest page snapshot',
        '## Console messages',
        'Error: boom',
      ].join('\n'),
    );
  });

  it('parses a rendered response back into its sections', () => {
    const text = new ResponseBuilder()
      .line('Successfully clicked on the element')
      .attachSettle({navigatedToUrl: 'http://x/b'})
      .section(
        'networkList',
        ['## Network requests', 'Showing 1-1 of 1 (Page 1 of 1).', 'reqid=1 GET http://x/ [200]'],
        {
          items: [{id: 1, method: 'GET', url: 'http://x/', status: '200'}],
          pageSize: undefined,
          pageIdx: undefined,
        },
      )
      .render({
        notes: [],
        pages: {items: [{id: 1, title: 'B', url: 'http://x/b', selected: true}]},
        snapshot: ['## Latest page snapshot', 'uid=1_0 RootWebArea "B" url="http://x/b"\n'],
        error: 'late failure',
      });
    assert.deepEqual(parseSections(text), {
      lines: ['Successfully clicked on the element'],
      navigation: ['Page navigated to http://x/b.'],
      pages: ['## Pages', '1: B (http://x/b) [selected]'],
      snapshot: ['## Latest page snapshot', 'uid=1_0 RootWebArea "B" url="http://x/b"', ''],
      networkList: ['## Network requests', 'Showing 1-1 of 1 (Page 1 of 1).', 'reqid=1 GET http://x/ [200]'],
      error: ['Error: late failure'],
    });
  });
});

describe('structured snapshot', () => {
  it('ends a name at the first quote that only attributes follow, keeping quotes inside names', () => {
    const tree = snapshotJson(
      'uid=1_0 RootWebArea "Dev" url="http://127.0.0.1:1/"\n  uid=1_1 button "Say "hi"" disableable disabled\n  uid=1_2 heading "A" level="2"\n',
    );
    assert.deepEqual(tree, {
      id: '1_0',
      role: 'RootWebArea',
      name: 'Dev',
      url: 'http://127.0.0.1:1/',
      children: [
        {id: '1_1', role: 'button', name: 'Say "hi"', disableable: true, disabled: true},
        {id: '1_2', role: 'heading', name: 'A', level: 2},
      ],
    });
  });
});
