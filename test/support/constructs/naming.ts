import {type Construct, page} from './types.js';

/** Every description source Chrome uses, and how title competes with the name. */
export const descriptions: Construct = {
  name: 'descriptions',
  covers: 'aria-describedby (one, many, hidden), aria-description, title as description and as name, aria-label+title',
  html: () =>
    page(
      'Descriptions',
      `<p id="d1">First description.</p><p id="d2">Second one.</p><p id="dh" hidden>Hidden describer</p>
<button aria-describedby="d1">Described</button>
<button aria-describedby="d1 d2">Two describers</button>
<button aria-describedby="dh">Hidden describer</button>
<button aria-description="Inline description">Aria description</button>
<button title="Title text">Has title</button>
<button aria-label="Labelled" title="Tooltip title">X</button>
<button title="Only title"></button>
<a href="#x" title="Link title">Titled link</a>
<input aria-label="Search" title="Search the site" placeholder="Type here">
<input title="Title only input">
<input placeholder="Placeholder only">
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="Pixel" title="Pixel title" width="20" height="20">
<div role="group" aria-label="Group" aria-describedby="d2"><button>In group</button></div>
<span title="Span title">Titled span</span>`,
    ),
};

/** Label sources: for, wrapping, aria-labelledby chains, hidden labellers, embedded controls. */
export const labels: Construct = {
  name: 'labels',
  covers:
    'label[for], wrapping label, aria-labelledby (chains, many ids, hidden labellers, self), embedded control values, fieldset/legend',
  html: () =>
    page(
      'Labels',
      `<label for="a">For label</label><input id="a">
<label>Wrapping label <input></label>
<label for="b">First</label><label for="b">Second</label><input id="b">
<span id="l1">Labelled</span><span id="l2">by two</span><input aria-labelledby="l1 l2">
<span id="chain" aria-labelledby="l1">Chain target</span><button aria-labelledby="chain">Chained</button>
<span id="hid" hidden>Hidden labeller</span><button aria-labelledby="hid">Visible content</button>
<span id="none" style="display:none">Display none labeller</span><input aria-labelledby="none">
<button id="self" aria-labelledby="self l1">Self</button>
<label for="c">Quantity <select><option>3</option><option selected>5</option></select> items</label><input id="c">
<label for="d">Amount <input value="10" aria-label="inner"></label><input id="d">
<fieldset><legend>Shipping</legend><label><input type="radio" name="s"> Express</label><label><input type="radio" name="s" checked> Standard</label></fieldset>
<label for="e" aria-hidden="true">Aria hidden label</label><input id="e">
<label>Checkbox label <input type="checkbox"></label>
<label id="lab" for="f">Label with id</label><input id="f" aria-labelledby="lab">`,
    ),
};
