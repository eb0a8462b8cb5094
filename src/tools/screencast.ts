import {extname} from 'node:path';

import * as v from 'valibot';

import type {Config} from '../config/options.js';
import {withExtension} from '../util/sandbox.js';
import {definePageTool} from './defineTool.js';

/** Containers the legacy (ffmpeg) recorder writes; Chrome's own recorder writes mp4 only. */
const LEGACY_EXTENSIONS = ['.webm', '.mp4'] as const;

/** The legacy recorder's extension: the requested one (any case) if supported, .mp4 when there is none. */
export function legacyExtension(filePath: string | undefined): '.webm' | '.mp4' {
  const requested = extname(filePath ?? '');
  const match = LEGACY_EXTENSIONS.find(ext => ext === requested.toLowerCase());
  if (!match && requested !== '') {
    throw new Error(
      `Unsupported screencast file extension "${requested}". Supported formats: ${LEGACY_EXTENSIONS.join(', ')} (case-insensitive).`,
    );
  }
  return match ?? '.mp4';
}

export const screencastStart = (config: Config) =>
  definePageTool({
    name: 'screencast_start',
    title: 'Start screencast',
    description: 'Start recording a video of the page; screencast_stop saves it.',
    annotations: {
      category: 'debugging',
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    },
    blockedByDialog: false,
    filePaths: ['filePath'],
    schema: {
      filePath: v.optional(
        v.pipe(
          v.string(),
          v.description(
            config.experimentalScreencast
              ? 'Output file (.mp4 or .webm). Default: screencast.mp4 in a new temp folder.'
              : 'Output file (saved as .mp4). Default: a temp file.',
          ),
        ),
      ),
    },
    async handler({params, page}, response, {files}) {
      if (page.screencast.filePath) {
        throw new Error(
          'a screencast recording is already in progress. Use screencast_stop to stop it before starting a new one.',
        );
      }
      const legacy = config.experimentalScreencast;
      const ext = legacy ? legacyExtension(params.filePath) : '.mp4';
      const filePath = params.filePath
        ? await files.validate(withExtension(params.filePath, ext))
        : await files.temporaryPath(`screencast${ext}`);
      try {
        await page.screencast.start({
          filePath,
          fps: config.screencastFps,
          ffmpeg: legacy
            ? {container: ext === '.webm' ? 'webm' : 'mp4', path: config.experimentalFfmpegPath}
            : undefined,
        });
      } catch (error) {
        if (!params.filePath) {
          await files.discardTemporary(filePath);
        }
        throw error;
      }
      response.line(
        `Screencast recording started. The recording will be saved to ${filePath}. Use screencast_stop to stop recording.`,
      );
    },
  });

export const screencastStop = definePageTool({
  name: 'screencast_stop',
  title: 'Stop screencast',
  description: 'Stop recording and save the video.',
  annotations: {
    category: 'debugging',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  blockedByDialog: false,
  schema: {},
  async handler({page}, response, {files}) {
    const {filePath, data} = await page.screencast.stop();
    const saved = await files.save(data, filePath, extname(filePath));
    response.line(`The screencast recording has been stopped and saved to ${saved}.`);
  },
});
