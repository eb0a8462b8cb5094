import {type Construct, page} from './types.js';

export const shadowRoots: Construct = {
  name: 'shadow-roots',
  covers:
    'open shadow roots, default and named slots, slot fallback, nested hosts, unslotted light DOM, delegatesFocus, shadow host with role',
  html: () =>
    page(
      'Shadow roots',
      `<x-card><span slot="title">Card title</span><p>Card body</p><button>Light button</button></x-card>
<x-card><p>No title given</p></x-card>
<x-outer></x-outer>
<x-hidden-light><p>Never slotted</p></x-hidden-light>
<x-focus></x-focus>
<x-role role="region" aria-label="Host region"><span>Inside host</span></x-role>
<script>
customElements.define('x-card', class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: 'open'}).innerHTML =
    '<section aria-label="Card"><h2><slot name="title">Default title</slot></h2><slot></slot><button onclick="this.textContent = \\'Shadow clicked\\'">Shadow action</button></section>'; }
});
customElements.define('x-inner', class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: 'open'}).innerHTML = '<a href="#inner">Inner link</a><slot></slot>'; }
});
customElements.define('x-outer', class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: 'open'}).innerHTML = '<nav aria-label="Nested"><x-inner><b>Slotted in inner</b></x-inner></nav>'; }
});
customElements.define('x-hidden-light', class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: 'open'}).innerHTML = '<p>Shadow only</p>'; }
});
customElements.define('x-focus', class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: 'open', delegatesFocus: true}).innerHTML = '<input aria-label="Delegated input">'; }
});
customElements.define('x-role', class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: 'open'}).innerHTML = '<slot></slot><em>Shadow em</em>'; }
});
</script>`,
    ),
  steps: [{title: 'click a shadow button', tool: 'click', target: {role: 'button', name: 'Shadow action'}}],
};

const SAME_SITE_FRAME = `<!doctype html><title>Same site frame</title><h2>Same-site frame</h2><button onclick="this.textContent='Frame clicked'">Frame button</button><iframe title="Nested" srcdoc="<p>Nested srcdoc</p>"></iframe>`;
const CROSS_SITE_FRAME = `<!doctype html><title>Cross site frame</title><main><h2>Cross-site frame</h2><label>Name <input></label><button onclick="this.textContent='Cross clicked'">Cross button</button></main>`;

export const iframes: Construct = {
  name: 'iframes',
  covers:
    'same-site iframe, cross-site (out-of-process) iframe, nested srcdoc, iframe without title, aria-hidden iframe',
  html: ({crossOrigin}) =>
    page(
      'Iframes',
      `<h1>Frames</h1>
<iframe src="/constructs/iframes/same" title="Same site"></iframe>
<iframe src="${crossOrigin}/constructs/iframes/cross" title="Cross site"></iframe>
<iframe srcdoc="<button>Untitled frame button</button>"></iframe>
<iframe aria-hidden="true" srcdoc="<p>Hidden frame text</p>" title="Hidden"></iframe>`,
    ),
  routes: () => ({'/constructs/iframes/same': SAME_SITE_FRAME, '/constructs/iframes/cross': CROSS_SITE_FRAME}),
  ready: 'Frames',
  steps: [
    {title: 'click in the same-site frame', tool: 'click', target: {role: 'button', name: 'Frame button'}},
    {title: 'click in the cross-site frame', tool: 'click', target: {role: 'button', name: 'Cross button'}},
  ],
};

export const canvas: Construct = {
  name: 'canvas',
  covers: '<canvas> with fallback content (text, controls, links), without fallback, role=img with a label',
  html: () =>
    page(
      'Canvas',
      `<canvas width="100" height="50"><p>Fallback paragraph</p><button>Fallback button</button><a href="#c">Fallback link</a></canvas>
<canvas width="50" height="50"></canvas>
<canvas role="img" aria-label="Chart of sales" width="50" height="50"></canvas>
<canvas width="50" height="50" aria-label="Labelled canvas"><span>with text</span></canvas>`,
    ),
};

export const ariaOwns: Construct = {
  name: 'aria-owns',
  covers: 'aria-owns re-parenting (owned before and after the owner, several ids, owned listbox options), a broken id',
  html: () =>
    page(
      'Aria owns',
      `<div id="early" role="option">Owned early</div>
<div role="listbox" aria-label="Owner" aria-owns="early late missing"><div role="option">Own child</div></div>
<p>Between</p>
<div id="late" role="option">Owned late</div>
<ul role="tree" aria-label="Tree" aria-owns="branch"><li role="treeitem">Leaf one</li></ul>
<div><li id="branch" role="treeitem" aria-expanded="false">Branch</li></div>
<div aria-owns="txt"><h3>Owner of text</h3></div><span id="txt">Owned text</span>`,
    ),
};

export const displayContents: Construct = {
  name: 'display-contents',
  covers: 'display: contents on wrappers, list items, buttons, headings and table parts',
  html: () =>
    page(
      'Display contents',
      `<style>.c{display:contents}</style>
<div class="c"><p>In contents wrapper</p></div>
<ul class="c"><li>Item of contents list</li></ul>
<ul><li class="c">Contents item</li></ul>
<button class="c">Contents button</button>
<h2 class="c">Contents heading</h2>
<a href="#d" class="c">Contents link</a>
<nav class="c" aria-label="Contents nav"><a href="#e">Nav link</a></nav>
<table><tbody class="c"><tr><td>Contents tbody</td></tr></tbody></table>
<section class="c" aria-label="Contents section"><p>Section text</p></section>`,
    ),
};
