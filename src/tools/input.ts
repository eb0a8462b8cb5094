import * as v from 'valibot';

import {browserIsLocal} from '../browser/core/browserIsLocal.js';
import type {Config} from '../config/options.js';
import type {ActionResult} from '../input/perform.js';
import type {ResponseBuilder} from '../response/ResponseBuilder.js';
import {definePageTool, includeSnapshotEntry} from './defineTool.js';
import {effectEntry, mergeSettled, type Settled, withEffect} from './effect.js';
import {checkedReadPath} from './readPath.js';

/** What to type for `value`: a secret's value when it is the secret's name (--secrets), else `value` itself. */
function typed(config: Config, value: string): string {
  return config.secrets?.resolve(value) ?? value;
}

const uidEntry = {
  uid: v.pipe(v.string(), v.description('Element uid, from a snapshot.')),
};

/**
 * What every input tool reports: its line, the node that received the event
 * when the element's own control draws over it, the navigation it caused, and
 * a snapshot on request.
 */
function report(
  response: ResponseBuilder,
  done: (line: string) => void,
  line: string,
  settle: ActionResult,
  includeSnapshot?: boolean,
): void {
  done(line);
  if (settle.receivedBy) {
    response.pageLine(
      `The event went to ${settle.receivedBy}, drawn over the element by its own control (where a user's click lands too).`,
    );
  }
  response.attachSettle(settle);
  if (includeSnapshot) {
    response.includeSnapshot({verbose: false});
  }
}

