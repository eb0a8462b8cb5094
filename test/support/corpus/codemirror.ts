import {importMapScript} from './importMap.js';
import type {CorpusPage} from './types.js';

/** CodeMirror 6 with its basic setup and JavaScript mode, as ES modules through an import map. */
export const codemirror: CorpusPage = {
  id: 'codemirror',
  title: 'CodeMirror 6 code editor',
  packages: [
    {name: 'codemirror', version: '6.0.2', license: 'MIT'},
    {name: '@codemirror/lang-javascript', version: '6.2.5', license: 'MIT'},
  ],
  constructs: [
    'code editor (contenteditable lines)',
    'line-number gutter',
    'ES modules with bare imports (import map)',
  ],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>CodeMirror</title>
${importMapScript(['codemirror', '@codemirror/lang-javascript'])}</head><body>
<h1>script.js</h1>
<div id="editor"></div>
<script type="module">
import {basicSetup, EditorView} from 'codemirror';
import {javascript} from '@codemirror/lang-javascript';
import {forceParsing} from '@codemirror/language';
window.view = new EditorView({
  doc: 'const answer = 41;\\n',
  extensions: [basicSetup, javascript()],
  parent: document.getElementById('editor'),
});
// On a loaded machine the first parse outruns its time budget and finishes
// later in a transaction that redraws the line and sets aria-autocomplete, at
// a moment no snapshot can know: parse now, and run the first transaction
// (which sets aria-autocomplete) before the page counts as ready.
forceParsing(view, view.state.doc.length, 5000);
view.dispatch({});
window.editorReady = true;
</script></body></html>`,
  ready: `!!window.editorReady && !!document.querySelector('.cm-content')`,
  steps: [
    {label: 'click into the code', tool: 'click', target: /textbox/},
    {label: 'go to the end', tool: 'press_key', key: 'Control+End'},
    {
      label: 'type a line of code',
      tool: 'type_text',
      text: 'console.log(answer + 1);',
      until: `view.state.doc.toString().includes('console.log(answer + 1);')`,
    },
  ],
  task: {
    description: 'Append a console.log line to the script',
    check: `() => view.state.doc.toString()`,
    expect: 'const answer = 41;\nconsole.log(answer + 1);',
  },
};
