import {formatDownloadList} from '../response/formatDownloads.js';
import {defineTool} from './defineTool.js';

export const listDownloads = defineTool({
  name: 'list_downloads',
  title: 'List downloads',
  description: "This session's downloads: file, URL, size, state and saved path.",
  annotations: {category: 'input', readOnlyHint: true},
  beyondReference: true,
  // Reads the download records the server keeps, so a stuck page cannot hold it back.
  lane: {kind: 'free', why: 'reads the download records, which no call holds'},
  sections: ['downloads'],
  schema: {},
  async handler(_request, response, {browser, config}) {
    response.section(
      'downloads',
      formatDownloadList([...browser.downloads()], browser.downloadsFolder() ?? config.downloadsDir),
    );
  },
});
