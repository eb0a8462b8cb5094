import type {CorpusPage} from './types.js';

/**
 * Ace has finished reacting: it redraws a line with new text nodes twice after
 * an edit (at once, then when its background tokenizer runs 31 + 700 ms
 * later) and once the Python mode has loaded, so a snapshot taken before then
 * names nodes that are about to go. Nothing pending: no input event, no
 * tokenizer run, no frame to render.
 */
const ACE_IDLE = `!editor._$emitInputEvent.isPending() && !editor.session.bgTokenizer.running && !editor.renderer.$loop.pending`;

/** Ace: a code editor drawn in divs, typed into through a hidden textarea. */
export const ace: CorpusPage = {
  id: 'ace',
  title: 'Ace code editor',
  packages: [{name: 'ace-builds', version: '1.45.2', license: 'BSD-3-Clause'}],
  constructs: ['code editor with a hidden textarea', 'gutter', 'canvas-free text layer'],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ace</title>
<script src="/node_modules/ace-builds/src-min-noconflict/ace.js"></script>
<style>#editor { width: 700px; height: 240px; }</style></head><body>
<h1>config.py</h1>
<div id="editor">DEBUG = False</div>
<script>
ace.config.set('basePath', '/node_modules/ace-builds/src-min-noconflict');
window.editor = ace.edit('editor', {mode: 'ace/mode/python', useWorker: false});
</script></body></html>`,
  // The Python mode loads after the editor shows and the lines are drawn again with its tokens.
  ready: `!!window.editor && !!document.querySelector('.ace_text-input') && editor.session.getMode().$id === 'ace/mode/python' && !!document.querySelector('.ace_text-layer .ace_constant') && ${ACE_IDLE}`,
  steps: [
    {label: 'click into the code', tool: 'click', target: /textbox/, until: ACE_IDLE},
    {label: 'go to the end', tool: 'press_key', key: 'Control+End', until: ACE_IDLE},
    {label: 'new line', tool: 'press_key', key: 'Enter', until: ACE_IDLE},
    {
      label: 'type a setting',
      tool: 'type_text',
      text: 'PORT = 8080',
      until: `editor.getValue().includes('PORT = 8080') && ${ACE_IDLE}`,
    },
  ],
  task: {
    description: 'Add the line "PORT = 8080" to the config',
    check: `() => editor.getValue()`,
    expect: 'DEBUG = False\nPORT = 8080',
  },
};
