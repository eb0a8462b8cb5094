import {type Construct, page} from './types.js';

export const selects: Construct = {
  name: 'selects',
  covers: '<select> single, multiple, optgroups, size, disabled options and groups, selected state',
  html: () =>
    page(
      'Selects',
      `<label>Single <select><option>One</option><option selected>Two</option><option disabled>Off</option></select></label>
<label>Multiple <select multiple><option selected>Red</option><option>Green</option><option selected>Blue</option></select></label>
<label>Grouped <select><optgroup label="Fruit"><option>Apple</option><option>Pear</option></optgroup><optgroup label="Veg" disabled><option>Leek</option></optgroup></select></label>
<label>Sized <select size="3"><option>S1</option><option>S2</option><option>S3</option><option>S4</option></select></label>
<label>Grouped list <select multiple size="4"><optgroup label="G1"><option>A1</option><option>A2</option></optgroup><optgroup label="G2"><option>B1</option></optgroup></select></label>
<select aria-label="Values"><option value="v1">Label one</option><option value="v2" label="Label attr">Text</option></select>
<select disabled aria-label="Disabled select"><option>Nothing</option></select>
<select required aria-label="Required select"><option value="">Choose</option><option>Yes</option></select>`,
    ),
  steps: [
    {title: 'choose Pear', tool: 'fill', target: {role: 'combobox', name: 'Grouped'}, args: {value: 'Pear'}},
    {title: 'choose S3 in the sized list', tool: 'click', target: {role: 'option', name: 'S3'}},
  ],
};

const EDITOR_DOC = `<!doctype html><html><head><title>Editor frame</title></head><body contenteditable="true" aria-label="Rich text area"><p>Editable <b>body</b> text</p></body></html>`;

export const contentEditable: Construct = {
  name: 'contenteditable',
  covers:
    'contenteditable div (true, plaintext-only), role=textbox contenteditable, <body contenteditable aria-label> in a srcdoc iframe',
  html: () =>
    page(
      'Contenteditable',
      `<div contenteditable="true" aria-label="Notes">Some <i>rich</i> notes</div>
<div contenteditable="plaintext-only">Plain editable</div>
<div role="textbox" contenteditable="true" aria-multiline="true" aria-label="Message"><p>Line one</p><p>Line two</p></div>
<div contenteditable="true"><p>Unlabelled editor</p><ul><li>Item</li></ul></div>
<div contenteditable="false">Not editable</div>
<iframe title="Editor" srcdoc="${EDITOR_DOC.replace(/"/g, '&quot;')}"></iframe>`,
    ),
  steps: [
    {title: 'click into the notes', tool: 'click', target: {role: 'generic', name: 'Notes'}},
    {title: 'type into them', tool: 'type_text', args: {text: ' typed'}},
  ],
};
