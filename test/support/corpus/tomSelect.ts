import type {CorpusPage} from './types.js';

/** Tom Select: a `<select>` replaced by a typeahead combobox with a listbox dropdown. */
export const tomSelect: CorpusPage = {
  id: 'tom-select',
  title: 'Tom Select combobox',
  packages: [{name: 'tom-select', version: '2.6.2', license: 'Apache-2.0'}],
  constructs: [
    'options inside a listbox control (not shown by the non-verbose snapshot)',
    'typeahead combobox (aria-controls, aria-activedescendant)',
    'listbox of options',
    'hidden original select',
  ],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tom Select</title>
<link rel="stylesheet" href="/node_modules/tom-select/dist/css/tom-select.default.min.css">
<script src="/node_modules/tom-select/dist/js/tom-select.complete.min.js"></script></head><body>
<h1>Shipping</h1>
<label for="country">Country</label>
<select id="country" placeholder="Choose a country">
<option value="">Choose a country</option><option value="ar">Argentina</option><option value="au">Australia</option>
<option value="at">Austria</option><option value="br">Brazil</option><option value="pt">Portugal</option>
</select>
<script>window.ts = new TomSelect('#country', {create: false, maxOptions: 50});</script></body></html>`,
  ready: `!!window.ts?.control_input`,
  steps: [
    {label: 'focus the combobox', tool: 'click', target: /combobox "Country"/, until: `ts.isOpen`},
    {
      label: 'type to filter',
      tool: 'type_text',
      text: 'Aus',
      until: `document.querySelectorAll('.ts-dropdown .option').length === 2`,
    },
    {
      label: 'choose the highlighted option with Enter',
      tool: 'press_key',
      key: 'Enter',
      until: `document.getElementById('country').value === 'at'`,
    },
  ],
  task: {
    description: 'Choose Austria in the country combobox',
    check: `() => ({value: ts.getValue(), select: document.getElementById('country').value})`,
    expect: {value: 'at', select: 'at'},
  },
};
