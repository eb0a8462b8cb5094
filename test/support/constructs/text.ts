import {type Construct, page} from './types.js';

/** Rendered text, not DOM text: text-transform on the element, inherited, and on ::first-letter. */
export const textTransform: Construct = {
  name: 'text-transform',
  covers: 'text-transform uppercase/capitalize/lowercase (own, inherited, ::first-letter) in names and text',
  html: () =>
    page(
      'Text transform',
      `<style>.up{text-transform:uppercase}.cap{text-transform:capitalize}.low{text-transform:lowercase}
.fl::first-letter{text-transform:uppercase}.box{text-transform:uppercase}.box .none{text-transform:none}</style>
<h1 class="up">quarterly review</h1>
<h2 class="cap">the best of times</h2>
<p class="low">SHOUTING QUIETLY</p>
<button class="up">save draft</button>
<a href="#x" class="cap">read more about it</a>
<p class="fl">first letter only</p>
<div class="box"><span>inherited text</span> <span class="none">kept as is</span></div>
<button aria-label="explicit label" class="up">ignored content</button>
<label class="up" for="t">email address</label><input id="t">
<ul class="cap"><li>alpha beta</li><li>gamma <b>delta</b></li></ul>`,
    ),
};

/** CSS generated content: ::before/::after text, counters, alt text for content, icons on buttons. */
export const generatedContent: Construct = {
  name: 'generated-content',
  covers: 'CSS ::before/::after content, counters, content alt text, attr(), icon pseudo-elements on buttons',
  html: () =>
    page(
      'Generated content',
      `<style>
.req::after{content:" *"} .pre::before{content:"Note: "} .icon::before{content:"\\2605"}
.alt::before{content:"\\2192" / "next"} .attr::after{content:" (" attr(data-n) ")"}
ol.c{counter-reset:item;list-style:none} ol.c li{counter-increment:item} ol.c li::before{content:counter(item) ". "}
.empty::before{content:""} .blk::before{content:"Block before";display:block}
</style>
<label class="req" for="n">Name</label><input id="n">
<p class="pre">generated prefix</p>
<button class="icon">Star</button>
<button class="icon" aria-label="Favourite"></button>
<a href="#n" class="alt">Continue</a>
<span class="attr" data-n="42">Count</span>
<ol class="c"><li>First</li><li>Second</li></ol>
<h2 class="empty">Empty pseudo</h2>
<h3 class="blk">Heading text</h3>`,
    ),
};

/** Names across inline, inline-block and block boundaries, <wbr> and <br>. */
export const inlineBoundaries: Construct = {
  name: 'inline-boundaries',
  covers: '<wbr>, <br>, names across inline/inline-block/block children, whitespace between elements',
  html: () =>
    page(
      'Inline boundaries',
      `<style>.ib{display:inline-block}.b{display:block}.flex{display:flex;gap:4px}</style>
<a href="#1">GET /api/<wbr>pets</a>
<button>one<span>two</span>three</button>
<button>one <span>two</span> three</button>
<button>one<span class="ib">two</span>three</button>
<button>one<span class="b">two</span>three</button>
<a href="#2"><span>Read</span><span>more</span></a>
<a href="#3"><div>Block</div><div>link</div></a>
<h2>Line<br>break heading</h2>
<p>Paragraph with<br>a break and <em>inline</em><strong>boundaries</strong>.</p>
<div class="flex"><span>flex</span><span>items</span></div>
<button class="flex"><span>Flex</span><span>button</span></button>
<p>  spaced   <span> out </span>  words  </p>
<p>non&nbsp;breaking&nbsp;space and soft&shy;hyphen</p>
<p>tab\tand
newline</p>
<pre>pre   kept
  lines</pre>`,
    ),
};
