import type {CorpusPage} from './types.js';

/** a11y-dialog: an accessible modal built from a div (role dialog, aria-modal, inert siblings-free). */
export const a11yDialog: CorpusPage = {
  id: 'a11y-dialog',
  title: 'a11y-dialog modal',
  packages: [{name: 'a11y-dialog', version: '8.1.5', license: 'MIT'}],
  constructs: [
    'modal dialog (role dialog, aria-modal, aria-labelledby)',
    'aria-hidden container',
    'form inside a dialog',
  ],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>a11y-dialog</title>
<script src="/node_modules/a11y-dialog/dist/a11y-dialog.min.js"></script>
<style>[aria-hidden='true'].dialog { display: none; } .dialog { position: fixed; inset: 0; display: flex; }
.dialog-overlay { position: fixed; inset: 0; background: rgba(0,0,0,.4); } .dialog-content { margin: auto; z-index: 2; position: relative; background: white; padding: 1em; }</style>
</head><body>
<h1>Newsletter</h1>
<button type="button" data-a11y-dialog-show="subscribe">Subscribe</button>
<div class="dialog" id="subscribe" aria-labelledby="subscribe-title" aria-hidden="true">
  <div class="dialog-overlay" data-a11y-dialog-hide></div>
  <div class="dialog-content" role="document">
    <button type="button" data-a11y-dialog-hide aria-label="Close dialog">&times;</button>
    <h2 id="subscribe-title">Subscribe to the newsletter</h2>
    <form id="sub-form"><label for="email">Email</label> <input type="email" id="email" name="email" required>
    <button type="submit">Sign me up</button></form>
  </div>
</div>
<script>
window.dialog = new A11yDialog(document.getElementById('subscribe'));
document.getElementById('sub-form').addEventListener('submit', e => { e.preventDefault(); window.subscribed = document.getElementById('email').value; dialog.hide(); });
</script></body></html>`,
  ready: `!!window.dialog`,
  steps: [
    {label: 'open the dialog', tool: 'click', target: /button "Subscribe"/, until: `dialog.shown === true`},
    {label: 'fill the email', tool: 'fill', target: /textbox "Email"/, value: 'ada@example.com'},
    {
      label: 'submit the form in the dialog',
      tool: 'click',
      target: /button "Sign me up"/,
      until: `window.subscribed === 'ada@example.com' && dialog.shown === false`,
    },
  ],
  task: {
    description: 'Subscribe with ada@example.com through the dialog',
    check: `() => ({subscribed: window.subscribed, shown: dialog.shown})`,
    expect: {subscribed: 'ada@example.com', shown: false},
  },
};
