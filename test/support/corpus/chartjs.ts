import type {CorpusPage} from './types.js';

/** Chart.js: charts drawn on `<canvas>`, with fallback content for assistive technology. */
export const chartjs: CorpusPage = {
  id: 'chartjs',
  title: 'Chart.js dashboard',
  packages: [{name: 'chart.js', version: '4.6.1', license: 'MIT'}],
  constructs: ['<canvas> with fallback content', '<canvas role="img"> with aria-label', 'hover tooltip on a canvas'],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Chart.js</title>
<script src="/node_modules/chart.js/dist/chart.umd.min.js"></script></head><body>
<h1>Sales</h1>
<div style="width: 600px; height: 300px"><canvas id="sales" role="img" aria-label="Monthly sales, in units"><p>January 12, February 19, March 7</p></canvas></div>
<div style="width: 300px; height: 300px"><canvas id="share"><table><caption>Market share</caption><tr><th>North</th><td>60%</td></tr><tr><th>South</th><td>40%</td></tr></table></canvas></div>
<button type="button" id="hide">Hide February</button>
<script>
const common = {animation: false, onHover: (event, active, chart) => { if (active.length) window.hovered = chart.data.labels[active[0].index]; }, responsive: true, maintainAspectRatio: false, interaction: {mode: 'index', intersect: false}};
window.sales = new Chart(document.getElementById('sales'), {type: 'bar', data: {labels: ['January', 'February', 'March'], datasets: [{label: 'Units', data: [12, 19, 7]}]}, options: common});
window.share = new Chart(document.getElementById('share'), {type: 'doughnut', data: {labels: ['North', 'South'], datasets: [{data: [60, 40]}]}, options: common});
document.getElementById('hide').addEventListener('click', () => { sales.toggleDataVisibility(1); sales.update(); });
</script></body></html>`,
  ready: `!!window.sales && !!window.share && sales.chartArea?.width > 0`,
  steps: [
    {
      label: 'hover the chart canvas',
      tool: 'hover',
      target: /image "Monthly sales, in units"/,
      until: `window.hovered === 'February' && sales.tooltip.getActiveElements().length === 1`,
    },
    {
      label: 'hide a bar with the page button',
      tool: 'click',
      target: /button "Hide February"/,
      until: `sales.getDataVisibility(1) === false`,
    },
  ],
  task: {
    description: 'Hover the sales chart to see a tooltip, then hide February',
    check: `() => ({hovered: window.hovered, february: sales.getDataVisibility(1)})`,
    expect: {hovered: 'February', february: false},
  },
};
