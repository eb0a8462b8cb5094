import assert from 'node:assert/strict';
import {readFileSync, rmSync} from 'node:fs';
import {describe, it} from 'node:test';

import {renderResult, takeOutputFormat} from '../../../src/client/toolCall.js';
import {UsageError} from '../../../src/client/toolParams.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64');

describe('CLI output formats', () => {
  it('takes --output-format out of the tool parameters, in both spellings', () => {
    assert.deepEqual(takeOutputFormat(['--uid', '1_2']), {format: 'md', rest: ['--uid', '1_2']});
    assert.deepEqual(takeOutputFormat(['--output-format', 'json', '--uid', '1_2']), {
      format: 'json',
      rest: ['--uid', '1_2'],
    });
    assert.deepEqual(takeOutputFormat(['--uid', '1_2', '--output-format=md']), {format: 'md', rest: ['--uid', '1_2']});
    assert.throws(() => takeOutputFormat(['--output-format', 'yaml']), UsageError);
    assert.throws(() => takeOutputFormat(['--output-format']), /takes md\|json, not nothing/);
  });

  it('prints the text, images as saved files (md)', () => {
    const text = renderResult(
      {
        content: [
          {type: 'text', text: 'one'},
          {type: 'image', data: PNG, mimeType: 'image/png'},
        ],
        isError: false,
      },
      'take_screenshot',
      'md',
    );
    const path = /^one\nSaved to (\S+\.png)\.\n$/.exec(text)?.[1];
    assert.ok(path, text);
    try {
      assert.deepEqual([...readFileSync(path)], [0x89, 0x50, 0x4e, 0x47]);
    } finally {
      rmSync(path, {force: true});
    }
  });

  it('prints the structured content with the images, else the text parts (json)', () => {
    const structured = JSON.parse(
      renderResult(
        {
          content: [
            {type: 'text', text: 'ignored'},
            {type: 'image', data: PNG, mimeType: 'image/png'},
          ],
          isError: false,
          structuredContent: {pages: [{id: 1}]},
        },
        'take_screenshot',
        'json',
      ),
    ) as {pages: unknown; images: Array<{filePath: string; mimeType: string}>};
    try {
      assert.deepEqual(structured.pages, [{id: 1}]);
      assert.equal(structured.images.length, 1);
      assert.equal(structured.images[0]?.mimeType, 'image/png');
    } finally {
      for (const image of structured.images) {
        rmSync(image.filePath, {force: true});
      }
    }
    const plain = renderResult(
      {
        content: [
          {type: 'text', text: 'a'},
          {type: 'text', text: 'b'},
        ],
        isError: true,
      },
      'x',
      'json',
    );
    assert.deepEqual(JSON.parse(plain), ['a', 'b']);
  });
});
