import type {CorpusPage} from './types.js';

/**
 * A page embedding another local site (localhost vs 127.0.0.1: cross-site,
 * so Chrome runs it out of process) whose Bootstrap form is taller than the
 * frame: its submit button starts below the frame's first screen, and the
 * frame itself starts near the bottom of the top page's first screen.
 */
export const crossSiteForm: CorpusPage = {
  id: 'cross-site-form',
  title: 'Checkout in a cross-site iframe',
  packages: [{name: 'bootstrap', version: '5.3.8', license: 'MIT'}],
  constructs: [
    'cross-site, out-of-process iframe',
    "form control below the iframe's first screen",
    "iframe below the top page's first screen",
    'postMessage to the embedding page',
  ],
  html: host => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<link rel="stylesheet" href="/node_modules/bootstrap/dist/css/bootstrap.min.css"></head><body class="p-3">
<h1>Your basket</h1>
<p style="height: 560px">Two items, 42 EUR. Payment is handled by our partner below.</p>
<iframe title="Payment" src="${host.crossSiteUrl('/corpus/cross-site-form/pay')}" style="width: 600px; height: 300px; border: 1px solid #888"></iframe>
<script>addEventListener('message', e => { if (e.origin.startsWith('http://localhost:')) window.paid = e.data; });</script>
</body></html>`,
  routes: () => ({
    '/corpus/cross-site-form/pay': {
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pay</title>
<link rel="stylesheet" href="/node_modules/bootstrap/dist/css/bootstrap.min.css"></head><body class="p-3">
<h2>Card details</h2>
<form id="pay" class="needs-validation" novalidate>
  <div class="mb-3"><label for="name" class="form-label">Name on card</label><input id="name" class="form-control" required></div>
  <div class="mb-3"><label for="card" class="form-label">Card number</label><input id="card" class="form-control" inputmode="numeric" required></div>
  <div class="mb-3 form-check"><input id="save" type="checkbox" class="form-check-input"><label for="save" class="form-check-label">Remember this card</label></div>
  <p style="height: 500px">By paying you accept the terms.</p>
  <button id="submit" class="btn btn-primary" type="submit">Pay 42 EUR</button>
</form>
<script>
document.getElementById('pay').addEventListener('submit', e => {
  e.preventDefault();
  const form = e.target;
  form.classList.add('was-validated');
  if (!form.checkValidity()) return;
  document.body.insertAdjacentHTML('beforeend', '<p role="status">Payment accepted</p>');
  parent.postMessage({name: form.name.value, card: form.card.value, save: form.save.checked}, '*');
});
</script></body></html>`,
    },
  }),
  ready: `document.readyState === 'complete'`,
  steps: [
    {
      label: 'fill the name in the cross-site frame',
      tool: 'fill',
      target: /textbox "Name on card"/,
      value: 'Ada Lovelace',
    },
    {label: 'click the card number field', tool: 'click', target: /textbox "Card number"/},
    {label: 'type the card number', tool: 'type_text', text: '4242424242424242'},
    {label: 'tick a checkbox in the frame', tool: 'click', target: /checkbox "Remember this card"/},
    {
      label: "submit with the button below the frame's first screen",
      tool: 'click',
      target: /button "Pay 42 EUR"/,
      until: `!!window.paid`,
    },
  ],
  task: {
    description: "Pay in the embedded cross-site form (the Pay button starts below the frame's first screen)",
    check: `() => window.paid`,
    expect: {name: 'Ada Lovelace', card: '4242424242424242', save: true},
  },
};
