/** Every page of the real-app corpus, in the order tests and docs/corpus.md list them. */
import {a11yDialog} from './a11yDialog.js';
import {accessibleAutocomplete} from './accessibleAutocomplete.js';
import {ace} from './ace.js';
import {agGrid} from './agGrid.js';
import {bootstrap} from './bootstrap.js';
import {chartjs} from './chartjs.js';
import {choices} from './choices.js';
import {clusterize} from './clusterize.js';
import {codemirror} from './codemirror.js';
import {crossSiteForm} from './crossSiteForm.js';
import {dragula} from './dragula.js';
import {dropzone} from './dropzone.js';
import {elementPlus} from './elementPlus.js';
import {flatpickr} from './flatpickr.js';
import {gridjs} from './gridjs.js';
import {htmlConstructs} from './htmlConstructs.js';
import {ionic} from './ionic.js';
import {jqueryUiSortable} from './jqueryUiSortable.js';
import {materialWeb} from './materialWeb.js';
import {micromodal} from './micromodal.js';
import {monaco} from './monaco.js';
import {prosemirror} from './prosemirror.js';
import {quill} from './quill.js';
import {rapidoc} from './rapidoc.js';
import {redoc} from './redoc.js';
import {select2} from './select2.js';
import {shoelace} from './shoelace.js';
import {sortable} from './sortable.js';
import {swaggerFrame} from './swaggerFrame.js';
import {swaggerUi} from './swaggerUi.js';
import {tabContainer} from './tabContainer.js';
import {tabulator} from './tabulator.js';
import {tinymce} from './tinymce.js';
import {tomSelect} from './tomSelect.js';
import {trix} from './trix.js';
import type {CorpusPage} from './types.js';

export type {CorpusHost, CorpusPackage, CorpusPage, CorpusStep} from './types.js';

export const CORPUS: CorpusPage[] = [
  // Rich-text and code editors
  tinymce,
  quill,
  prosemirror,
  trix,
  codemirror,
  ace,
  monaco,
  // Web-component libraries
  shoelace,
  materialWeb,
  ionic,
  tabContainer,
  // API docs
  swaggerUi,
  rapidoc,
  redoc,
  // Grids and virtualised lists
  agGrid,
  tabulator,
  gridjs,
  clusterize,
  // Date pickers, comboboxes and selects
  flatpickr,
  tomSelect,
  choices,
  elementPlus,
  select2,
  accessibleAutocomplete,
  // Modals and menus
  bootstrap,
  a11yDialog,
  micromodal,
  // Canvas, drag and drop, files, frames, constructs
  chartjs,
  sortable,
  jqueryUiSortable,
  dragula,
  dropzone,
  crossSiteForm,
  swaggerFrame,
  htmlConstructs,
];
