import type {CorpusPage} from './types.js';

/** The text of the widget's two live regions (it writes each new message into the other one). */
const STATUS = `[...document.querySelectorAll('[id^=country__status--]')].map(e => e.textContent).join('')`;

/**
 * GOV.UK's accessible-autocomplete (Preact): a combobox whose options appear
 * as the agent types; the flow is keyboard only (Tab in, type, arrow down
 * through the options, Enter to confirm).
 *
 * Its status message is debounced: 1.4 s after the widget last rendered, it
 * appears in one of two live regions, the other one each time. So that both
 * servers' snapshots show it in the same region, the page is ready once the
 * first debounce after the first render has run (a page timer of the same
 * delay, set after it, runs after it), and each step waits for its message.
 */
export const accessibleAutocomplete: CorpusPage = {
  id: 'accessible-autocomplete',
  title: 'GOV.UK accessible autocomplete',
  packages: [{name: 'accessible-autocomplete', version: '3.0.1', license: 'MIT'}],
  constructs: [
    'keyboard-only combobox (type, arrow keys move focus into the options, Enter)',
    'listbox of suggestions with a live status region',
  ],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Country</title>
<link rel="stylesheet" href="/node_modules/accessible-autocomplete/dist/accessible-autocomplete.min.css">
<script src="/node_modules/accessible-autocomplete/dist/accessible-autocomplete.min.js"></script></head><body>
<h1>Where do you live?</h1>
<label for="country">Country</label>
<div id="country-field"></div>
<script>
accessibleAutocomplete({
  element: document.getElementById('country-field'),
  id: 'country',
  source: ['Fiji', 'Finland', 'France', 'Germany', 'Ghana', 'Greece'],
  onConfirm: value => { if (value) window.confirmed = value; },
});
// The widget rendered at once and set its 1400 ms status timer: this one runs after it.
setTimeout(() => { window.statusSettled = true; }, 1400);
</script></body></html>`,
  ready: `!!document.getElementById('country') && window.statusSettled === true`,
  steps: [
    {
      label: 'tab into the field',
      tool: 'press_key',
      key: 'Tab',
      until: `document.activeElement.id === 'country' && ${STATUS} === 'No search results'`,
    },
    {
      label: 'type the start of a name',
      tool: 'type_text',
      text: 'Fi',
      until: `document.querySelectorAll('#country__listbox [role=option]').length === 2 && ${STATUS}.startsWith('2 results are available')`,
    },
    {
      label: 'arrow down to the first suggestion',
      tool: 'press_key',
      key: 'ArrowDown',
      until: `document.activeElement.id === 'country__option--0' && ${STATUS}.endsWith('Fiji 1 of 2 is highlighted')`,
    },
    {
      label: 'arrow down to the second',
      tool: 'press_key',
      key: 'ArrowDown',
      until: `document.activeElement.id === 'country__option--1' && ${STATUS}.endsWith('Finland 2 of 2 is highlighted')`,
    },
    {label: 'confirm it with Enter', tool: 'press_key', key: 'Enter', until: `window.confirmed === 'Finland'`},
  ],
  task: {
    description: 'Choose Finland with the keyboard only',
    check: `() => [window.confirmed, document.getElementById('country').value]`,
    expect: ['Finland', 'Finland'],
  },
};
