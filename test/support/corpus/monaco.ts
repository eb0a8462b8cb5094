import type {CorpusPage} from './types.js';

/**
 * Monaco, VS Code's editor: its one handle in the accessibility tree is a
 * 1x1 px textarea named "Editor content" (issue 21: it must be clickable);
 * the text is drawn in lines of spans the tree does not show as a textbox.
 */
export const monaco: CorpusPage = {
  id: 'monaco',
  title: 'Monaco editor (VS Code)',
  packages: [{name: 'monaco-editor', version: '0.57.0', license: 'MIT'}],
  constructs: [
    '1x1 px textarea as the editor\'s only handle ("Editor content")',
    'AMD loader (require.js style) loading the editor',
    'keyboard editing through a hidden textarea',
  ],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Monaco editor</title></head><body>
<h1>Service settings</h1>
<div id="editor" style="width: 700px; height: 240px; border: 1px solid #888"></div>
<script src="/node_modules/monaco-editor/min/vs/loader.js"></script>
<script>
require.config({paths: {vs: '/node_modules/monaco-editor/min/vs'}});
require(['vs/editor/editor.main'], () => {
  window.editor = monaco.editor.create(document.getElementById('editor'), {
    value: 'host: 0.0.0.0\\nport: 8080',
    language: 'plaintext',
    minimap: {enabled: false},
    editContext: false,
  });
  // Monaco adds parts (scrollbars, overlays) over a few frames after create: the page is ready once its structure has been still for a while.
  window.lastChange = performance.now();
  new MutationObserver(() => { window.lastChange = performance.now(); }).observe(document.body, {childList: true, subtree: true});
});
</script></body></html>`,
  ready: `!!window.editor && !!document.querySelector('.monaco-editor .view-lines .view-line') && performance.now() - window.lastChange > 500`,
  steps: [
    {
      label: 'click into the editor (its 1x1 px textarea)',
      tool: 'click',
      target: /textbox "Editor content/,
      until: `editor.hasTextFocus()`,
    },
    {label: 'go to the end of the text', tool: 'press_key', key: 'Control+End'},
    {label: 'start a new line', tool: 'press_key', key: 'Enter', until: `editor.getModel().getLineCount() === 3`},
    {label: 'type a setting', tool: 'type_text', text: 'logLevel: debug', until: `editor.getValue().endsWith('debug')`},
  ],
  task: {
    description: 'Add the line "logLevel: debug" at the end of the settings',
    check: `() => editor.getValue()`,
    expect: 'host: 0.0.0.0\nport: 8080\nlogLevel: debug',
  },
};
