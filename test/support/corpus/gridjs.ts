import type {CorpusPage} from './types.js';

/** Grid.js (Preact inside): a table with a search box, sortable headers and pagination. */
export const gridjs: CorpusPage = {
  id: 'gridjs',
  title: 'Grid.js table',
  packages: [{name: 'gridjs', version: '6.2.0', license: 'MIT'}],
  constructs: ['table with sortable column headers', 'search box', 'pagination buttons with aria-labels'],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Grid.js</title>
<link rel="stylesheet" href="/node_modules/gridjs/dist/theme/mermaid.min.css">
<script src="/node_modules/gridjs/dist/gridjs.umd.js"></script></head><body>
<h1>Offices</h1>
<div id="table"></div>
<script>
const cities = ['Lisbon', 'Kyoto', 'Lima', 'Oslo', 'Accra', 'Quito', 'Hanoi', 'Perth', 'Turin', 'Cork', 'Riga', 'Baku'];
window.grid = new gridjs.Grid({
  columns: ['City', 'Staff', 'Opened'],
  data: cities.map((c, i) => [c, (i * 37) % 90 + 5, 1990 + i * 2]),
  search: true, sort: true, pagination: {limit: 5},
});
// Grid.js 6.2.0 fails about one first render in four: its search and
// pagination plugins register while the pipeline runs, which then reads an
// undefined step result and shows "An error happened while fetching the data"
// with a dead pager (grid-js/gridjs#1458, in every browser). Render again
// until a render succeeds, as a user reloading the page would. A plugin that
// registers ("updated") schedules another run (throttled): the table is
// settled once a run that started after the last registration succeeded.
// The page counts as ready only then (gridSettled), whatever the machine's
// speed: no later run can re-render page 1 after the agent paged.
let seq = 0;
let updatedAt = 0;
let succeededFrom = -1;
const pipeline = grid.config.pipeline;
const process = pipeline.process.bind(pipeline);
pipeline.process = async (...args) => {
  const started = ++seq;
  try {
    const result = await process(...args);
    succeededFrom = Math.max(succeededFrom, started);
    return result;
  } catch (error) {
    succeededFrom = -1;
    throw error;
  }
};
pipeline.on('updated', () => { updatedAt = ++seq; });
pipeline.on('error', () => setTimeout(() => grid.forceRender(), 0));
window.gridSettled = () => succeededFrom > updatedAt;
grid.render(document.getElementById('table'));
</script></body></html>`,
  // Rows show before the pager has settled: wait for its Next button to be usable too, and for the pipeline to settle.
  ready: `document.querySelectorAll('.gridjs-tbody tr').length === 5 && document.querySelector('.gridjs-pages button[aria-label="Next"]')?.disabled === false && window.gridSettled()`,
  steps: [
    {
      label: 'go to the next page',
      tool: 'click',
      target: /button "Next"/,
      until: `document.querySelector('.gridjs-tbody td')?.textContent === 'Quito'`,
    },
    {
      label: 'sort by staff',
      tool: 'click',
      target: /button "Sort column ascending"/,
      until: `!!document.querySelector('.gridjs-sort-asc')`,
    },
    {label: 'click the search box', tool: 'click', target: /searchbox|textbox "Type a keyword/},
    {
      label: 'search for a city',
      tool: 'type_text',
      text: 'Kyo',
      until: `document.querySelectorAll('.gridjs-tbody tr').length === 1`,
    },
  ],
  task: {
    description: 'Page through, sort, then search the table for Kyoto',
    check: `() => [...document.querySelectorAll('.gridjs-tbody tr')].map(tr => tr.firstChild.textContent)`,
    expect: ['Kyoto'],
  },
};
