/** The input tools' opt-in effect line (issue 22): its parameter, and running an action between two snapshots. */
import * as v from 'valibot';

import type {ResponseBuilder} from '../response/ResponseBuilder.js';
import type {ToolPage} from './context.js';

/**
 * The opt-in `effect` parameter (issue 22): one line saying what the action
 * did, the same for every input tool but for the action's name.
 */
export function effectEntry(action: string) {
  return {
    effect: v.optional(
      v.pipe(
        v.boolean(),
        v.description(
          `Answer with one line of what the ${action} changed (navigation, new page, dialog, focus, values, nodes, or nothing) instead of the success line.`,
        ),
      ),
    ),
  };
}

/** What an action settled into, as the effect line reads it. */
export type Settled = Parameters<Awaited<ReturnType<ToolPage['observeEffect']>>>[0];

/**
 * Runs `action`; with `effect`, between a snapshot before it and one after
 * it settled, and adds the `Effect: …` line after what `reply` writes.
 * `reply` writes its success line through `done`: with `effect` the effect
 * line stands for it (the action happened, or it would have thrown), so an
 * agent that asked for effects reads one line per action.
 */
export async function withEffect<T extends Settled>(
  page: ToolPage,
  {effect, acted = []}: {effect: boolean | undefined; acted?: readonly string[]},
  response: ResponseBuilder,
  action: () => Promise<T>,
  reply: (settle: T, done: (line: string) => void) => void,
): Promise<void> {
  const observe = effect ? await page.observeEffect(acted) : undefined;
  const settle = await action();
  reply(settle, observe ? () => undefined : line => response.line(line));
  if (observe) {
    // It names what changed on the page (values, nodes, a dialog's message).
    response.pageLine(await observe(settle));
  }
}

/** Several actions' settling as one: the last navigation and open dialog, every answered dialog. */
export function mergeSettled(all: readonly Settled[]): Settled {
  const merged: Settled = {};
  for (const settle of all) {
    merged.navigatedToUrl = settle.navigatedToUrl ?? merged.navigatedToUrl;
    merged.dialog = settle.dialog ?? merged.dialog;
    if (settle.handledDialogs?.length) {
      merged.handledDialogs = [...(merged.handledDialogs ?? []), ...settle.handledDialogs];
    }
  }
  return merged;
}
