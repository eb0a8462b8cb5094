import type {Page} from '../core/Page.js';
import {runNavigation} from '../core/settle.js';
import {applySessionEmulation, applyViewport, type EmulationState} from './emulationState.js';

/**
 * Makes `next` the page's whole emulation state: every session of the page
 * gets it (what is absent is cleared), then the viewport, reloading the page
 * when touch or mobile emulation changed (they only apply to new documents).
 */
export async function emulatePage(page: Page, next: EmulationState): Promise<void> {
  const previousViewport = page.emulation.viewport;
  for (const key of Object.keys(page.emulation) as Array<keyof EmulationState>) {
    delete page.emulation[key];
  }
  Object.assign(page.emulation, next);
  await Promise.all(
    page.instrumentation
      .sessions()
      .map(({session, kind}) =>
        kind === 'page'
          ? applySessionEmulation(session, kind, next, page.urlPolicy, true)
          : applySessionEmulation(session, kind, next, page.urlPolicy, true).catch(() => undefined),
      ),
  );
  const reload = await applyViewport(page.session, next.viewport, previousViewport);
  if (reload && !page.url.startsWith('about:')) {
    await runNavigation(page, () => page.session.send('Page.reload', {}), {navigationMustFinish: false});
  }
}

/**
 * Applies the page's own emulation again after another client (Lighthouse,
 * on a session of its own) overrode it and then went away. Chrome drops that
 * client's overrides without restoring ours, and skips an override it thinks
 * is already in place, so every setting is cleared first, then set.
 */
export async function reapplyEmulation(page: Page): Promise<void> {
  const state = {...page.emulation};
  await Promise.all(
    page.instrumentation.sessions().map(async ({session, kind}) => {
      const restore = async () => {
        await applySessionEmulation(session, kind, {}, page.urlPolicy, true);
        await applySessionEmulation(session, kind, state, page.urlPolicy, true);
      };
      // Frames and workers may be gone by now; only the page's own failure matters.
      await (kind === 'page' ? restore() : restore().catch(() => undefined));
    }),
  );
  await applyViewport(page.session, undefined, undefined);
  if (state.viewport) {
    await applyViewport(page.session, state.viewport, state.viewport);
  }
}
