import type {CorpusPage} from './types.js';

/** Clusterize.js: a virtualised list of 5000 rows (only a window of rows exists in the DOM). */
export const clusterize: CorpusPage = {
  id: 'clusterize',
  title: 'Clusterize.js virtual list',
  packages: [{name: 'clusterize.js', version: '1.0.0', license: 'MIT'}],
  constructs: ['virtualised list (rows replaced while scrolling)', 'checkboxes in list rows', 'spacer rows'],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Clusterize</title>
<link rel="stylesheet" href="/node_modules/clusterize.js/clusterize.css">
<script src="/node_modules/clusterize.js/clusterize.min.js"></script></head><body>
<h1>Backlog</h1>
<div id="scrollArea" class="clusterize-scroll" style="max-height: 300px"><ul id="contentArea" class="clusterize-content" aria-label="Tasks"></ul></div>
<script>
window.tasks = Array.from({length: 5000}, (_, i) => ({title: 'Task ' + (i + 1), done: false}));
const row = (t, i) => '<li><label><input type="checkbox" data-i="' + i + '"' + (t.done ? ' checked' : '') + '> ' + t.title + '</label></li>';
window.list = new Clusterize({rows: tasks.map(row), scrollId: 'scrollArea', contentId: 'contentArea'});
document.getElementById('contentArea').addEventListener('change', e => {
  const i = Number(e.target.dataset.i); tasks[i].done = e.target.checked; list.update(tasks.map(row));
});
</script></body></html>`,
  ready: `document.querySelectorAll('#contentArea li').length > 10`,
  steps: [
    {
      label: 'scroll the list to task 4200',
      tool: 'evaluate_script',
      function: `() => { const area = document.getElementById('scrollArea'); const li = document.querySelector('#contentArea li:not(.clusterize-extra-row)'); area.scrollTop = li.offsetHeight * 4195; return area.scrollTop; }`,
      until: `!!document.querySelector('#contentArea input[data-i="4199"]')`,
    },
    {
      label: 'tick a row',
      tool: 'click',
      target: /checkbox "Task 4200"/,
      until: `tasks[4199].done === true`,
    },
  ],
  task: {
    description: 'Scroll to "Task 4200" and tick it',
    check: `() => tasks.filter(t => t.done).map(t => t.title)`,
    expect: ['Task 4200'],
  },
};
