import type {CorpusPage} from './types.js';

/** flatpickr: a date picker popup whose days are spans with aria-labels. */
export const flatpickr: CorpusPage = {
  id: 'flatpickr',
  title: 'flatpickr date picker',
  packages: [{name: 'flatpickr', version: '4.6.13', license: 'MIT'}],
  constructs: [
    'date picker popup',
    'day cells named by aria-label',
    'month navigation with SVG arrows',
    'readonly input',
  ],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>flatpickr</title>
<link rel="stylesheet" href="/node_modules/flatpickr/dist/flatpickr.min.css">
<script src="/node_modules/flatpickr/dist/flatpickr.min.js"></script></head><body>
<h1>Book a room</h1>
<label for="checkin">Check-in date</label> <input id="checkin" placeholder="Pick a date">
<script>
window.picker = flatpickr('#checkin', {defaultDate: '2024-06-03', dateFormat: 'Y-m-d', disableMobile: true});
</script></body></html>`,
  ready: `!!window.picker?.calendarContainer`,
  steps: [
    {label: 'open the calendar', tool: 'click', target: /textbox "Check-in date"/, until: `picker.isOpen`},
    {
      label: 'choose the next month',
      tool: 'fill',
      target: /combobox "Month"/,
      value: 'July',
      until: `picker.currentMonth === 6`,
    },
    {
      label: 'pick a day',
      tool: 'click',
      target: /"July 18, 2024"/,
      until: `picker.selectedDates.length === 1 && !picker.isOpen`,
    },
  ],
  task: {
    description: 'Pick 18 July 2024 as the check-in date',
    check: `() => ({input: document.getElementById('checkin').value, picked: picker.formatDate(picker.selectedDates[0], 'Y-m-d')})`,
    expect: {input: '2024-07-18', picked: '2024-07-18'},
  },
};
