import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';

describe('dialogs', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/plain', '<title>Plain</title><p>plain</p>');
    mcp = await startServer({args: ['--no-page-id-routing']});
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });

  it('auto-accepts an alert opened by evaluate_script (dialogAction default)', async () => {
    await mcp.call('navigate_page', {url: fixtures.url('/plain')});
    const r = await mcp.call('evaluate_script', {function: '() => { alert("hi"); return "after"; }'});
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /```json\n"after"\n```\nAccepted an alert dialog with the message "hi"\./);
    assert.doesNotMatch(r.text, /Open dialog/);
  });

  it('reports an alert that a timer of the script opens while the call waits for the DOM to settle', async () => {
    await mcp.call('navigate_page', {url: fixtures.url('/plain')});
    const r = await mcp.call('evaluate_script', {
      function: `() => { setTimeout(() => { alert('Saved!'); document.body.append('done'); }, 30); return 'scheduled'; }`,
    });
    assert.equal(r.isError, false, r.text);
    assert.match(
      r.text,
      /^Script ran on page and returned:\n```json\n"scheduled"\n```\nAccepted an alert dialog with the message "Saved!"\.$/m,
    );
    const after = await mcp.call('evaluate_script', {function: '() => document.body.innerText'});
    assert.match(after.text, /done/, 'the timer went on after the alert was accepted');
    assert.doesNotMatch(after.text, /Open dialog|alert dialog/, 'reported once, in the call that handled it');
  });

  it('reports every dialog a call answered, in order, with what was done', async () => {
    const r = await mcp.call('evaluate_script', {
      function: `() => [confirm('Delete?'), confirm('Really?')]`,
      dialogAction: 'dismiss',
    });
    assert.match(
      r.text,
      /```json\n\[false,false\]\n```\nDismissed a confirm dialog with the message "Delete\?"\.\nDismissed a confirm dialog with the message "Really\?"\./,
    );
  });

  it('answers a prompt with dialogAction text and dismisses a confirm', async () => {
    const prompt = await mcp.call('evaluate_script', {function: '() => prompt("name?")', dialogAction: 'Ada'});
    assert.match(
      prompt.text,
      /```json\n"Ada"\n```\nAccepted a prompt dialog with the message "name\?", answering "Ada"\./,
    );
    const confirm = await mcp.call('evaluate_script', {function: '() => confirm("sure?")', dialogAction: 'dismiss'});
    assert.match(confirm.text, /```json\nfalse\n```\nDismissed a confirm dialog with the message "sure\?"\./);
  });

  it('reports a dialog opened from a timer, blocks tools until handled, then handles it', async () => {
    await mcp.call('evaluate_script', {
      function: '() => { setTimeout(() => { window.answer = confirm("Proceed?"); }, 100); return 1; }',
      waitForStableDom: false,
    });
    // The dialog opens asynchronously; list_pages is not page-scoped and never blocks.
    let shot = await mcp.call('take_screenshot', {});
    // Bounded by time, not by a count of tries: the timer may fire late on a busy machine.
    for (const end = Date.now() + 30_000; !shot.isError && Date.now() < end;) {
      await new Promise(resolve => setTimeout(resolve, 20));
      shot = await mcp.call('take_screenshot', {});
    }
    assert.equal(shot.isError, true);
    assert.match(shot.text, /# Open dialog\nconfirm: Proceed\?\.\nCall handle_dialog to handle it before continuing\./);
    // Either the dialog was already open when the call started, or it opened during it.
    assert.match(
      shot.text,
      /Error: A (dialog is open \(confirm: Proceed\?\)|confirm dialog opened while take_screenshot was running)/,
    );
    const blocked = await mcp.call('evaluate_script', {function: '() => 1'});
    assert.equal(blocked.isError, true);
    assert.match(blocked.text, /Error: A dialog is open \(confirm: Proceed\?\)\. Call handle_dialog/);
    const handled = await mcp.call('handle_dialog', {action: 'accept'});
    assert.equal(handled.isError, false, handled.text);
    assert.match(handled.text, /^Successfully accepted the dialog\n## Pages/);
    const answer = await mcp.call('evaluate_script', {function: '() => window.answer'});
    assert.match(answer.text, /```json\ntrue\n```/);
  });

  it('passes promptText to a prompt and says when no dialog is open', async () => {
    await mcp.call('evaluate_script', {
      function: '() => { setTimeout(() => { window.answer = prompt("Your name?", "x"); }, 100); return 1; }',
      waitForStableDom: false,
    });
    let list = await mcp.call('take_screenshot', {});
    // Bounded by time, not by a count of tries: the timer may fire late on a busy machine.
    for (const end = Date.now() + 30_000; !list.isError && Date.now() < end;) {
      await new Promise(resolve => setTimeout(resolve, 20));
      list = await mcp.call('take_screenshot', {});
    }
    assert.match(list.text, /prompt: Your name\? \(default value: "x"\)\./);
    await mcp.call('handle_dialog', {action: 'accept', promptText: 'Grace'});
    const answer = await mcp.call('evaluate_script', {function: '() => window.answer'});
    assert.match(answer.text, /"Grace"/);
    const none = await mcp.call('handle_dialog', {action: 'dismiss'});
    assert.equal(none.isError, true);
    assert.match(none.text, /Error: No open dialog found$/);
  });

  it('survives an alert during the initial load of a new page', async () => {
    const url = fixtures.html('/alert-on-load', '<title>Loud</title><script>alert("loading")</script><p>after</p>');
    const r = await mcp.call('new_page', {url});
    assert.match(r.text, /# Open dialog|alert/);
    const pages = await mcp.call('list_pages');
    assert.match(pages.text, /\[selected\]/);
    const handled = await mcp.call('handle_dialog', {action: 'accept'});
    assert.equal(handled.isError, false, handled.text);
    const text = await mcp.call('evaluate_script', {function: '() => document.body.innerText'});
    assert.match(text.text, /after/);
  });

  it('accepts or dismisses a beforeunload dialog during navigation', async () => {
    const url = fixtures.html(
      '/guarded',
      '<title>Guarded</title><script>addEventListener("beforeunload", e => { e.preventDefault(); e.returnValue = ""; });</script>',
    );
    await mcp.call('navigate_page', {url});
    // beforeunload only prompts after a user gesture.
    await mcp.call('evaluate_script', {function: '() => 1'});
    const dismissed = await mcp.call('navigate_page', {
      url: fixtures.url('/plain'),
      handleBeforeUnload: 'dismiss',
      timeout: 1500,
    });
    assert.match(dismissed.text, /Dismissed a beforeunload dialog\./);
    assert.match(dismissed.text, /Guarded/);
    const accepted = await mcp.call('navigate_page', {url: fixtures.url('/plain')});
    assert.match(accepted.text, /^Successfully navigated to .*\/plain\.\nAccepted a beforeunload dialog\./);
    assert.match(accepted.text, /Plain \(/);
  });

  it('reports the beforeunload dialog a history step accepted', async () => {
    await mcp.call('navigate_page', {url: fixtures.url('/guarded')});
    await mcp.call('evaluate_script', {function: '() => 1'});
    const back = await mcp.call('navigate_page', {type: 'back'});
    assert.equal(back.isError, false, back.text);
    assert.match(back.text, /^Successfully navigated back to .*\/plain\.\nAccepted a beforeunload dialog\./);
  });
});
