import type {CorpusPage} from './types.js';

/** Cities the fake API knows, by search term (the route answers every term with this list). */
const CITIES = JSON.stringify({
  results: [
    {id: 'kyoto', text: 'Kyoto'},
    {id: 'kyiv', text: 'Kyiv'},
    {id: 'kyrenia', text: 'Kyrenia'},
  ],
});

/**
 * Select2 (jQuery): a combobox whose dropdown and search field are appended
 * to the end of the body (outside the control) and whose options come from a
 * remote API as the agent types.
 */
export const select2: CorpusPage = {
  id: 'select2',
  title: 'Select2 with remote data',
  packages: [
    {name: 'select2', version: '4.1.0', license: 'MIT'},
    {name: 'jquery', version: '3.7.1', license: 'MIT'},
  ],
  constructs: [
    'dropdown and search field appended to the body (portal)',
    'options loaded from a remote API while typing',
    'hidden original <select> kept in sync',
  ],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Select2</title>
<link rel="stylesheet" href="/node_modules/select2/dist/css/select2.min.css">
<script src="/node_modules/jquery/dist/jquery.min.js"></script>
<script src="/node_modules/select2/dist/js/select2.min.js"></script></head><body>
<h1>New office</h1>
<p><label for="city">Office city</label> <select id="city" style="width: 300px"></select></p>
<script>
$('#city').select2({
  placeholder: 'Search a city',
  minimumInputLength: 2,
  ajax: {url: '/corpus/select2/cities', dataType: 'json', delay: 0},
});
$('#city').on('select2:select', e => { window.chosen = e.params.data.id; });
</script></body></html>`,
  routes: () => ({'/corpus/select2/cities': {body: CITIES, contentType: 'application/json'}}),
  ready: `!!$('#city').data('select2')`,
  steps: [
    {
      label: 'open the combobox',
      tool: 'click',
      target: /combobox "Office city"|combobox .*Search a city/,
      until: `!!document.querySelector('.select2-container--open .select2-search__field')`,
    },
    {
      label: 'type a search the API answers',
      tool: 'type_text',
      text: 'Ky',
      until: `document.querySelectorAll('.select2-results__option[role=option]').length === 3`,
    },
    {
      label: 'pick a remote result in the dropdown',
      tool: 'click',
      target: /option "Kyoto"/,
      verbose: true,
      until: `window.chosen === 'kyoto'`,
    },
  ],
  task: {
    description: 'Choose Kyoto as the office city from the remote search',
    check: `() => [$('#city').val(), window.chosen, $('#city').select2('data').map(d => d.text)]`,
    expect: ['kyoto', 'kyoto', ['Kyoto']],
  },
};
