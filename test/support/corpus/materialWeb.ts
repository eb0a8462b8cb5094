import {importMapScript} from './importMap.js';
import type {CorpusPage} from './types.js';

/** Material Web (Google's Lit components): nested shadow roots, form-associated custom elements. */
export const materialWeb: CorpusPage = {
  id: 'material-web',
  title: 'Material Web components',
  packages: [{name: '@material/web', version: '2.5.0', license: 'Apache-2.0'}],
  constructs: [
    'nested open shadow roots (Lit)',
    'form-associated custom elements (ElementInternals)',
    'select combobox with listbox in a shadow root',
    'switch and slider with aria-valuetext',
    'tabs',
  ],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Material Web</title>
${importMapScript(['@material/web'])}
<script type="module">import '@material/web/all.js';</script></head><body>
<h1>Profile</h1>
<md-tabs aria-label="Sections"><md-primary-tab>Account</md-primary-tab><md-primary-tab>Privacy</md-primary-tab></md-tabs>
<form id="profile">
<md-outlined-text-field label="Display name" supporting-text="Shown to others"></md-outlined-text-field>
<md-filled-select label="Country">
  <md-select-option value="pt"><div slot="headline">Portugal</div></md-select-option>
  <md-select-option value="jp"><div slot="headline">Japan</div></md-select-option>
</md-filled-select>
<label>Public profile <md-switch id="public"></md-switch></label>
<md-slider labeled min="0" max="10" value="3" aria-label="Volume"></md-slider>
<md-filled-button type="button" id="save">Save</md-filled-button>
</form>
<script type="module">
document.getElementById('save').addEventListener('click', () => {
  const form = document.getElementById('profile');
  window.saved = Object.fromEntries(new FormData(form));
  window.saved.name = document.querySelector('md-outlined-text-field').value;
  window.saved.country = document.querySelector('md-filled-select').value;
  window.saved.public = document.getElementById('public').selected;
});
</script></body></html>`,
  ready: `document.querySelectorAll(':not(:defined)').length === 0 && !!document.querySelector('md-filled-select')?.shadowRoot?.querySelector('md-menu') && !!document.querySelector('md-outlined-text-field')?.shadowRoot?.querySelector('input')`,
  steps: [
    {label: 'fill the text field', tool: 'fill', target: /textbox "Display name"/, value: 'Ada Lovelace'},
    {
      label: 'open the select',
      tool: 'click',
      target: /combobox "Country"/,
      // Open (runStep then waits for the menu's opening animation to end: what
      // the snapshot shows of the menu changes while it runs).
      until: `document.querySelector('md-filled-select').open`,
    },
    {
      label: 'pick an option',
      tool: 'click',
      target: /option "Japan"/,
      until: `document.querySelector('md-filled-select').value === 'jp' && !document.querySelector('md-filled-select').open`,
    },
    {label: 'turn the switch on', tool: 'click', target: /switch$/},
    {label: 'save', tool: 'click', target: /button "Save"/, until: `!!window.saved`},
  ],
  task: {
    description: 'Set the display name, choose Japan, make the profile public and save',
    check: `() => ({name: saved.name, country: saved.country, public: saved.public})`,
    expect: {name: 'Ada Lovelace', country: 'jp', public: true},
  },
};
