import type {CorpusPage} from './types.js';

/**
 * jQuery UI's sortable: items swap while the pointer moves over the list (a
 * placeholder takes the dragged item's place, the others reflow). Issue 21:
 * a drag onto an item must leave the dragged item at that item's place;
 * chrome-devtools-mcp moves again to the target's new centre before it
 * drops, which puts the item back where it was.
 */
export const jqueryUiSortable: CorpusPage = {
  id: 'jquery-ui-sortable',
  title: 'jQuery UI sortable backlog',
  packages: [
    {name: 'jquery-ui', version: '1.14.2', license: 'MIT'},
    {name: 'jquery', version: '3.7.1', license: 'MIT'},
  ],
  constructs: [
    'list that reflows during a mouse drag (placeholder, helper)',
    'mouse-event drag (no HTML5 drag and drop)',
  ],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Backlog</title>
<script src="/node_modules/jquery/dist/jquery.min.js"></script>
<script src="/node_modules/jquery-ui/dist/jquery-ui.min.js"></script>
<style>#backlog { list-style: none; padding: 0; width: 280px; } #backlog li { margin: 4px; padding: 10px; border: 1px solid #888; background: #eee; }</style>
</head><body>
<h1>Backlog</h1>
<ul id="backlog" aria-label="Backlog">
<li id="triage">Triage bugs</li><li id="docs">Write docs</li><li id="review">Review pull requests</li><li id="plan">Plan the sprint</li><li id="release">Release</li>
</ul>
<script>$('#backlog').sortable({update: () => { window.updates = (window.updates || 0) + 1; }});</script>
</body></html>`,
  ready: `!!$('#backlog').sortable('instance')`,
  steps: [
    {
      label: 'drag an item down onto another',
      tool: 'drag',
      target: /listitem "Triage bugs"|"Triage bugs"/,
      to: /listitem "Review pull requests"|"Review pull requests"/,
      until: `window.updates === 1`,
      referenceInstead: {
        reason: "issue 21: it drops at the target's new centre, so the list puts the item back",
        step: {
          label: 'move the item as the drag does',
          tool: 'evaluate_script',
          function: `() => { $('#triage').insertAfter('#review'); $('#backlog').sortable('refresh'); window.updates = 1; return true; }`,
        },
      },
    },
    {
      label: 'drag an item up onto another',
      tool: 'drag',
      target: /listitem "Release"|"Release"/,
      to: /listitem "Write docs"|"Write docs"/,
      until: `window.updates === 2`,
      referenceInstead: {
        reason: "issue 21: it drops at the target's new centre, so the list puts the item back",
        step: {
          label: 'move the item as the drag does',
          tool: 'evaluate_script',
          function: `() => { $('#release').insertBefore('#docs'); $('#backlog').sortable('refresh'); window.updates = 2; return true; }`,
        },
      },
    },
  ],
  task: {
    description: 'Move "Triage bugs" down to "Review pull requests", then "Release" up to "Write docs"',
    check: `() => $('#backlog').sortable('toArray')`,
    expect: ['release', 'docs', 'review', 'triage', 'plan'],
  },
};
