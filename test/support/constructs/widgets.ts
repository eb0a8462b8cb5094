import {type Construct, page} from './types.js';

export const details: Construct = {
  name: 'details',
  covers: '<details>/<summary> closed and open, nested, with headings, custom summary content, inside a shadow root',
  html: () =>
    page(
      'Details',
      `<details><summary>Closed summary</summary><p>Closed content</p></details>
<details open><summary>Open summary</summary><p>Open content</p><details><summary>Inner</summary>Inner text</details></details>
<details><summary><h3>Heading in summary</h3></summary>Body</details>
<details><p>No summary here</p></details>
<details name="acc"><summary>Accordion A</summary>A text</details><details name="acc"><summary>Accordion B</summary>B text</details>
<api-op method="GET" path="/api/pets" summary="List all pets"></api-op>
<script>
customElements.define('api-op', class extends HTMLElement {
  connectedCallback() {
    const root = this.attachShadow({mode: 'open'});
    root.innerHTML = '<details><summary><span class="m">' + this.getAttribute('method') + '</span> <span>' +
      this.getAttribute('path') + '</span> <span>' + this.getAttribute('summary') +
      '</span></summary><button>Try it out</button></details>';
  }
});
</script>`,
    ),
  steps: [
    {title: 'open the closed details', tool: 'click', target: {role: 'DisclosureTriangle', name: 'Closed summary'}},
    {title: 'close the open details', tool: 'click', target: {role: 'DisclosureTriangle', name: 'Open summary'}},
  ],
};

export const dialogs: Construct = {
  name: 'dialogs',
  covers: '<dialog open> (non-modal), showModal() (modal: the rest is inert), role=dialog/alertdialog, aria-modal',
  html: () =>
    page(
      'Dialogs',
      `<dialog open aria-label="Non modal"><p>Non-modal text</p><button>Inside non-modal</button></dialog>
<button onclick="document.getElementById('m').showModal()">Open modal</button>
<dialog id="m"><h2>Modal title</h2><form method="dialog"><button>Close modal</button></form></dialog>
<div role="alertdialog" aria-labelledby="adt" aria-describedby="add"><h2 id="adt">Alert dialog</h2><p id="add">Are you sure?</p><button>Yes</button></div>
<div role="dialog" aria-modal="true" aria-label="Aria modal"><button>In aria modal</button></div>
<p>Page text behind</p><a href="#z">Page link</a>`,
    ),
  steps: [
    {title: 'open the modal dialog', tool: 'click', target: {role: 'button', name: 'Open modal'}},
    {title: 'close it again', tool: 'click', target: {role: 'button', name: 'Close modal'}},
  ],
};

export const toggleButtons: Construct = {
  name: 'toggle-buttons',
  covers:
    'aria-pressed true/false/mixed, aria-expanded, aria-haspopup values, role=switch, indeterminate checkbox, aria-checked mixed',
  html: () =>
    page(
      'Toggle buttons',
      `<button aria-pressed="true">Bold</button>
<button aria-pressed="false" onclick="this.setAttribute('aria-pressed', String(this.getAttribute('aria-pressed') !== 'true'))">Italic</button>
<button aria-pressed="mixed">Mixed</button>
<button aria-expanded="false" aria-controls="m1" onclick="this.setAttribute('aria-expanded', 'true'); document.getElementById('m1').hidden = false">Menu</button>
<ul id="m1" role="menu" hidden><li role="menuitem">Cut</li><li role="menuitemcheckbox" aria-checked="true">Ruler</li><li role="menuitemradio" aria-checked="false">Zoom</li></ul>
<button aria-haspopup="true">Popup true</button><button aria-haspopup="listbox">Popup listbox</button><button aria-haspopup="dialog">Popup dialog</button>
<div role="switch" aria-checked="false" tabindex="0">Wifi</div>
<input type="checkbox" id="ind" aria-label="Indeterminate"><script>document.getElementById('ind').indeterminate = true</script>
<div role="checkbox" aria-checked="mixed" tabindex="0">Aria mixed</div>
<button disabled aria-pressed="true">Disabled toggle</button>`,
    ),
  steps: [
    {title: 'toggle Italic on', tool: 'click', target: {role: 'button', name: 'Italic'}},
    {title: 'open the menu', tool: 'click', target: {role: 'button', name: 'Menu'}},
  ],
};

