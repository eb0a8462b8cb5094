import type {CorpusPage} from './types.js';

/** Shoelace 2 web components: open shadow roots, slots, a `<details>` inside sl-details' shadow root. */
export const shoelace: CorpusPage = {
  id: 'shoelace',
  title: 'Shoelace web components',
  packages: [{name: '@shoelace-style/shoelace', version: '2.20.1', license: 'MIT'}],
  constructs: [
    'open shadow roots and slots',
    '<details>/<summary> in a shadow root',
    'dropdown menu (menuitem)',
    'modal dialog in a shadow root',
    'labelled inputs across shadow boundaries',
  ],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shoelace</title>
<link rel="stylesheet" href="/node_modules/@shoelace-style/shoelace/cdn/themes/light.css">
<script type="module" src="/node_modules/@shoelace-style/shoelace/cdn/shoelace-autoloader.js"></script></head><body>
<h1>Order</h1>
<sl-input label="Full name" help-text="As on your card" value="Ada"></sl-input>
<sl-checkbox>Gift wrap</sl-checkbox>
<sl-details summary="Shipping details"><p>Ships in 2 days from Lisbon.</p></sl-details>
<sl-dropdown>
  <sl-button slot="trigger" caret>Actions</sl-button>
  <sl-menu>
    <sl-menu-item value="duplicate">Duplicate</sl-menu-item>
    <sl-menu-item value="archive">Archive</sl-menu-item>
  </sl-menu>
</sl-dropdown>
<sl-button id="open" variant="primary">Checkout</sl-button>
<sl-dialog label="Confirm order"><p>Place the order now?</p><sl-button slot="footer" id="confirm" variant="primary">Place order</sl-button></sl-dialog>
<script type="module">
const dialog = document.querySelector('sl-dialog');
document.getElementById('open').addEventListener('click', () => dialog.show());
document.getElementById('confirm').addEventListener('click', () => { window.ordered = true; dialog.hide(); });
document.querySelector('sl-menu').addEventListener('sl-select', e => { window.chosen = e.detail.item.value; });
</script></body></html>`,
  ready: `document.querySelectorAll(':not(:defined)').length === 0 && !!document.querySelector('sl-details')?.shadowRoot?.querySelector('summary') && !!document.querySelector('sl-dialog')?.shadowRoot?.querySelector('.dialog')`,
  steps: [
    {
      label: 'expand the disclosure in the shadow root',
      tool: 'click',
      target: /"Shipping details"/,
      until: `document.querySelector('sl-details').open && document.querySelector('sl-details').shadowRoot.querySelector('details').open`,
    },
    {
      label: 'open the dropdown',
      tool: 'click',
      target: /button "Actions"/,
      until: `document.querySelector('sl-dropdown').open`,
    },
    {
      label: 'choose a menu item',
      tool: 'click',
      target: /menuitem "Archive"/,
      until: `window.chosen === 'archive' && !document.querySelector('sl-dropdown').open`,
    },
    {
      label: 'open the modal',
      tool: 'click',
      target: /button "Checkout"/,
      until: `document.querySelector('sl-dialog').open`,
    },
    {
      label: 'confirm in the modal',
      tool: 'click',
      target: /button "Place order"/,
      until: `window.ordered === true && !document.querySelector('sl-dialog').open`,
    },
  ],
  task: {
    description: 'Expand the shipping details, archive via the Actions menu, check out through the dialog',
    check: `() => ({details: document.querySelector('sl-details').open, chosen: window.chosen, ordered: window.ordered, dialog: document.querySelector('sl-dialog').open})`,
    expect: {details: true, chosen: 'archive', ordered: true, dialog: false},
  },
};
