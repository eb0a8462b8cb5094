import {type Construct, page} from './types.js';

export const tables: Construct = {
  name: 'tables',
  covers:
    'data tables (caption, thead/tbody, th scope, rowspan/colspan), layout tables, role=grid with gridcells, aria-sort',
  html: () =>
    page(
      'Tables',
      `<table><caption>Quarterly sales</caption>
<thead><tr><th scope="col">Region</th><th scope="col" aria-sort="ascending">Q1</th><th scope="col">Q2</th></tr></thead>
<tbody><tr><th scope="row">North</th><td>10</td><td>12</td></tr>
<tr><th scope="row" rowspan="2">South</th><td colspan="2">merged</td></tr><tr><td>7</td><td><a href="#e">edit</a></td></tr></tbody>
<tfoot><tr><td>Total</td><td>17</td><td>12</td></tr></tfoot></table>
<table role="presentation"><tr><td>Layout cell</td><td>Another</td></tr></table>
<table><tr><td>No headers</td><td>plain</td></tr></table>
<div role="grid" aria-label="People" aria-rowcount="3">
<div role="row"><span role="columnheader">Name</span><span role="columnheader">Age</span></div>
<div role="row" aria-selected="true"><span role="gridcell" tabindex="0">Ann</span><span role="gridcell">31</span></div>
<div role="row"><span role="gridcell" tabindex="-1">Bob</span><span role="gridcell" aria-readonly="true">45</span></div></div>`,
    ),
};

export const lists: Construct = {
  name: 'lists',
  covers: 'ul/ol/dl, nested lists, list-style none, role=list/listitem, menu element, start/reversed',
  html: () =>
    page(
      'Lists',
      `<ul><li>One</li><li>Two<ul><li>Nested</li></ul></li></ul>
<ol start="3" reversed><li>Three</li><li>Two</li></ol>
<ul style="list-style:none"><li>Unstyled</li></ul>
<ol type="a"><li>Lettered</li></ol>
<dl><dt>Term</dt><dd>Definition</dd><dt>Other</dt><dd>Meaning</dd></dl>
<div role="list"><div role="listitem">Aria item</div><div role="listitem">Second aria item</div></div>
<menu><li><button>Menu button</button></li></menu>
<ul><li><a href="#a">Link item</a></li><li></li></ul>`,
    ),
};

export const landmarks: Construct = {
  name: 'landmarks',
  covers:
    'header/footer/nav/main/aside/section/form/search with and without names, scoped header/footer, role landmarks',
  html: () =>
    page(
      'Landmarks',
      `<header>Site header</header>
<nav>Unnamed nav</nav><nav aria-label="Secondary">Named nav</nav>
<main>
<article><header>Article header</header><p>Article text</p><footer>Article footer</footer></article>
<section>Unnamed section</section>
<section aria-label="Named section">Named section text</section>
<section aria-labelledby="sh"><h2 id="sh">Labelled by heading</h2></section>
<form>Unnamed form <input aria-label="f1"></form>
<form aria-label="Named form"><input aria-label="f2"></form>
<search><input type="search" aria-label="Site search"></search>
<div role="search">Role search</div>
<aside>Aside text</aside>
<aside><section><header>Nested header</header></section></aside>
</main>
<div role="banner">Role banner</div>
<div role="region">Unnamed region</div>
<div role="region" aria-label="Named region">Region text</div>
<footer>Site footer</footer>`,
    ),
};

export const headings: Construct = {
  name: 'headings',
  covers: 'h1-h6, aria-level, role=heading, headings with focusable children, with images, empty headings',
  html: () =>
    page(
      'Headings',
      `<h1>Top</h1><h2>Second</h2><h3>Third</h3><h4>Fourth</h4><h5>Fifth</h5><h6>Sixth</h6>
<h2 aria-level="4">Overridden level</h2>
<div role="heading" aria-level="3">Role heading</div>
<div role="heading">Role heading no level</div>
<h2>Heading with <a href="#l">a link</a></h2>
<h3><button>Button heading</button></h3>
<h3>Text <span tabindex="0">focusable span</span></h3>
<h2><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="Logo" width="10" height="10"> Brand</h2>
<h4></h4>
<h5 aria-label="Labelled heading">Content ignored</h5>
<h2><span>Nested</span> <em>inline</em> heading</h2>`,
    ),
};
