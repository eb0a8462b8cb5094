/**
 * The operator's switches and the file sandbox as send_cdp_command's policy
 * (browser/rawCdp) applies them: raw commands that do what a tool does obey
 * the same flags and roots as that tool.
 */
import type {RawCategory, RawSwitches} from '../browser/rawCdp/send.js';
import type {Config} from '../config/options.js';
import type {ToolFiles} from './context.js';
import {pathForChrome} from './readPath.js';
import {checkNavigationUrl} from './urlChecks.js';

/** Each category the policy knows, with the flag that turns it on. */
const CATEGORY_FLAGS: Record<RawCategory, keyof Config> = {
  input: 'categoryInput',
  navigation: 'categoryNavigation',
  emulation: 'categoryEmulation',
  performance: 'categoryPerformance',
  network: 'categoryNetwork',
  memory: 'categoryMemory',
  extensions: 'categoryExtensions',
  pwa: 'categoryPwa',
  webmcp: 'categoryExperimentalWebmcp',
};

export function rawSwitches(
  config: Config,
  files: ToolFiles,
  urlAllowed: (url: string) => Promise<boolean>,
): RawSwitches {
  const categories = new Set(
    (Object.entries(CATEGORY_FLAGS) as Array<[RawCategory, keyof Config]>)
      .filter(([, flag]) => config[flag] === true)
      .map(([category]) => category),
  );
  return {
    javascriptEvaluation: config.javascriptEvaluation,
    fileNavigations: config.fileNavigations,
    acceptInsecureCerts: config.acceptInsecureCerts === true,
    redactNetworkHeaders: config.redactNetworkHeaders === true,
    categories,
    checkNavigation: url => checkNavigationUrl(url, config),
    checkReadPath: path => pathForChrome(files, config, path),
    urlAllowed,
  };
}
