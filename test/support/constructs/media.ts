import {type Construct, page} from './types.js';

/** A 1x1 GIF, drawn at the size the page asks for. */
const PIXEL = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
const SVG_ICON = '<svg width="16" height="16" aria-hidden="true"><circle cx="8" cy="8" r="6"></circle></svg>';

export const images: Construct = {
  name: 'images',
  covers:
    'img alt / empty alt / no alt / broken with alt, svg with <title>, svg role=img aria-label, figure/figcaption, picture, role=presentation',
  html: () =>
    page(
      'Images',
      `<img src="${PIXEL}" alt="Described pixel" width="20" height="20">
<img src="${PIXEL}" alt="" width="20" height="20">
<img src="${PIXEL}" width="20" height="20">
<img src="/missing.png" alt="Broken image" width="20" height="20">
<svg width="20" height="20"><title>Svg title</title><rect width="10" height="10"></rect></svg>
<svg role="img" aria-label="Labelled svg" width="20" height="20"><rect width="10" height="10"></rect></svg>
<svg width="20" height="20"><rect width="10" height="10"></rect></svg>
<figure><img src="${PIXEL}" alt="Figure image" width="20" height="20"><figcaption>Figure caption</figcaption></figure>
<picture><source srcset="${PIXEL}"><img src="${PIXEL}" alt="Picture img" width="20" height="20"></picture>
<img src="${PIXEL}" alt="Presentational" role="presentation" width="20" height="20">
<img src="${PIXEL}" alt="Tiny" width="1" height="1">
<div role="img" aria-label="Div image"><span>inner</span></div>`,
    ),
};

export const linksWithImages: Construct = {
  name: 'links-with-images',
  covers:
    'links whose content is an image (alt, empty alt), image + text, svg icon + text, aria-label, no href, image map areas',
  html: () =>
    page(
      'Links with images',
      `<a href="/home"><img src="${PIXEL}" alt="Home" width="20" height="20"></a>
<a href="/empty-alt"><img src="${PIXEL}" alt="" width="20" height="20"></a>
<a href="/both"><img src="${PIXEL}" alt="Icon" width="20" height="20"> and text</a>
<a href="/svg">${SVG_ICON} Settings</a>
<a href="/label" aria-label="Labelled link"><img src="${PIXEL}" alt="ignored alt" width="20" height="20"></a>
<a>Anchor without href</a>
<a href="/titled" title="Title of link"><img src="${PIXEL}" width="20" height="20"></a>
<img src="${PIXEL}" usemap="#m" alt="Map" width="40" height="40"><map name="m"><area shape="rect" coords="0,0,20,20" href="/area" alt="Area one"></map>
<button>${SVG_ICON}</button><button>${SVG_ICON} Icon button</button>`,
    ),
};