export const liveRegions: Construct = {
  name: 'live-regions',
  covers:
    'aria-live polite/assertive/off, role=status/alert/log/timer/marquee, aria-busy, aria-atomic/aria-relevant, updates',
  html: () =>
    page(
      'Live regions',
      `<div aria-live="polite" id="p">Polite start</div>
<div aria-live="assertive" aria-atomic="true">Assertive</div>
<div aria-live="off">Off region</div>
<div role="status">Status text</div><div role="alert">Alert text</div>
<div role="log" aria-relevant="additions text">Log line</div><div role="timer">00:10</div><div role="marquee">Ticker</div>
<div aria-busy="true">Busy content</div>
<output>Output element</output>
<button onclick="document.getElementById('p').textContent = 'Polite updated'; document.getElementById('s').textContent = 'Saved'">Update</button>
<div role="status" id="s"></div>`,
    ),
  steps: [{title: 'update the regions', tool: 'click', target: {role: 'button', name: 'Update'}}],
};

export const comboboxes: Construct = {
  name: 'comboboxes',
  covers:
    'editable combobox with listbox and aria-activedescendant, select-only combobox, datalist, listbox options states',
  html: () =>
    page(
      'Comboboxes',
      `<label for="cb">Fruit</label>
<input id="cb" role="combobox" aria-autocomplete="list" aria-expanded="true" aria-controls="lb" aria-activedescendant="o1">
<ul id="lb" role="listbox" aria-label="Fruits"><li id="o1" role="option" aria-selected="true">Apple</li><li id="o2" role="option" aria-selected="false">Banana</li><li id="o3" role="option" aria-disabled="true">Cherry</li></ul>
<div role="combobox" tabindex="0" aria-expanded="false" aria-haspopup="listbox" aria-label="Colour">Red</div>
<input list="dl" aria-label="Browser"><datalist id="dl"><option value="Chrome"><option value="Firefox"></datalist>
<div role="listbox" aria-multiselectable="true" aria-label="Multi" tabindex="0" aria-activedescendant="m2"><div role="option" id="m1" aria-selected="true">One</div><div role="option" id="m2" aria-selected="false">Two</div></div>
<script>
const cb = document.getElementById('cb');
cb.addEventListener('keydown', e => {
  if (e.key === 'ArrowDown') {
    e.preventDefault();
    document.getElementById('o1').setAttribute('aria-selected', 'false');
    document.getElementById('o2').setAttribute('aria-selected', 'true');
    cb.setAttribute('aria-activedescendant', 'o2');
  }
});
</script>`,
    ),
  steps: [
    {title: 'focus the combobox', tool: 'click', target: {role: 'combobox', name: 'Fruit'}},
    {title: 'move to the next option', tool: 'press_key', args: {key: 'ArrowDown'}},
  ],
};

export const rangeWidgets: Construct = {
  name: 'range-widgets',
  covers:
    'sliders (input range, role=slider with aria-valuetext), progress (determinate, indeterminate), meter, role=progressbar/meter/spinbutton, scrollbar',
  html: () =>
    page(
      'Range widgets',
      `<style>[role]{display:block;width:120px;height:12px;background:#ddd;margin:2px}</style>
<input type="range" aria-label="Volume" min="0" max="10" value="3">
<div role="slider" tabindex="0" aria-label="Temperature" aria-valuemin="0" aria-valuemax="40" aria-valuenow="21" aria-valuetext="21 degrees" id="t"></div>
<div role="slider" tabindex="0" aria-label="No text" aria-valuemin="0" aria-valuemax="5" aria-valuenow="2"></div>
<progress value="30" max="100">30%</progress><progress aria-label="Loading"></progress>
<meter value="0.6" aria-label="Disk">60%</meter><meter min="0" max="10" low="2" high="8" optimum="5" value="9">9</meter>
<div role="progressbar" aria-valuenow="75" aria-valuetext="Three quarters" aria-label="Upload"></div>
<div role="meter" aria-valuenow="3" aria-valuemin="0" aria-valuemax="5" aria-label="Rating"></div>
<div role="spinbutton" tabindex="0" aria-valuenow="4" aria-valuemin="1" aria-valuemax="9" aria-label="Count">4</div>
<input type="number" aria-label="Quantity" value="2" min="1" max="5" step="1">
<div role="scrollbar" aria-controls="t" aria-valuenow="50" aria-orientation="vertical" tabindex="0" aria-label="Scroll"></div>
<script>
const t = document.getElementById('t');
t.addEventListener('keydown', e => {
  if (e.key === 'ArrowRight') {
    const v = Number(t.getAttribute('aria-valuenow')) + 1;
    t.setAttribute('aria-valuenow', String(v));
    t.setAttribute('aria-valuetext', v + ' degrees');
  }
});
</script>`,
    ),
  steps: [
    {title: 'focus the slider', tool: 'click', target: {role: 'slider', name: 'Temperature'}},
    {title: 'raise the temperature', tool: 'press_key', args: {key: 'ArrowRight'}},
    {title: 'move the native slider', tool: 'fill', target: {role: 'slider', name: 'Volume'}, args: {value: '7'}},
  ],
};
