/** HTML fixtures shared by the snapshot, fidelity and input tests. */

const PIXEL = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';

/** Many element types in one page: landmarks, text, every input type, ARIA widgets, hidden things. */
export const KITCHEN_SINK = `<!doctype html><html><head><title>Kitchen</title></head><body>
<header><nav aria-label="Main"><a href="/a">Home</a> <a href="/b">About <b>us</b></a></nav></header>
<main>
<h1>Title one</h1>
<h2>Sub <a href="#x">link in heading</a></h2>
<p>Some paragraph text with <strong>bold</strong> and <em>em</em>.</p>
<ul><li>Item A</li><li>Item B <button>Btn in li</button></li></ul>
<form aria-label="Signup">
<label for="n">Name</label><input id="n" name="n" value="Bob">
<label>Email <input type="email" placeholder="you@x" required></label>
<input type="password" aria-label="Pass" value="abc">
<input type="number" aria-label="Age" min="0" max="120" value="30">
<input type="range" aria-label="Vol" min="0" max="100" value="40">
<input type="checkbox" id="c1" checked><label for="c1">Agree</label>
<input type="checkbox" aria-label="Mixed" id="mix">
<input type="radio" name="r" aria-label="R1"><input type="radio" name="r" aria-label="R2" checked>
<input type="date" aria-label="When"><input type="color" aria-label="Col" value="#ff0000">
<input type="search" aria-label="Find"><input type="tel" aria-label="Phone"><input type="url" aria-label="Site">
<input type="file" aria-label="Upload">
<input type="hidden" value="h">
<input type="submit"><input type="reset"><input type="button" value="Plain">
<textarea aria-label="Bio">hello</textarea>
<select aria-label="Pick"><option>One</option><option selected>Two</option><optgroup label="G"><option>Three</option></optgroup></select>
<select multiple aria-label="Multi"><option>X</option><option>Y</option></select>
<button disabled>Disabled btn</button>
<button aria-pressed="true">Toggle</button>
<button aria-expanded="false" aria-haspopup="menu">Menu btn</button>
<div role="switch" aria-checked="true" tabindex="0">Sw</div>
<div contenteditable="true">Editable area</div>
<input list="dl" aria-label="Suggest"><datalist id="dl"><option>a</option></datalist>
<input placeholder="Only placeholder">
</form>
<img src="${PIXEL}" alt="A pixel">
<img src="${PIXEL}" alt="">
<section aria-label="Named region"><p>In region</p></section>
<section><p>Unnamed section</p><header>Section header</header></section>
<aside>Side</aside>
<div role="alert">Alert text</div>
<div aria-live="polite">Live text</div>
<div role="status">Status</div>
<div role="dialog" aria-modal="true" aria-label="Dlg"><button>In dialog</button></div>
<div tabindex="0">Focusable div</div>
<div tabindex="-1">Minus one</div>
<span title="tip">Titled span</span>
<table><caption>Tbl</caption><tr><th>H1</th><th>H2</th></tr><tr><td>c1</td><td>c2</td></tr></table>
<details><summary>More</summary><p>Hidden details</p></details>
<details open><summary>Open one</summary><p>Shown details</p></details>
<div hidden>Hidden div</div>
<div style="display:none">None div</div>
<div style="visibility:hidden">Invisible <span style="visibility:visible">but visible child</span></div>
<div aria-hidden="true">Aria hidden <button>hb</button></div>
<progress value="30" max="100"></progress>
<meter value="0.5"></meter>
<hr>
<div role="tablist"><div role="tab" aria-selected="true">T1</div><div role="tab" aria-selected="false">T2</div></div>
<div role="combobox" aria-expanded="false" aria-controls="lb" tabindex="0">Combo</div>
<div role="listbox" id="lb"><div role="option" aria-selected="false">Opt1</div></div>
<p>Line<br>break</p>
<p style="text-transform:uppercase">shout</p>
<p>  spaced   <span> out </span>  words </p>
<label>Wrapped <select><option value="v1">Alpha</option><option value="v2">Beta</option></select></label>
<label><input type="checkbox"> Remember me</label>
<a>No href anchor</a>
<a href="/c"><img alt="Img link" src="${PIXEL}"></a>
<a href="/t" title="Link title">Titled link</a>
<div aria-describedby="d1">Described</div><div id="d1">desc text</div>
<button aria-describedby="d1">Described btn</button>
<button title="Only title"></button>
<div aria-label="Labelled empty"></div>
<svg role="img" aria-label="Svg pic"><circle r="3"></circle></svg>
<figure><img alt="fig" src="${PIXEL}"><figcaption>Cap</figcaption></figure>
<div style="display:flex"> <span>flex one</span> <span>flex two</span> </div>
<fieldset><legend>Group legend</legend><input aria-label="In fieldset"></fieldset>
<ol><li><a href="/l1">List link</a></li></ol>
<h3 aria-level="5">Level five</h3>
</main>
<footer>Foot</footer>
</body></html>`;

/** n buttons nested as main>section>div>ul>li>div>button (the benchmark page). */
export function buttonsPage(n: number): string {
  const parts: string[] = [];
  for (let s = 0; s < n; s += 100) {
    parts.push('<section><div><ul>');
    for (let i = s; i < Math.min(n, s + 100); i++) {
      parts.push(`<li><div><button type="button" id="b${i + 1}">Button ${i + 1}</button></div></li>`);
    }
    parts.push('</ul></div></section>');
  }
  return `<!doctype html><html><head><meta charset="utf-8"><title>Buttons ${n}</title></head><body><main>${parts.join('')}</main></body></html>`;
}

/** A page with a same-origin iframe, a cross-site iframe (`crossOrigin` = base URL of another site) and an open shadow root. */
export function framesPage(crossOrigin: string): string {
  return `<!doctype html><title>Frames</title><h1>Top</h1>
<iframe src="/child" title="Same"></iframe>
<iframe src="${crossOrigin}/cross" title="Cross" style="position:absolute; left:300px; top:200px; width:300px; height:200px; border:5px solid black"></iframe>
<div id="host"><span>slotted light</span></div>
<script>
const root = document.getElementById('host').attachShadow({mode: 'open'});
root.innerHTML = '<button onclick="window.shadowClicks = (window.shadowClicks || 0) + 1">Shadow btn</button><slot></slot><p>shadow text</p>';
</script>`;
}

export const CHILD_FRAME = `<!doctype html><title>Child</title><button onclick="this.textContent = 'Child clicked'">In child</button><p>child text</p>`;

export const CROSS_FRAME = `<!doctype html><title>Cross</title>
<div style="padding-top:60px; padding-left:40px"><a href="/z">Cross link</a>
<button onclick="this.textContent = 'Cross clicked ' + (++window.n || (window.n = 1))">Cross button</button>
<input aria-label="cross input"></div>`;
