import type {CorpusPage} from './types.js';

/** Trix (Basecamp): a `<trix-editor>` custom element with its own toolbar element. */
export const trix: CorpusPage = {
  id: 'trix',
  title: 'Trix editor',
  packages: [{name: 'trix', version: '2.1.19', license: 'MIT'}],
  constructs: [
    'custom element editor (contenteditable)',
    'toolbar with button groups',
    'hidden input holding the value',
  ],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Trix</title>
<link rel="stylesheet" href="/node_modules/trix/dist/trix.css">
<script src="/node_modules/trix/dist/trix.umd.min.js"></script></head><body>
<h1>Reply</h1>
<form><input id="body" type="hidden" name="body" value="&lt;div&gt;Thanks!&lt;/div&gt;">
<trix-editor input="body" aria-label="Message body"></trix-editor></form>
</body></html>`,
  ready: `!!document.querySelector('trix-editor')?.editor`,
  steps: [
    {label: 'click into the editor', tool: 'click', target: /textbox "Message body"/},
    {label: 'go to the end', tool: 'press_key', key: 'Control+End'},
    {
      label: 'type a sentence',
      tool: 'type_text',
      text: ' See you soon.',
      until: `document.querySelector('trix-editor').editor.getDocument().toString().includes('See you soon.')`,
    },
    {label: 'turn on the bullet list', tool: 'click', target: /button "Bullets"/},
  ],
  task: {
    description: 'Append " See you soon." and turn the paragraph into a bullet',
    check: `() => ({text: document.querySelector('trix-editor').editor.getDocument().toString(), value: document.getElementById('body').value})`,
    expect: {text: 'Thanks! See you soon.\n', value: '<ul><li>Thanks! See you soon.</li></ul>'},
  },
};
