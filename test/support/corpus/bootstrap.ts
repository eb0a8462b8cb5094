import type {CorpusPage} from './types.js';

/** Bootstrap 5 with Font Awesome icons: modal, dropdown menu, tooltip, form help text. */
export const bootstrap: CorpusPage = {
  id: 'bootstrap',
  title: 'Bootstrap admin page',
  packages: [
    {name: 'bootstrap', version: '5.3.8', license: 'MIT'},
    {name: '@fortawesome/fontawesome-free', version: '7.3.1', license: '(CC-BY-4.0 AND OFL-1.1 AND MIT)'},
  ],
  constructs: [
    'modal dialog (aria-modal)',
    'dropdown menu',
    'tooltip (aria-describedby)',
    'form help text (aria-describedby)',
    'text-transform: uppercase heading',
    'icon fonts through CSS generated content (::before)',
  ],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bootstrap</title>
<link rel="stylesheet" href="/node_modules/bootstrap/dist/css/bootstrap.min.css">
<link rel="stylesheet" href="/node_modules/@fortawesome/fontawesome-free/css/all.min.css">
<script src="/node_modules/bootstrap/dist/js/bootstrap.bundle.min.js"></script></head><body class="p-3">
<h1 class="text-uppercase">Quarterly review</h1>
<nav class="mb-3"><a class="btn btn-outline-secondary" href="#reports"><i class="fa-solid fa-chart-line"></i> Reports</a>
<button type="button" class="btn btn-light" aria-label="Notifications" data-bs-toggle="tooltip" data-bs-title="Notifications settings"><i class="fa-solid fa-bell"></i></button></nav>
<div class="dropdown mb-3">
  <button class="btn btn-secondary dropdown-toggle" type="button" data-bs-toggle="dropdown" aria-expanded="false">Export</button>
  <ul class="dropdown-menu">
    <li><a class="dropdown-item" href="#" data-format="csv">As CSV</a></li>
    <li><a class="dropdown-item" href="#" data-format="pdf">As PDF</a></li>
  </ul>
</div>
<form class="mb-3" style="max-width: 24rem" onsubmit="event.preventDefault()">
  <label for="budget" class="form-label">Budget</label>
  <input id="budget" class="form-control" aria-describedby="budgetHelp" value="1200">
  <div id="budgetHelp" class="form-text">In euros, before tax.</div>
</form>
<button type="button" class="btn btn-danger" data-bs-toggle="modal" data-bs-target="#confirm"><i class="fa-solid fa-trash"></i> Delete report</button>
<div class="modal" id="confirm" tabindex="-1" aria-labelledby="confirmTitle" aria-hidden="true">
  <div class="modal-dialog"><div class="modal-content">
    <div class="modal-header"><h2 class="modal-title fs-5" id="confirmTitle">Delete this report?</h2>
      <button type="button" class="btn-close" data-bs-dismiss="modal" aria-label="Close"></button></div>
    <div class="modal-body">This cannot be undone.</div>
    <div class="modal-footer"><button type="button" class="btn btn-secondary" data-bs-dismiss="modal">Keep it</button>
      <button type="button" class="btn btn-danger" id="really">Delete</button></div>
  </div></div>
</div>
<script>
document.querySelectorAll('[data-bs-toggle="tooltip"]').forEach(el => new bootstrap.Tooltip(el));
document.querySelectorAll('.dropdown-item').forEach(a => a.addEventListener('click', e => { e.preventDefault(); window.exported = a.dataset.format; }));
document.getElementById('really').addEventListener('click', () => { window.deleted = true; bootstrap.Modal.getInstance('#confirm').hide(); });
</script></body></html>`,
  ready: `!!window.bootstrap && document.fonts.status === 'loaded'`,
  steps: [
    {
      label: 'hover the icon button to show its tooltip',
      tool: 'hover',
      target: /button "Notifications"/,
      until: `!!document.querySelector('.tooltip.show')`,
    },
    {
      label: 'open the dropdown menu',
      tool: 'click',
      target: /button "Export"/,
      until: `!!document.querySelector('.dropdown-menu.show')`,
    },
    {
      label: 'choose a menu item',
      tool: 'click',
      target: /link "As PDF"/,
      until: `window.exported === 'pdf' && !document.querySelector('.dropdown-menu.show')`,
    },
    {
      label: 'open the modal',
      tool: 'click',
      target: /button ".*Delete report"/,
      until: `document.getElementById('confirm').classList.contains('show') && document.body.classList.contains('modal-open')`,
    },
    {
      label: 'confirm in the modal',
      tool: 'click',
      target: /button "Delete"$/,
      until: `window.deleted === true && !document.body.classList.contains('modal-open') && getComputedStyle(document.getElementById('confirm')).display === 'none'`,
    },
  ],
  task: {
    description: 'Export as PDF from the menu, then delete the report through the confirmation modal',
    check: `() => ({exported: window.exported, deleted: window.deleted, modalOpen: document.body.classList.contains('modal-open')})`,
    expect: {exported: 'pdf', deleted: true, modalOpen: false},
  },
};