export const click = definePageTool({
  name: 'click',
  title: 'Click element',
  description: 'Click an element by uid. Waits for what the click causes (navigation, dialog, DOM updates).',
  annotations: {
    category: 'input',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  blockedByDialog: true,
  schema: {
    ...uidEntry,
    dblClick: v.optional(v.pipe(v.boolean(), v.description('Double-click.'))),
    ...includeSnapshotEntry,
    ...effectEntry('click'),
  },
  async handler({params, page}, response) {
    await withEffect(
      page,
      {effect: params.effect, acted: [params.uid]},
      response,
      () => page.input.click(params.uid, {dblClick: params.dblClick ?? false}),
      (settle, done) =>
        report(
          response,
          done,
          params.dblClick ? 'Successfully double clicked on the element' : 'Successfully clicked on the element',
          settle,
          params.includeSnapshot,
        ),
    );
  },
});

export const clickAt = definePageTool({
  name: 'click_at',
  title: 'Click at coordinates',
  description: 'Click at viewport coordinates (CSS pixels), e.g. taken from a screenshot.',
  annotations: {
    category: 'input',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
    conditions: ['experimentalVision'],
  },
  blockedByDialog: true,
  schema: {
    x: v.pipe(v.number(), v.description('Horizontal position in CSS pixels from the left of the viewport.')),
    y: v.pipe(v.number(), v.description('Vertical position in CSS pixels from the top of the viewport.')),
    dblClick: v.optional(v.pipe(v.boolean(), v.description('Double-click.'))),
    ...includeSnapshotEntry,
    ...effectEntry('click'),
  },
  async handler({params, page}, response) {
    await withEffect(
      page,
      {effect: params.effect},
      response,
      () => page.input.clickAt(params.x, params.y, {dblClick: params.dblClick ?? false}),
      (settle, done) =>
        report(
          response,
          done,
          params.dblClick
            ? 'Successfully double clicked at the coordinates'
            : 'Successfully clicked at the coordinates',
          settle,
          params.includeSnapshot,
        ),
    );
  },
});

export const hover = definePageTool({
  name: 'hover',
  title: 'Hover element',
  description: 'Move the mouse over an element.',
  annotations: {
    category: 'input',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  blockedByDialog: true,
  schema: {...uidEntry, ...includeSnapshotEntry, ...effectEntry('hover')},
  async handler({params, page}, response) {
    await withEffect(
      page,
      {effect: params.effect, acted: [params.uid]},
      response,
      () => page.input.hover(params.uid),
      (settle, done) => report(response, done, 'Successfully hovered over the element', settle, params.includeSnapshot),
    );
  },
});

const valueEntry = {
  value: v.pipe(v.string(), v.description('Text; option text or value; "true"/"false" for a checkbox.')),
};

export const fill = definePageTool({
  name: 'fill',
  title: 'Fill field',
  description: 'Fill a text field, select an option, or set a checkbox/radio/switch.',
  annotations: {
    category: 'input',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  blockedByDialog: true,
  schema: {...uidEntry, ...valueEntry, ...includeSnapshotEntry, ...effectEntry('fill')},
  async handler({params, page}, response, {config}) {
    await withEffect(
      page,
      {effect: params.effect, acted: [params.uid]},
      response,
      () => page.input.fill(params.uid, typed(config, params.value)),
      (settle, done) => report(response, done, 'Successfully filled out the element', settle, params.includeSnapshot),
    );
  },
});

export const fillForm = definePageTool({
  name: 'fill_form',
  title: 'Fill form',
  description: 'Fill several elements in order, as fill does. Stops at the first failure.',
  annotations: {
    category: 'input',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  blockedByDialog: true,
  schema: {
    elements: v.pipe(
      v.array(v.object({...uidEntry, ...valueEntry})),
      v.minLength(1, 'elements needs at least one entry.'),
      v.description('uid and value pairs.'),
    ),
    ...includeSnapshotEntry,
    ...effectEntry('form fill'),
  },
  async handler({params, page}, response, {config}) {
    const fillAll = async () => {
      const all: Settled[] = [];
      for (const {uid, value} of params.elements) {
        const settle = await page.input.fill(uid, typed(config, value));
        response.attachSettle(settle);
        all.push(settle);
      }
      return mergeSettled(all);
    };
    await withEffect(
      page,
      {effect: params.effect, acted: params.elements.map(e => e.uid)},
      response,
      fillAll,
      (_, done) => {
        done('Successfully filled out the form');
        if (params.includeSnapshot) {
          response.includeSnapshot({verbose: false});
        }
      },
    );
  },
});

export const drag = definePageTool({
  name: 'drag',
  title: 'Drag and drop',
  description: 'Drag an element onto another (mouse and HTML5 drag and drop).',
  annotations: {
    category: 'input',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  blockedByDialog: true,
  schema: {
    from_uid: v.pipe(v.string(), v.description('uid of the element to drag.')),
    to_uid: v.pipe(v.string(), v.description('uid of the element to drop it on.')),
    ...includeSnapshotEntry,
    ...effectEntry('drag'),
  },
  async handler({params, page}, response) {
    await withEffect(
      page,
      {effect: params.effect, acted: [params.from_uid, params.to_uid]},
      response,
      () => page.input.drag(params.from_uid, params.to_uid),
      (settle, done) => report(response, done, 'Successfully dragged an element', settle, params.includeSnapshot),
    );
  },
});

export const pressKey = definePageTool({
  name: 'press_key',
  title: 'Press key',
  description: 'Press a key or combination on the focused element.',
  annotations: {
    category: 'input',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  blockedByDialog: true,
  schema: {
    key: v.pipe(v.string(), v.description('e.g. "Enter", "Control+A", "Control++".')),
    ...includeSnapshotEntry,
    ...effectEntry('key press'),
  },
  async handler({params, page}, response, {config}) {
    await withEffect(
      page,
      {effect: params.effect},
      response,
      () => page.input.pressKey(typed(config, params.key)),
      (settle, done) =>
        report(response, done, `Successfully pressed key: ${params.key}`, settle, params.includeSnapshot),
    );
  },
});

export const typeTextTool = definePageTool({
  name: 'type_text',
  title: 'Type text',
  description: 'Type into the focused element, optionally then a key.',
  annotations: {
    category: 'input',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  blockedByDialog: true,
  schema: {
    text: v.pipe(v.string(), v.description('Text to type.')),
    submitKey: v.optional(v.pipe(v.string(), v.description('e.g. "Enter".'))),
    ...effectEntry('typing'),
  },
  async handler({params, page}, response, {config}) {
    await withEffect(
      page,
      {effect: params.effect},
      response,
      () => page.input.typeText(typed(config, params.text), params.submitKey),
      (settle, done) =>
        report(
          response,
          done,
          params.submitKey ? `Typed text "${params.text} + ${params.submitKey}"` : `Typed text "${params.text}"`,
          settle,
        ),
    );
  },
});

export const uploadFile = definePageTool({
  name: 'upload_file',
  title: 'Upload file',
  description: 'Upload a file through a file input or an element opening a file chooser.',
  annotations: {
    category: 'input',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  blockedByDialog: true,
  schema: {
    ...uidEntry,
    filePaths: v.pipe(
      v.array(v.string()),
      v.minLength(1, 'filePaths needs at least one path.'),
      v.description('Local paths of the files to upload.'),
    ),
    ...includeSnapshotEntry,
    ...effectEntry('upload'),
  },
  async handler({params, page}, response, {config, files}) {
    // A remote browser reads its own file system: its paths are not ours to check.
    const remote = !browserIsLocal(config);
    const paths: string[] = [];
    for (const path of params.filePaths) {
      paths.push(await checkedReadPath(files, config, path));
    }
    // Chrome reads the files later, by path: it gets private copies, made from what was checked.
    const given = remote ? paths : await Promise.all(paths.map(path => files.privateCopy(path)));
    await withEffect(
      page,
      {effect: params.effect, acted: [params.uid]},
      response,
      () => page.input.uploadFiles(params.uid, given),
      (settle, done) =>
        report(response, done, `File uploaded from ${paths.join(', ')}.`, settle, params.includeSnapshot),
    );
  },
});
