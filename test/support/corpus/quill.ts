import type {CorpusPage} from './types.js';

/** Quill 2 (snow theme): a contenteditable editor with a toolbar of icon buttons and pickers. */
export const quill: CorpusPage = {
  id: 'quill',
  title: 'Quill rich-text editor',
  packages: [{name: 'quill', version: '2.0.3', license: 'BSD-3-Clause'}],
  constructs: ['contenteditable rich-text editor', 'icon buttons named by aria-label', 'custom picker (aria-expanded)'],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Quill</title>
<link rel="stylesheet" href="/node_modules/quill/dist/quill.snow.css">
<script src="/node_modules/quill/dist/quill.js"></script></head><body>
<h1>Meeting notes</h1>
<div id="editor"><p>Agenda</p></div>
<script>
window.quill = new Quill('#editor', {
  theme: 'snow',
  placeholder: 'Write your notes',
  modules: {toolbar: [[{header: [1, 2, false]}], ['bold', 'italic', 'underline'], [{list: 'ordered'}, {list: 'bullet'}], ['link']]},
});
</script></body></html>`,
  ready: `!!window.quill && !!document.querySelector('.ql-editor')`,
  steps: [
    {label: 'click into the editor', tool: 'click', target: /generic value="Agenda"/},
    {label: 'go to the end', tool: 'press_key', key: 'Control+End'},
    {label: 'start a new line', tool: 'press_key', key: 'Enter'},
    {
      label: 'type a new line',
      tool: 'type_text',
      text: 'Ship it',
      submitKey: 'Enter',
      until: `quill.getText().includes('Ship it')`,
    },
    {label: 'toggle italic with the toolbar', tool: 'click', target: /button "italic"/},
    {label: 'type italic text', tool: 'type_text', text: 'soon', until: `quill.getText().includes('soon')`},
  ],
  task: {
    description: 'Add the lines "Ship it" and an italic "soon" under the agenda',
    check: `() => ({text: quill.getText(), italic: quill.getContents().ops.some(op => op.insert === 'soon' && op.attributes?.italic)})`,
    expect: {text: 'Agenda\nShip it\nsoon\n', italic: true},
  },
};
