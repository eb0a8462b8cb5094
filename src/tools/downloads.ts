import {formatDownloadList} from '../response/formatDownloads.js';
import {defineTool} from './defineTool.js';

export const listDownloads = defineTool({
  name: 'list_downloads',
  title: 'List downloads',
  description:
    "List the downloads of this browser session: file name, URL, size, state (in progress, completed, canceled, refused) and where the file was saved (over HTTP the session's own folder, else --downloadsDir). Responses of actions that start a download mention it too.",
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
