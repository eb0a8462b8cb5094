/**
 * The flags that turn tool categories on and off, one per category, named
 * as chrome-devtools-mcp names them (`category` + the category's id). The
 * categories themselves (labels, which tools) are in src/tools/categories.ts.
 */
import {defineFlags} from './flagSpec.js';

/** Category flags, in the reference's order. Seven are on by default, four off. */
export const CATEGORY_FLAG_TABLE = defineFlags({
  categoryInput: {
    type: 'boolean',
    group: 'categories',
    default: true,
    description: 'Input tools (`click`, `fill`, `type_text`, `press_key`, …); `=false` removes them.',
  },
  categoryNavigation: {
    type: 'boolean',
    group: 'categories',
    default: true,
    description: 'Navigation tools (`list_pages`, `new_page`, `navigate_page`, `wait_for`, …); `=false` removes them.',
  },
  categoryEmulation: {
    type: 'boolean',
    group: 'categories',
    default: true,
    description: 'Emulation tools (`emulate`, `resize_page`); `=false` removes them.',
  },
  categoryPerformance: {
    type: 'boolean',
    group: 'categories',
    default: true,
    description: 'Performance tools; `=false` removes them.',
  },
  categoryNetwork: {
    type: 'boolean',
    group: 'categories',
    default: true,
    description: 'Network tools (`list_network_requests`, `get_network_request`); `=false` removes them.',
  },
  categoryDebugging: {
    type: 'boolean',
    group: 'categories',
    default: true,
    description:
      'Debugging tools (`evaluate_script`, `take_snapshot`, `take_screenshot`, console messages, …); `=false` removes them.',
  },
  categoryMemory: {
    type: 'boolean',
    group: 'categories',
    default: true,
    description:
      'Memory tools (`take_heapsnapshot`; the heap analysis tools also need `--memoryDebugging`); `=false` removes them.',
  },
  categoryExtensions: {
    type: 'boolean',
    group: 'categories',
    description:
      'Extension tools (`install_extension`, `list_extensions`, `reload_extension`, `trigger_extension_action`, `uninstall_extension`). The launched Chrome then allows extensions, and page lists also show extension pages and service workers.',
  },
  categoryPwa: {
    type: 'boolean',
    group: 'categories',
    description:
      'Progressive Web App tools (`install_pwa`, `launch_pwa`, `get_os_app_state`, `uninstall_pwa`). Chrome only offers them over a pipe connection, so only with a Chrome this server launches.',
  },
  categoryExperimentalWebmcp: {
    type: 'boolean',
    group: 'categories',
    description:
      'WebMCP tools the page registers (`list_webmcp_tools`, `execute_webmcp_tool`). Needs Chrome 150+; the launched Chrome gets `--enable-features=WebMCP`.',
  },
  categoryExperimentalThirdParty: {
    type: 'boolean',
    group: 'categories',
    description:
      'Developer tools the page itself offers (its `devtoolstooldiscovery` listener and WebMCP tools marked for debugging): `list_3p_developer_tools`, `execute_3p_developer_tool`.',
  },
});

/** The name of a category flag. */
export type CategoryFlag = keyof typeof CATEGORY_FLAG_TABLE;
