import {type Construct, page} from './types.js';

export const hiddenContent: Construct = {
  name: 'hidden-content',
  covers:
    'aria-hidden (true, false, on focusable), inert, visibility hidden with visible child, display none, hidden, hidden=until-found, content-visibility, opacity 0, visually hidden text',
  html: () =>
    page(
      'Hidden content',
      `<style>.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}</style>
<div aria-hidden="true"><p>Aria hidden text</p><button>Aria hidden button</button></div>
<div aria-hidden="false"><p>Aria hidden false</p></div>
<div inert><p>Inert text</p><button>Inert button</button></div>
<div style="visibility:hidden"><p>Invisible</p><span style="visibility:visible">Visible child</span></div>
<div style="display:none"><button>Display none button</button></div>
<div hidden>Hidden attribute</div>
<div hidden="until-found">Until found text</div>
<div style="content-visibility:hidden"><p>Content hidden</p></div>
<div style="opacity:0"><button>Transparent button</button></div>
<button>Save <span class="sr">the document</span></button>
<span class="sr">Screen reader only</span>
<div style="width:0;height:0;overflow:hidden"><a href="#z">Zero size link</a></div>
<button onclick="document.getElementById('later').hidden = false; this.closest('body').querySelector('[inert]').inert = false">Reveal</button>
<p id="later" hidden>Revealed later</p>`,
    ),
  steps: [{title: 'reveal hidden content and un-inert', tool: 'click', target: {role: 'button', name: 'Reveal'}}],
};
