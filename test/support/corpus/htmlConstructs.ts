import type {CorpusPage} from './types.js';

/**
 * A small page of our own, only for constructs no chosen app has in a form
 * an agent meets: `<wbr>` inside names, `display: contents`, `aria-owns`,
 * generated content with text, a native modal `<dialog>`, `<details>`, and a
 * native `<select multiple>`.
 */
export const htmlConstructs: CorpusPage = {
  id: 'html-constructs',
  title: 'HTML constructs page (own)',
  packages: [],
  constructs: [
    '<wbr> inside link and button names',
    'display: contents wrappers',
    'aria-owns reparenting',
    'CSS generated content (::before/::after text)',
    'native <dialog> opened with showModal()',
    'native <details>/<summary>',
    'native <select multiple>',
  ],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Constructs</title>
<style>.contents { display: contents; } .new::before { content: "New: "; } .req::after { content: " (required)"; }</style>
</head><body>
<h1>Release notes</h1>
<p><a href="#api">GET /api/<wbr>v2/<wbr>releases</a> <button type="button">Download<wbr>Manager</button></p>
<div class="contents" role="list" aria-label="Highlights"><div class="contents"><span role="listitem">Faster</span><span role="listitem">Smaller</span></div></div>
<div role="tree" aria-label="Files" aria-owns="orphan"><div role="treeitem" aria-selected="false">src</div></div>
<div id="orphan" role="treeitem" aria-selected="false">docs</div>
<p class="new">Dark mode</p>
<label for="team" class="req">Team</label> <select id="team" multiple size="4"><option>Design</option><option>Backend</option><option>Frontend</option><option>QA</option></select>
<details id="more"><summary>Known issues</summary><p>Printing is slow.</p></details>
<button type="button" id="open">Give feedback</button>
<dialog id="feedback" aria-labelledby="fb-title"><h2 id="fb-title">Feedback</h2><form method="dialog"><label>Comment <textarea name="comment"></textarea></label><button value="sent">Send</button></form></dialog>
<script>
// Unset until the dialog closes: without it, window.feedback is the dialog element itself (named access).
var feedback;
const dialog = document.getElementById('feedback');
document.getElementById('open').addEventListener('click', () => dialog.showModal());
dialog.addEventListener('close', () => { window.feedback = {result: dialog.returnValue, comment: dialog.querySelector('textarea').value}; });
</script></body></html>`,
  ready: `document.readyState === 'complete'`,
  steps: [
    {label: 'pick an option of the multiple select', tool: 'fill', target: /listbox/, value: 'Frontend'},
    {
      label: 'expand the native details',
      tool: 'click',
      target: /"Known issues"/,
      until: `document.getElementById('more').open`,
    },
    {
      label: 'open the native modal dialog',
      tool: 'click',
      target: /button "Give feedback"/,
      until: `document.getElementById('feedback').open`,
    },
    {label: 'fill the dialog textarea', tool: 'fill', target: /textbox "Comment"/, value: 'Love it'},
    {label: 'send and close the dialog', tool: 'click', target: /button "Send"/, until: `!!window.feedback`},
  ],
  task: {
    description: 'Choose the Frontend team, read the known issues, send feedback through the dialog',
    check: `() => ({team: [...document.getElementById('team').selectedOptions].map(o => o.value), details: document.getElementById('more').open, feedback: window.feedback})`,
    expect: {team: ['Frontend'], details: true, feedback: {result: 'sent', comment: 'Love it'}},
  },
};
