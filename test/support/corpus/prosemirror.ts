import {importMapScript} from './importMap.js';
import type {CorpusPage} from './types.js';

/** ProseMirror's own packages, loaded as ES modules through an import map (no bundler). */
export const prosemirror: CorpusPage = {
  id: 'prosemirror',
  title: 'ProseMirror editor',
  packages: [
    {name: 'prosemirror-view', version: '1.44.0', license: 'MIT'},
    {name: 'prosemirror-state', version: '1.4.4', license: 'MIT'},
    {name: 'prosemirror-model', version: '1.25.13', license: 'MIT'},
    {name: 'prosemirror-schema-basic', version: '1.2.5', license: 'MIT'},
    {name: 'prosemirror-keymap', version: '1.2.3', license: 'MIT'},
    {name: 'prosemirror-commands', version: '1.7.2', license: 'MIT'},
    {name: 'prosemirror-history', version: '1.5.2', license: 'MIT'},
  ],
  constructs: ['contenteditable editor (ES modules via import map)', 'headings and lists inside contenteditable'],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>ProseMirror</title>
${importMapScript([
  'prosemirror-view',
  'prosemirror-state',
  'prosemirror-model',
  'prosemirror-schema-basic',
  'prosemirror-keymap',
  'prosemirror-commands',
  'prosemirror-history',
])}
<link rel="stylesheet" href="/node_modules/prosemirror-view/style/prosemirror.css"></head><body>
<h1>Document</h1>
<div id="editor" aria-label="Document body"></div>
<div id="content" hidden><h2>Intro</h2><p>First paragraph.</p></div>
<script type="module">
import {EditorState} from 'prosemirror-state';
import {EditorView} from 'prosemirror-view';
import {DOMParser} from 'prosemirror-model';
import {schema} from 'prosemirror-schema-basic';
import {keymap} from 'prosemirror-keymap';
import {baseKeymap, toggleMark} from 'prosemirror-commands';
import {history, undo, redo} from 'prosemirror-history';
const doc = DOMParser.fromSchema(schema).parse(document.getElementById('content'));
window.view = new EditorView(document.getElementById('editor'), {
  state: EditorState.create({
    doc,
    plugins: [history(), keymap({'Mod-z': undo, 'Mod-y': redo, 'Mod-b': toggleMark(schema.marks.strong)}), keymap(baseKeymap)],
  }),
  attributes: {'aria-label': 'Document body', role: 'textbox', 'aria-multiline': 'true'},
});
</script></body></html>`,
  ready: `!!window.view && !!document.querySelector('.ProseMirror')`,
  steps: [
    {label: 'click into the editor', tool: 'click', target: /textbox "Document body"/},
    {label: 'go to the end of the document', tool: 'press_key', key: 'Control+End'},
    {label: 'start a new paragraph', tool: 'press_key', key: 'Enter'},
    {
      label: 'type a second paragraph',
      tool: 'type_text',
      text: 'Second one',
      submitKey: 'Enter',
      until: `view.state.doc.textContent.includes('Second one')`,
    },
    {label: 'bold with the keyboard', tool: 'press_key', key: 'Control+B'},
    {
      label: 'type bold text',
      tool: 'type_text',
      text: 'Bold end',
      until: `view.state.doc.textContent.includes('Bold end')`,
    },
  ],
  task: {
    description: 'Add a paragraph "Second one" and a bold "Bold end"',
    check: `() => ({paragraphs: view.state.doc.childCount, text: view.state.doc.textContent, bold: view.state.doc.lastChild.firstChild?.marks.map(m => m.type.name) ?? []})`,
    expect: {paragraphs: 4, text: 'IntroFirst paragraph.Second oneBold end', bold: ['strong']},
  },
};
