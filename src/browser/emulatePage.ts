import {applySessionEmulation, applyViewport, type EmulationState} from './emulationState.js';
import type {Page} from './Page.js';
import {runNavigation} from './settle.js';

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
