import type {CorpusPage} from './types.js';

/** AG Grid Community: a virtualised data grid (rows and columns rendered on demand) with cell editing. */
export const agGrid: CorpusPage = {
  id: 'ag-grid',
  title: 'AG Grid data grid',
  packages: [{name: 'ag-grid-community', version: '36.2.0', license: 'MIT'}],
  constructs: ['virtualised grid (role grid, aria-rowcount/rowindex)', 'cell editor', 'sortable column headers'],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>AG Grid</title>
<script src="/node_modules/ag-grid-community/dist/ag-grid-community.min.js"></script></head><body>
<h1>Inventory</h1>
<div id="grid" style="height: 320px; width: 640px"></div>
<script>
const rowData = Array.from({length: 1000}, (_, i) => ({sku: 'SKU-' + (i + 1), name: 'Item ' + (i + 1), qty: (i * 7) % 50}));
window.api = agGrid.createGrid(document.getElementById('grid'), {
  rowData,
  columnDefs: [{field: 'sku', headerName: 'SKU'}, {field: 'name', headerName: 'Name', editable: true}, {field: 'qty', headerName: 'Quantity', editable: true}],
  animateRows: false,
});
</script></body></html>`,
  ready: `!!window.api && document.querySelectorAll('#grid .ag-row[row-index]').length > 5`,
  steps: [
    {
      label: 'scroll the grid to row 600',
      tool: 'evaluate_script',
      function: `() => { const scroller = [...document.querySelectorAll('#grid *')].find(e => e.scrollHeight > e.clientHeight + 1000 && /auto|scroll/.test(getComputedStyle(e).overflowY)); scroller.scrollTop = document.querySelector('#grid .ag-row[row-index]').offsetHeight * 595; return scroller.scrollTop > 0; }`,
      until: `!!document.querySelector('.ag-row[row-index="599"] [col-id="name"]')`,
    },
    {
      label: 'double-click a cell to edit it',
      tool: 'click',
      target: /gridcell "Item 600"/,
      dblClick: true,
      until: `!!document.querySelector('.ag-row[row-index="599"] [col-id="name"] input')`,
    },
    {label: 'fill the cell editor', tool: 'fill', target: /textbox/, value: 'Renamed item'},
    {
      label: 'commit with Enter',
      tool: 'press_key',
      key: 'Enter',
      until: `api.getDisplayedRowAtIndex(599).data.name === 'Renamed item' && !document.querySelector('.ag-cell-inline-editing')`,
    },
  ],
  task: {
    description: 'Scroll to row 600 and rename "Item 600" to "Renamed item"',
    check: `() => ({name: api.getDisplayedRowAtIndex(599).data.name, editing: api.getEditingCells().length})`,
    expect: {name: 'Renamed item', editing: 0},
  },
};
