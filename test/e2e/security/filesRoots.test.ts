/**
 * Threat: a client widening where the server writes by declaring roots
 * (MCP roots/list), e.g. `file:///`, over stdio and over HTTP. Client roots
 * may only narrow the operator's --filesystemRoot. And over HTTP the roots
 * must arrive at all, at the first call, without stalling it.
 */
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {type HttpTestServer, startHttpServer} from '../../support/httpClient.js';
import {startServer, type TestServer} from '../../support/mcpClient.js';
import {connectWithRoots, type Playground, playground, type RootsSession} from '../../support/securityFiles.js';

describe('security: client roots only narrow the operator roots', () => {
  let place: Playground;

  before(() => {
    place = playground();
  });

  after(() => {
    place?.remove();
  });

  it('over stdio, a client declaring file:/// cannot write outside --filesystemRoot', async () => {
    const mcp: TestServer = await startServer({args: ['--filesystemRoot', place.root], roots: ['file:///']});
    try {
      const outside = join(place.outside, 'stdio.txt');
      const r = await mcp.call('take_snapshot', {pageId: 1, filePath: outside});
      assert.equal(r.isError, true, `writing outside the operator roots must be refused:\n${r.text}`);
      assert.match(r.text, /Access denied/);
      assert.equal(existsSync(outside), false, 'nothing was written outside');
      const inside = await mcp.call('take_snapshot', {pageId: 1, filePath: join(place.root, 'stdio.txt')});
      assert.equal(inside.isError, false, inside.text);
    } finally {
      await mcp.close();
    }
  });

  describe('over HTTP', () => {
    let server: HttpTestServer;
    const sessions: RootsSession[] = [];

    before(async () => {
      server = await startHttpServer({args: ['--filesystemRoot', place.root]});
    });

    after(async () => {
      for (const session of sessions) {
        await session.close();
      }
      await server?.close();
    });

    const connect = async (roots: string[]) => {
      const session = await connectWithRoots(server.url, server.token, roots);
      sessions.push(session);
      return session;
    };
    const pageOf = async (session: RootsSession) =>
      Number(/(\d+): .*\[selected\]/.exec((await session.call('list_pages')).text)?.[1]);

    it('a token holder declaring file:/// cannot write outside --filesystemRoot', async () => {
      const session = await connect(['file:///']);
      const pageId = await pageOf(session);
      const outside = join(place.outside, 'http.txt');
      const r = await session.call('take_snapshot', {pageId, filePath: outside});
      assert.equal(r.isError, true, `writing outside the operator roots must be refused:\n${r.text}`);
      assert.equal(existsSync(outside), false, 'nothing was written outside');
      assert.ok(session.asked >= 1, 'the server asked the client for its roots');
    });

    it('asks for the roots at the first call and applies them to it; asks again after roots/list_changed', async () => {
      const narrow = join(place.root, 'narrow');
      const other = join(place.root, 'other');
      const session = await connect([narrow]);
      // The first call is already bound by the client's roots: the operator root minus what the client left out.
      const pageId = await pageOf(session);
      assert.equal(session.asked, 1, 'the roots were asked for once, on the first call');
      const refused = await session.call('take_snapshot', {pageId, filePath: join(other, 'a.txt')});
      assert.equal(refused.isError, true, `outside the client's roots:\n${refused.text}`);
      assert.match(refused.text, /Access denied/);
      const allowed = await session.call('take_snapshot', {pageId, filePath: join(narrow, 'a.txt')});
      assert.equal(allowed.isError, false, allowed.text);

      await session.setRoots([other]);
      const moved = await session.call('take_snapshot', {pageId, filePath: join(other, 'b.txt')});
      assert.equal(moved.isError, false, `the changed roots apply at the next call:\n${moved.text}`);
      assert.equal(session.asked, 2);
      const old = await session.call('take_snapshot', {pageId, filePath: join(narrow, 'b.txt')});
      assert.equal(old.isError, true, `the old roots are gone:\n${old.text}`);
    });
  });
});
