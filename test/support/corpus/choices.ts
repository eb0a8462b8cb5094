import type {CorpusPage} from './types.js';

/** Choices.js: a multi-select turned into a tag input with a searchable listbox. */
export const choices: CorpusPage = {
  id: 'choices',
  title: 'Choices.js multi-select',
  packages: [{name: 'choices.js', version: '11.2.4', license: 'MIT'}],
  constructs: ['multi-select combobox with removable tags', 'listbox of options', 'search input'],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Choices.js</title>
<link rel="stylesheet" href="/node_modules/choices.js/public/assets/styles/choices.min.css">
<script src="/node_modules/choices.js/public/assets/scripts/choices.min.js"></script></head><body>
<h1>Article</h1>
<label for="tags">Tags</label>
<select id="tags" multiple>
<option value="css" selected>CSS</option><option value="html">HTML</option><option value="js">JavaScript</option><option value="a11y">Accessibility</option>
</select>
<script>window.choices = new Choices('#tags', {removeItemButton: true, shouldSort: false});</script></body></html>`,
  ready: `!!window.choices?.initialised`,
  steps: [
    {label: 'open the list', tool: 'click', target: /combobox/, until: `!!document.querySelector('.choices.is-open')`},
    {
      label: 'type to filter and choose with Enter',
      tool: 'type_text',
      text: 'Access',
      submitKey: 'Enter',
      until: `choices.getValue(true).includes('a11y')`,
    },
    {
      label: 'remove a tag',
      tool: 'click',
      target: /button "Remove item: CSS"/,
      until: `!choices.getValue(true).includes('css')`,
    },
  ],
  task: {
    description: 'Add the Accessibility tag and remove CSS',
    check: `() => choices.getValue(true)`,
    expect: ['a11y'],
  },
};
