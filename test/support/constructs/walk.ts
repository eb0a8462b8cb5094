import {type Construct, page} from './types.js';

/**
 * Pages aimed at the in-page walk's own rules (src/snapshot/rules.ts): the
 * white space it decides without Chrome, the containers it leaves out, the
 * links, buttons and headings it names itself, and what it must send to Chrome.
 */
export const whitespace: Construct = {
  name: 'whitespace',
  covers:
    'white space between inline, block, floated, positioned, flex, grid, table and display:contents boxes; leading and trailing spaces; pre',
  html: () =>
    page(
      'Whitespace',
      `<style>.f{float:left}.a{position:absolute;left:-999px}.ib{display:inline-block}.c{display:contents}</style>
<div> <span>lead</span> <span>mid</span> </div>
<div><span>a</span> <div>block</div> <span>b</span> </div>
<div><span>x</span> <span class="f">float</span> <span>y</span></div>
<div><span>p</span> <span class="a">abs</span> <span>q</span></div>
<div><span class="ib">ib1</span> <span class="ib">ib2</span></div>
<div style="display:flex"> <span>fx1</span> <span>fx2</span> </div>
<div style="display:grid"> <span>g1</span> <span>g2</span> </div>
<table><tr> <td> cell one </td> <td>cell two </td> </tr></table>
<div><span class="c"><b>in contents</b> </span> <i>after contents</i></div>
<p>Text then <a href="#l">link</a> and more.</p>
<p><a href="#m">Link</a> then text.</p>
<p>Ends with a space <em>emphasis</em></p>
<p>  <strong>Strong</strong>  </p>
<ul>
  <li>  item with spaces  </li>
  <li><span>nested</span> tail </li>
</ul>
<pre>  pre
  text  </pre>
<div style="white-space:nowrap">  no   wrap  </div>
<div style="white-space:pre-line">pre
line</div>
<h2>  Heading with spaces  </h2>
<button>
  Button with newlines
</button>`,
    ),
};

export const walkedElements: Construct = {
  name: 'walked-elements',
  covers:
    'buttons and links with title/tabindex, disabled fieldsets, label text of checkboxes, <q>, <abbr title>, scroll containers, sticky boxes, hidden parents with visible children',
  html: () =>
    page(
      'Walked elements',
      `<button title="Saves it" tabindex="-1">Save</button>
<button title="Same">Same</button>
<a href="#t" title="  Go   there ">Link with title</a>
<a href="#u" tabindex="3">Tab link</a>
<h3 title="About">Titled heading</h3>
<fieldset disabled><legend>Off</legend><button>In disabled fieldset</button></fieldset>
<label><input type="checkbox"> Checkbox label</label>
<input type="radio" id="r1" name="r"><label for="r1">Radio label</label>
<label for="t1">Text label</label><input id="t1">
<p>Quote: <q>quoted</q> and <abbr title="HyperText Markup Language">HTML</abbr>.</p>
<div style="overflow:auto;height:40px"><p>scroll one</p><p>scroll two</p><p>scroll three</p><p>scroll four</p></div>
<div style="overflow:hidden;height:20px"><p>clipped</p></div>
<div style="position:sticky;top:0">Sticky box</div>
<div style="visibility:hidden">Hidden parent <span style="visibility:visible">visible child</span></div>
<button style="visibility:hidden">Hidden button</button>
<span role="note">A note</span>
<div role="group" aria-label="Named group"><p>In group</p></div>
<div tabindex="-1">Focusable by script</div>`,
    ),
  steps: [
    {title: 'focus a link', tool: 'click', target: {role: 'link', name: 'Tab link'}},
    {title: 'click a titled button', tool: 'click', target: {role: 'button', name: 'Save'}},
  ],
};

export const customElements: Construct = {
  name: 'custom-elements',
  covers:
    'custom elements with ElementInternals (role, label, states), a closed shadow root, delegatesFocus, light-DOM custom elements, elements upgraded after load',
  html: () =>
    page(
      'Custom elements',
      `<x-toggle>Internal toggle</x-toggle>
<x-closed>light text</x-closed>
<x-plain><p>Plain custom element</p><button>Its button</button></x-plain>
<x-delegate></x-delegate>
<x-late>Late upgrade</x-late>
<x-hidden><button>Hidden by internals</button></x-hidden>
<script>
customElements.define('x-toggle', class extends HTMLElement {
  constructor() { super(); const i = this.attachInternals(); i.role = 'switch'; i.ariaChecked = 'true'; this.tabIndex = 0; }
});
customElements.define('x-closed', class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: 'closed'}).innerHTML = '<button>Closed button</button><slot></slot>'; }
});
customElements.define('x-plain', class extends HTMLElement {});
customElements.define('x-delegate', class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: 'open', delegatesFocus: true}).innerHTML = '<input aria-label="Delegated">'; }
});
customElements.define('x-hidden', class extends HTMLElement {
  constructor() { super(); this.attachInternals().ariaHidden = 'true'; }
});
setTimeout(() => customElements.define('x-late', class extends HTMLElement {
  constructor() { super(); this.attachInternals().role = 'button'; this.tabIndex = 0; }
}), 0);
</script>`,
    ),
  steps: [{title: 'click the internal toggle', tool: 'click', target: {role: 'switch', name: 'Internal toggle'}}],
};
