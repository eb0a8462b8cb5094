/** The console facet of a page handle: browser/console's collector, symbolized through source maps. */
import type {ConsoleEntry, IssueEntry} from '../../browser/console/ConsoleCollector.js';
import {
  type DetailContext,
  entryArguments,
  entryStack,
  issueAffectedLines,
} from '../../browser/console/consoleDetails.js';
import type {Page} from '../../browser/core/Page.js';
import type {Config} from '../../config/options.js';
import type {ToolConsole, ToolFiles} from '../context.js';

export function pageConsole(page: Page, files: ToolFiles, config: Config): ToolConsole {
  const collector = () => page.instrumentation.console;
  // Stacks and arguments are symbolized through the page's source maps,
  // fetched within the URL policy and the file sandbox.
  const details = (): DetailContext => ({
    sourceMaps: page.instrumentation.sourceMaps,
    access: {
      policy: page.urlPolicy,
      files,
      session: page.session,
      frameId: page.mainFrameId,
      useMaps: config.sourceMaps,
    },
  });
  return {
    list: includePreserved => collector().list(includePreserved),
    find: id => collector().findById(id),
    stack: (entry: ConsoleEntry) => entryStack(entry, details()),
    arguments: async (entry: ConsoleEntry) => (entry.kind === 'console' ? entryArguments(entry, details()) : []),
    issueOccurrences: (entry: IssueEntry) =>
      issueAffectedLines(
        entry,
        page.instrumentation.network,
        page.elements?.uidForBackendNodeId?.bind(page.elements),
        config.redactNetworkHeaders,
      ),
  };
}
