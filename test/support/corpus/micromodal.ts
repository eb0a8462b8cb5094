import type {CorpusPage} from './types.js';

/** Micromodal: a modal toggled by data attributes, with aria-hidden and a close button. */
export const micromodal: CorpusPage = {
  id: 'micromodal',
  title: 'Micromodal modal',
  packages: [{name: 'micromodal', version: '0.7.0', license: 'ISC'}],
  constructs: ['modal dialog toggled by aria-hidden', 'close button named by aria-label', 'focus trap'],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Micromodal</title>
<script src="/node_modules/micromodal/dist/micromodal.min.js"></script>
<style>.modal { display: none; } .modal.is-open { display: block; }
.modal__overlay { position: fixed; inset: 0; background: rgba(0,0,0,.6); display: flex; justify-content: center; align-items: center; }
.modal__container { background: #fff; padding: 24px; max-width: 400px; }</style></head><body>
<h1>Cookies</h1>
<button data-micromodal-trigger="prefs">Cookie preferences</button>
<div class="modal" id="prefs" aria-hidden="true">
  <div class="modal__overlay" tabindex="-1" data-micromodal-close>
    <div class="modal__container" role="dialog" aria-modal="true" aria-labelledby="prefs-title">
      <header><h2 id="prefs-title">Cookie preferences</h2><button aria-label="Close modal" data-micromodal-close>&times;</button></header>
      <main><label><input type="checkbox" id="analytics"> Analytics cookies</label></main>
      <footer><button id="save" data-micromodal-close>Save preferences</button></footer>
    </div>
  </div>
</div>
<script>
MicroModal.init({onClose: () => { window.saved = document.getElementById('analytics').checked; }, disableScroll: false});
</script></body></html>`,
  ready: `!!window.MicroModal`,
  steps: [
    {
      label: 'open the modal',
      tool: 'click',
      target: /button "Cookie preferences"/,
      until: `document.getElementById('prefs').classList.contains('is-open')`,
    },
    {label: 'tick a checkbox in the modal', tool: 'fill', target: /checkbox "Analytics cookies"/, value: 'true'},
    {
      label: 'save and close',
      tool: 'click',
      target: /button "Save preferences"/,
      until: `window.saved === true && !document.getElementById('prefs').classList.contains('is-open')`,
    },
  ],
  task: {
    description: 'Allow analytics cookies in the preferences modal and save',
    check: `() => ({saved: window.saved, open: document.getElementById('prefs').classList.contains('is-open')})`,
    expect: {saved: true, open: false},
  },
};
