import type {CorpusPage} from './types.js';

/**
 * dragula: a kanban board whose cards move between columns with mouse
 * events; a mirror follows the pointer and the card's shadow reflows the
 * column it is over (issue 21: the card must land at the target card's place).
 */
export const dragula: CorpusPage = {
  id: 'dragula',
  title: 'dragula kanban board',
  packages: [{name: 'dragula', version: '3.7.3', license: 'MIT'}],
  constructs: [
    'drag between two lists that reflow under the pointer (mouse events, mirror)',
    'drop onto an item of another list',
  ],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Board</title>
<link rel="stylesheet" href="/node_modules/dragula/dist/dragula.min.css">
<script src="/node_modules/dragula/dist/dragula.min.js"></script>
<style>.column { display: inline-block; vertical-align: top; width: 240px; min-height: 200px; margin: 8px; padding: 4px; background: #f4f4f4; list-style: none; }
.column li { margin: 4px; padding: 12px; background: white; border: 1px solid #999; }</style></head><body>
<h1>Board</h1>
<ul class="column" id="todo" aria-label="To do"><li id="c-login">Fix login</li><li id="c-search">Add search</li><li id="c-export">Export CSV</li></ul>
<ul class="column" id="done" aria-label="Done"><li id="c-setup">Project setup</li><li id="c-ci">CI pipeline</li><li id="c-docs">Docs site</li></ul>
<script>
window.board = dragula([document.getElementById('todo'), document.getElementById('done')]);
board.on('drop', () => { window.drops = (window.drops || 0) + 1; });
</script></body></html>`,
  ready: `!!window.board`,
  steps: [
    {
      label: 'drag a card onto a card of the other column',
      tool: 'drag',
      target: /listitem "Add search"|"Add search"/,
      to: /listitem "CI pipeline"|"CI pipeline"/,
      until: `window.drops === 1 && !document.querySelector('.gu-mirror')`,
    },
  ],
  task: {
    description: 'Move "Add search" to Done, at the place of "CI pipeline"',
    check: `() => ['todo', 'done'].map(id => [...document.getElementById(id).children].map(li => li.id))`,
    expect: [
      ['c-login', 'c-export'],
      ['c-setup', 'c-search', 'c-ci', 'c-docs'],
    ],
  },
};
