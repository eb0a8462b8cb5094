import type {CorpusPage} from './types.js';

/** Tabulator: a virtual-DOM table (only visible rows exist) with click-to-edit cells. */
export const tabulator: CorpusPage = {
  id: 'tabulator',
  title: 'Tabulator table',
  packages: [{name: 'tabulator-tables', version: '6.5.3', license: 'MIT'}],
  constructs: ['virtual-DOM table (rows rendered while scrolling)', 'click-to-edit cells', 'sortable headers'],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tabulator</title>
<link rel="stylesheet" href="/node_modules/tabulator-tables/dist/css/tabulator.min.css">
<script src="/node_modules/tabulator-tables/dist/js/tabulator.min.js"></script></head><body>
<h1>Customers</h1>
<div id="table"></div>
<script>
const data = Array.from({length: 2000}, (_, i) => ({id: i + 1, name: 'Customer ' + (i + 1), city: ['Lisbon', 'Kyoto', 'Lima'][i % 3]}));
window.table = new Tabulator('#table', {
  data, height: 300, layout: 'fitColumns', renderVertical: 'virtual',
  columns: [{title: 'ID', field: 'id', width: 80}, {title: 'Name', field: 'name', editor: 'input'}, {title: 'City', field: 'city'}],
});
table.on('tableBuilt', () => { window.tableReady = true; });
</script></body></html>`,
  ready: `window.tableReady === true && document.querySelectorAll('.tabulator-row').length > 5`,
  steps: [
    {
      label: 'scroll the table to row 1500',
      tool: 'evaluate_script',
      function: `() => { const holder = document.querySelector('.tabulator-tableholder'); const row = document.querySelector('.tabulator-row'); holder.scrollTop = row.offsetHeight * 1499; return holder.scrollTop; }`,
      until: `[...document.querySelectorAll('.tabulator-row .tabulator-cell[tabulator-field="name"]')].some(c => c.textContent === 'Customer 1500')`,
    },
    {
      label: 'click a cell to edit it',
      tool: 'click',
      target: /"Customer 1500"/,
      until: `!!document.querySelector('.tabulator-editing input')`,
    },
    {label: 'fill the cell editor', tool: 'fill', target: /textbox/, value: 'Ada Lovelace'},
    {
      label: 'commit with Enter',
      tool: 'press_key',
      key: 'Enter',
      until: `table.getRow(1500).getData().name === 'Ada Lovelace' && !document.querySelector('.tabulator-editing')`,
    },
  ],
  task: {
    description: 'Scroll to customer 1500 and rename them "Ada Lovelace"',
    check: `() => table.getRow(1500).getData().name`,
    expect: 'Ada Lovelace',
  },
};
