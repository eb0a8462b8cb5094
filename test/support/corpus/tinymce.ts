import type {CorpusPage} from './types.js';

/** TinyMCE 6: the editable body is a contenteditable `<body aria-label>` inside the editor's iframe. */
export const tinymce: CorpusPage = {
  id: 'tinymce',
  title: 'TinyMCE rich-text editor',
  packages: [{name: 'tinymce', version: '6.8.6', license: 'MIT'}],
  constructs: ['iframe-based rich-text editor', 'contenteditable body with aria-label', 'toolbar buttons', 'menubar'],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>TinyMCE</title>
<script src="/node_modules/tinymce/tinymce.min.js"></script></head><body>
<h1>Compose a post</h1>
<textarea id="post">&lt;p&gt;Draft text.&lt;/p&gt;</textarea>
<script>
tinymce.init({
  selector: '#post',
  base_url: '/node_modules/tinymce',
  suffix: '.min',
  promotion: false,
  branding: false,
  height: 300,
  plugins: 'lists link',
  toolbar: 'undo redo | bold italic | bullist numlist | link',
});
</script></body></html>`,
  ready: `window.tinymce?.activeEditor?.initialized === true`,
  steps: [
    {label: 'click the editable body in the iframe', tool: 'click', target: / "Draft text\."$/},
    {label: 'select all with the keyboard', tool: 'press_key', key: 'Control+A'},
    {
      label: 'type a new paragraph',
      tool: 'type_text',
      text: 'Hello from the agent',
      until: `tinymce.activeEditor.getContent().includes('Hello from the agent')`,
    },
    {label: 'select the new text', tool: 'press_key', key: 'Control+A'},
    {
      label: 'make it bold with the toolbar',
      tool: 'click',
      target: /button "Bold"/,
      until: `tinymce.activeEditor.getContent().includes('<strong>')`,
    },
  ],
  task: {
    description: 'Replace the draft with "Hello from the agent" in bold',
    check: `() => tinymce.activeEditor.getContent()`,
    expect: '<p><strong>Hello from the agent</strong></p>',
  },
};
