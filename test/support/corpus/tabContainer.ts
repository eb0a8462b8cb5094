import type {CorpusPage} from './types.js';

/**
 * GitHub's <tab-container>: a custom element that gives its light-DOM
 * buttons the tab pattern (a tablist in its shadow root, roving tabindex,
 * arrow keys). The agent gets to the billing tab with the keyboard only.
 */
export const tabContainer: CorpusPage = {
  id: 'tab-container',
  title: 'GitHub tab-container element',
  packages: [{name: '@github/tab-container-element', version: '4.9.0', license: 'MIT'}],
  constructs: [
    'custom element with its own semantics (tablist in a shadow root, slotted tabs)',
    'keyboard-only flow (Tab, arrow keys, roving tabindex)',
    'hidden tab panels',
  ],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Settings</title>
<script type="module" src="/node_modules/@github/tab-container-element/dist/index.js"></script></head><body>
<tab-container>
  <button type="button" id="tab-profile" role="tab" aria-selected="true">Profile</button>
  <button type="button" id="tab-security" role="tab" tabindex="-1">Security</button>
  <button type="button" id="tab-billing" role="tab" tabindex="-1">Billing</button>
  <div role="tabpanel" aria-labelledby="tab-profile"><p>Your public profile.</p></div>
  <div role="tabpanel" aria-labelledby="tab-security" hidden><p>Two-factor authentication is on.</p></div>
  <div role="tabpanel" aria-labelledby="tab-billing" hidden><p>Plan: Team, billed monthly.</p></div>
</tab-container>
</body></html>`,
  ready: `customElements.get('tab-container') !== undefined && !!document.querySelector('tab-container').shadowRoot`,
  steps: [
    {
      label: 'tab into the tab list',
      tool: 'press_key',
      key: 'Tab',
      until: `document.activeElement.id === 'tab-profile'`,
    },
    {
      label: 'next tab with the arrow key',
      tool: 'press_key',
      key: 'ArrowRight',
      until: `document.getElementById('tab-security').getAttribute('aria-selected') === 'true'`,
    },
    {
      label: 'last tab with End',
      tool: 'press_key',
      key: 'End',
      until: `document.getElementById('tab-billing').getAttribute('aria-selected') === 'true'`,
    },
  ],
  task: {
    description: 'Open the Billing tab with the keyboard only',
    check: `() => [document.querySelector('[role=tab][aria-selected=true]').id, document.activeElement.id, [...document.querySelectorAll('[role=tabpanel]')].filter(p => p.checkVisibility()).map(p => p.textContent.trim())]`,
    expect: ['tab-billing', 'tab-billing', ['Plan: Team, billed monthly.']],
  },
};
