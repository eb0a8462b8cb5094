/**
 * Tool categories and the gates that decide whether a tool is offered: its
 * category's flag, the flags its conditions name, and the mode (the slim set
 * or the full one). A tool that is off is not listed; called anyway (a stale
 * client, the CLI) it answers with the flag that turns it on.
 */
import type {CategoryFlag} from '../config/categoryFlags.js';
import type {Config} from '../config/options.js';

/** Categories, as chrome-devtools-mcp names them. */
export type ToolCategory =
  | 'input'
  | 'navigation'
  | 'emulation'
  | 'performance'
  | 'network'
  | 'debugging'
  | 'memory'
  | 'extensions'
  | 'experimentalThirdParty'
  | 'experimentalWebmcp'
  | 'pwa';

/** Each category's label (used in messages and docs) and the flag that turns it on or off. */
export const CATEGORIES: Record<ToolCategory, {label: string; flag: CategoryFlag}> = {
  input: {label: 'Input automation', flag: 'categoryInput'},
  navigation: {label: 'Navigation automation', flag: 'categoryNavigation'},
  emulation: {label: 'Emulation', flag: 'categoryEmulation'},
  performance: {label: 'Performance', flag: 'categoryPerformance'},
  network: {label: 'Network', flag: 'categoryNetwork'},
  debugging: {label: 'Debugging', flag: 'categoryDebugging'},
  memory: {label: 'Memory', flag: 'categoryMemory'},
  extensions: {label: 'Extensions', flag: 'categoryExtensions'},
  experimentalThirdParty: {label: 'Third-party', flag: 'categoryExperimentalThirdParty'},
  experimentalWebmcp: {label: 'WebMCP', flag: 'categoryExperimentalWebmcp'},
  pwa: {label: 'Progressive Web Apps', flag: 'categoryPwa'},
};

/** A flag a tool needs on besides its category's (annotations.conditions): any on/off flag. */
export type ToolCondition = {[K in keyof Config]-?: Config[K] extends boolean ? K : never}[keyof Config];

/** What gating looks at. */
export interface Gated {
  name: string;
  annotations: {category: ToolCategory; conditions?: readonly ToolCondition[]};
  /** In the `--slim` set (only there); other tools are only in the full set. */
  slim?: boolean;
}

/** How to turn a flag on, for the server or for the CLI's background server. */
function enableHint(flag: string, config: Config): string {
  return config.viaCli
    ? `Enable it by running cdp-mcp start --${flag}=true.`
    : `Restart the server with --${flag}=true to enable it.`;
}

/** Why the operator's --disabledTools / --enabledTools turn the tool off; undefined when they do not. */
function operatorListReason(name: string, config: Config): string | undefined {
  const restart = config.viaCli ? 'Run cdp-mcp stop, then cdp-mcp start' : 'Restart the server';
  if (config.disabledTools.includes(name)) {
    return `Tool ${name} is not enabled: it is turned off by --disabledTools. ${restart} without ${name} in --disabledTools to enable it.`;
  }
  if (config.enabledTools.length > 0 && !config.enabledTools.includes(name)) {
    return `Tool ${name} is not enabled: it is not in --enabledTools. ${restart} with ${name} added to --enabledTools to enable it.`;
  }
  return undefined;
}

/** Why the tool is off, with the flag that turns it on; undefined when it is on. */
export function toolDisabledReason(tool: Gated, config: Config): string | undefined {
  if (Boolean(tool.slim) !== config.slim) {
    return tool.slim
      ? `Tool ${tool.name} is only available with --slim.`
      : `Tool ${tool.name} is not available with --slim.`;
  }
  const listed = operatorListReason(tool.name, config);
  if (listed) {
    return listed;
  }
  const {label, flag} = CATEGORIES[tool.annotations.category];
  if (!config[flag]) {
    return `Tool ${tool.name} is in category ${label} which is currently disabled. ${enableHint(flag, config)}`;
  }
  for (const condition of tool.annotations.conditions ?? []) {
    if (!config[condition]) {
      const kind = condition.startsWith('experimental') ? 'experimental feature' : 'flag';
      return `Tool ${tool.name} requires ${kind} --${condition} and is currently disabled. ${enableHint(condition, config)}`;
    }
  }
  return undefined;
}

/** The flags that must be on for a tool, as docs show them (`--categoryPwa`, `--experimentalVision`). */
export function gatingFlags(tool: Gated, defaults: Config): string[] {
  const flags: string[] = [];
  if (tool.slim) {
    flags.push('--slim');
  }
  const {flag} = CATEGORIES[tool.annotations.category];
  if (!defaults[flag]) {
    flags.push(`--${flag}`);
  }
  for (const condition of tool.annotations.conditions ?? []) {
    if (!defaults[condition]) {
      flags.push(`--${condition}`);
    }
  }
  return flags;
}
