import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {parseConfig} from '../../src/config/options.js';
import {type CdpMcpServer, createSingleClientServer} from '../../src/server/singleClient.js';

/** A server for one client, the pipeline called directly (as the session does), Chrome launched headless. */
function server(args: string[]): CdpMcpServer {
  return createSingleClientServer(parseConfig(['--headless', '--isolated', ...args]));
}

describe('pipeline results', () => {
  let plain: CdpMcpServer;
  let structured: CdpMcpServer;
  before(() => {
    plain = server([]);
    structured = server(['--experimentalStructuredContent']);
  });
  after(async () => {
    await Promise.all([plain.close(), structured.close()]);
  });

  it('carry structured content only with --experimentalStructuredContent (nothing else sends it)', async () => {
    const without = await plain.pipeline.call('list_pages', {}, {session: plain.session});
    assert.match(without.text, /^## Pages$/m);
    assert.equal(without.structured, undefined);
    const withIt = await structured.pipeline.call('list_pages', {}, {session: structured.session});
    assert.ok(Array.isArray(withIt.structured?.['pages']), JSON.stringify(withIt.structured));
  });

  it('still cap the text without structured content', async () => {
    const capped = server(['--maxOutputChars', '500']);
    try {
      const pages = await capped.pipeline.call('list_pages', {}, {session: capped.session});
      const pageId = Number(/^(\d+):.*\[selected\]/m.exec(pages.text)?.[1]);
      const result = await capped.pipeline.call(
        'evaluate_script',
        {pageId, function: "() => 'x'.repeat(2000)"},
        {session: capped.session},
      );
      assert.match(result.text, /The whole output \(\d+ characters\) is in /, result.text);
      assert.equal(result.structured, undefined);
    } finally {
      await capped.close();
    }
  });
});
