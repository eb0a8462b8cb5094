import type {CorpusPage} from './types.js';

/**
 * Dropzone: a drop area whose click opens a file chooser for a hidden file
 * input it appends to the body; the agent puts a file in with upload_file on
 * the area (the chooser is intercepted, no native dialog).
 */
export const dropzone: CorpusPage = {
  id: 'dropzone',
  title: 'Dropzone file upload',
  packages: [{name: 'dropzone', version: '6.3.5', license: 'MIT'}],
  constructs: [
    'file chooser opened by clicking a drop area',
    'hidden file input appended to the body',
    'file previews added after the upload',
  ],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dropzone</title>
<link rel="stylesheet" href="/node_modules/dropzone/dist/dropzone.css">
<script src="/node_modules/dropzone/dist/dropzone-min.js"></script></head><body>
<h1>Attachments</h1>
<form action="/corpus/dropzone/upload" class="dropzone" id="attachments"></form>
<script>
Dropzone.autoDiscover = false;
window.dz = new Dropzone('#attachments', {url: '/corpus/dropzone/upload', autoProcessQueue: false, createImageThumbnails: false});
</script></body></html>`,
  ready: `!!window.dz && !!document.querySelector('.dz-button')`,
  steps: [
    {
      label: 'upload a file through the drop area',
      tool: 'upload_file',
      target: /button "Drop files here to upload"/,
      name: 'meeting-notes.txt',
      until: `dz.files.length === 1 && !!document.querySelector('.dz-preview .dz-filename')`,
    },
  ],
  task: {
    description: 'Attach meeting-notes.txt',
    check: `() => dz.files.map(f => [f.name, f.status])`,
    expect: [['meeting-notes.txt', 'queued']],
  },
};
