import type {CorpusPage} from './types.js';

/**
 * The tap's ripple is gone. Ionic draws a ripple (a div in a shadow root) on
 * a pressed button or item and removes it 525 ms later at the earliest; a
 * snapshot shows it or not by timing alone, so a step is over once it is gone.
 */
const NO_RIPPLE = `!(function has(root) { return [...root.querySelectorAll('*')].some(e => e.classList.contains('ripple-effect') || (!!e.shadowRoot && has(e.shadowRoot))); })(document)`;

/** Ionic (Stencil components, Material mode): accordions, toggles, inputs, uppercase buttons. */
export const ionic: CorpusPage = {
  id: 'ionic',
  title: 'Ionic app shell',
  packages: [{name: '@ionic/core', version: '8.8.19', license: 'MIT'}],
  constructs: [
    'Stencil web components with shadow roots',
    'accordion disclosure',
    'toggle (switch) and input inside shadow roots',
    'text-transform: uppercase on buttons (md mode)',
    'scrolling ion-content',
  ],
  html: () => `<!doctype html><html lang="en" mode="md"><head><meta charset="utf-8"><title>Ionic</title>
<link rel="stylesheet" href="/node_modules/@ionic/core/css/ionic.bundle.css">
<script type="module" src="/node_modules/@ionic/core/dist/ionic/ionic.esm.js"></script></head><body>
<ion-app>
  <ion-header><ion-toolbar><ion-title>Settings</ion-title></ion-toolbar></ion-header>
  <ion-content class="ion-padding">
    <ion-list>
      <ion-item><ion-input label="Nickname" value="ada"></ion-input></ion-item>
      <ion-item><ion-toggle id="wifi">Wi-Fi</ion-toggle></ion-item>
    </ion-list>
    <ion-accordion-group>
      <ion-accordion value="about">
        <ion-item slot="header"><ion-label>About this device</ion-label></ion-item>
        <div slot="content" class="ion-padding">Model: Pixel test unit</div>
      </ion-accordion>
    </ion-accordion-group>
    <ion-button id="apply">Apply changes</ion-button>
  </ion-content>
</ion-app>
<script>
document.getElementById('apply').addEventListener('click', () => {
  window.applied = {
    nickname: document.querySelector('ion-input').value,
    wifi: document.getElementById('wifi').checked,
    about: document.querySelector('ion-accordion-group').value,
  };
});
</script></body></html>`,
  // Stencil hides every Ionic element (and so its subtree) until it has the class
  // hydrated; ion-app hydrates last, so a count of hydrated elements is not enough.
  ready: `document.querySelectorAll(':not(:defined)').length === 0 && [...document.querySelectorAll('*')].every(e => !e.localName.startsWith('ion-') || e.classList.contains('hydrated')) && !!document.querySelector('ion-input input') && !!document.querySelector('ion-toggle')?.shadowRoot`,
  steps: [
    {label: 'fill the input', tool: 'fill', target: /textbox "Nickname"/, value: 'countess', until: NO_RIPPLE},
    {
      label: 'switch Wi-Fi on',
      tool: 'click',
      target: /switch "Wi-Fi"/,
      until: `document.getElementById('wifi').checked && ${NO_RIPPLE}`,
    },
    {
      label: 'expand the accordion',
      tool: 'click',
      target: /button "About this device"/,
      until: `document.querySelector('ion-accordion-group').value === 'about' && document.querySelector('ion-accordion').classList.contains('accordion-expanded') && ${NO_RIPPLE}`,
    },
    {label: 'apply', tool: 'click', target: /button "Apply changes"/i, until: `!!window.applied && ${NO_RIPPLE}`},
  ],
  task: {
    description: 'Change the nickname, turn Wi-Fi on, expand "About this device" and apply',
    check: `() => window.applied`,
    expect: {nickname: 'countess', wifi: true, about: 'about'},
  },
};
