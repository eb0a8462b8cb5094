import type {FixtureServer} from '../fixtureServer.js';
import {ariaOwns, canvas, displayContents, iframes, shadowRoots} from './embedding.js';
import {contentEditable, selects} from './forms.js';
import {images, linksWithImages} from './media.js';
import {descriptions, labels} from './naming.js';
import {pointerTargets} from './pointer.js';
import {headings, landmarks, lists, tables} from './structure.js';
import {generatedContent, inlineBoundaries, textTransform} from './text.js';
import type {Construct, ConstructHosts} from './types.js';
import {hiddenContent} from './visibility.js';
import {customElements, walkedElements, whitespace} from './walk.js';
import {comboboxes, details, dialogs, liveRegions, rangeWidgets, toggleButtons} from './widgets.js';

export type {Construct, ConstructHosts, ConstructStep} from './types.js';

/** Every construct page, in a fixed order. */
export const CONSTRUCTS: readonly Construct[] = [
  textTransform,
  generatedContent,
  inlineBoundaries,
  descriptions,
  labels,
  tables,
  lists,
  landmarks,
  headings,
  details,
  dialogs,
  toggleButtons,
  liveRegions,
  comboboxes,
  rangeWidgets,
  selects,
  contentEditable,
  shadowRoots,
  iframes,
  canvas,
  ariaOwns,
  displayContents,
  images,
  linksWithImages,
  hiddenContent,
  whitespace,
  walkedElements,
  customElements,
  pointerTargets,
];

/** The hosts a fixture server answers as: itself (127.0.0.1) and another site (localhost). */
export function constructHosts(fixtures: FixtureServer): ConstructHosts {
  return {origin: fixtures.url('').replace(/\/$/, ''), crossOrigin: `http://localhost:${fixtures.port}`};
}

/** Serves every construct page (and the documents they embed) at /constructs/<name>; returns the hosts. */
export function serveConstructs(fixtures: FixtureServer): ConstructHosts {
  const hosts = constructHosts(fixtures);
  for (const construct of CONSTRUCTS) {
    fixtures.html(`/constructs/${construct.name}`, construct.html(hosts));
    for (const [path, html] of Object.entries(construct.routes?.(hosts) ?? {})) {
      fixtures.html(path, html);
    }
  }
  return hosts;
}

/** URL of a construct page on a fixture server. */
export function constructUrl(fixtures: FixtureServer, construct: Construct): string {
  return fixtures.url(`/constructs/${construct.name}`);
}
