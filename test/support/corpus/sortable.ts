import type {CorpusPage} from './types.js';

/** SortableJS: a list reordered by HTML5 drag and drop. */
export const sortable: CorpusPage = {
  id: 'sortable',
  title: 'SortableJS kanban list',
  packages: [{name: 'sortablejs', version: '1.15.7', license: 'MIT'}],
  constructs: ['drag and drop reordering (HTML5 DnD)', 'draggable list items', 'drag handles'],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>SortableJS</title>
<script src="/node_modules/sortablejs/Sortable.min.js"></script>
<style>#todo li { padding: 12px; margin: 4px; border: 1px solid #999; list-style: none; width: 240px; }</style></head><body>
<h1>To do</h1>
<ul id="todo" aria-label="To do">
<li data-id="spec">Write the spec</li><li data-id="code">Write the code</li><li data-id="tests">Write tests</li><li data-id="ship">Ship it</li>
</ul>
<script>window.sortable = Sortable.create(document.getElementById('todo'), {animation: 0, onEnd: () => { window.moved = (window.moved || 0) + 1; }});</script>
</body></html>`,
  ready: `!!window.sortable`,
  steps: [
    {
      label: 'drag an item to the top',
      tool: 'drag',
      target: /listitem.*"?Write tests|"Write tests"/,
      to: /listitem.*"?Write the spec|"Write the spec"/,
      until: `window.moved === 1`,
    },
  ],
  task: {
    description: 'Move "Write tests" to the top of the list',
    check: `() => sortable.toArray()`,
    expect: ['tests', 'spec', 'code', 'ship'],
  },
};
