import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {
  formatConsoleDetail,
  formatConsoleList,
  formatIssueDetail,
  formatStack,
  type StackView,
} from '../../../src/response/formatConsole.js';

const stack: StackView = {
  fragments: [
    {
      description: undefined,
      frames: [
        {functionName: 'bar', location: 'main.ts:3:9'},
        {functionName: '', location: 'main.ts:10:1'},
      ],
    },
    {description: 'setTimeout', frames: [{functionName: 'schedule', location: 'util.ts:5:2'}]},
    {description: 'Promise.then', frames: []},
  ],
  cause: {
    message: 'TypeError: inner',
    stack: {fragments: [{description: undefined, frames: [{functionName: 'compute', location: undefined}]}]},
  },
};

describe('formatConsole', () => {
  it('formats a stack with async fragments, causes and the note', () => {
    assert.deepEqual(formatStack(stack, true), [
      'at bar (main.ts:3:9)',
      'at <anonymous> (main.ts:10:1)',
      '--- setTimeout -------------------------',
      'at schedule (util.ts:5:2)',
      'Caused by: TypeError: inner',
      'at compute',
      'Note: line and column numbers use 1-based indexing',
    ]);
  });

  it('caps stacks at 50 lines', () => {
    const frames = Array.from({length: 60}, (_, i) => ({functionName: `f${i}`, location: `a.js:${i + 1}:1`}));
    const lines = formatStack({fragments: [{description: undefined, frames}]}, false);
    assert.equal(lines.length, 51);
    assert.equal(lines[49], 'at f49 (a.js:50:1)');
    assert.equal(lines[50], '... and 10 more frames');
  });

  it('groups consecutive identical messages before paginating; issues show their count', () => {
    const items = [
      {id: 1, type: 'log', text: 'Service Worker starting...', argsCount: 1},
      {id: 2, type: 'warn', text: 'Hello', argsCount: 1},
      {id: 3, type: 'warn', text: 'Hello', argsCount: 1},
      {id: 4, type: 'warn', text: 'Hello', argsCount: 1},
      {id: 5, type: 'error', text: 'Uncaught Error: Intentional error', argsCount: 0},
      {id: 6, type: 'issue', text: 'A cross-origin request was blocked by CORS', argsCount: 0, issueCount: 2},
    ];
    assert.equal(
      formatConsoleList(items).join('\n'),
      `## Console messages
Showing 1-4 of 4 (Page 1 of 1).
msgid=1 [log] Service Worker starting... (1 args)
msgid=2 [warn] Hello (1 args) [3 times]
msgid=5 [error] Uncaught Error: Intentional error (0 args)
msgid=6 [issue] A cross-origin request was blocked by CORS (count: 2)`,
    );
    assert.equal(
      formatConsoleList(items, 2, 1).join('\n'),
      `## Console messages
Showing 3-4 of 4 (Page 2 of 2).
Previous page: 0
msgid=5 [error] Uncaught Error: Intentional error (0 args)
msgid=6 [issue] A cross-origin request was blocked by CORS (count: 2)`,
    );
  });

  it('indents list stacks and ends with the list note', () => {
    const lines = formatConsoleList([
      {
        id: 7,
        type: 'log',
        text: 'x',
        argsCount: 1,
        stack: {fragments: [{description: undefined, frames: [{functionName: 'f', location: 'a.js:1:2'}]}]},
      },
    ]);
    assert.deepEqual(lines.slice(2), [
      'msgid=7 [log] x (1 args)',
      '  at f (a.js:1:2)',
      'Note: stack trace line and column numbers use 1-based indexing',
    ]);
  });

  it('says when there are no messages', () => {
    assert.deepEqual(formatConsoleList([], 10, 3), ['## Console messages', '<no console messages found>']);
  });

  it('formats the detail of a message with an error argument', () => {
    assert.equal(
      formatConsoleDetail({
        id: 1,
        type: 'log',
        text: 'An error happened: Error: b00m!',
        args: [
          'An error happened:',
          {
            message: 'Error: b00m!',
            stack: {fragments: [{description: undefined, frames: [{functionName: 'bar', location: 'main.js:3:9'}]}]},
          },
        ],
        stack: {fragments: [{description: undefined, frames: [{functionName: 'Iife', location: 'main.js:14:13'}]}]},
      }).join('\n'),
      `ID: 1
Message: log> An error happened: Error: b00m!
### Arguments
Arg #0: An error happened:
Arg #1: Error: b00m!
at bar (main.js:3:9)
Note: line and column numbers use 1-based indexing
### Stack trace
at Iife (main.js:14:13)
Note: line and column numbers use 1-based indexing`,
    );
    assert.equal(
      formatConsoleDetail({id: 3, type: 'error', text: 'Failed to load resource', args: [], stack: undefined}).join(
        '\n',
      ),
      'ID: 3\nMessage: error> Failed to load resource',
    );
  });

  it('formats an issue with its affected resources', () => {
    assert.equal(
      formatIssueDetail({
        id: 6,
        title: 'Page is rendered in quirks mode',
        explanation: 'Add a doctype.',
        count: 3,
        affected: ['url=http://a/ data={}', 'reqid=2 data={"x":1}'],
      }).join('\n'),
      `ID: 6
Message: issue> Page is rendered in quirks mode

Add a doctype.
### Affected resources
url=http://a/ data={}
reqid=2 data={"x":1}
... and 1 more`,
    );
  });
});
