/**
 * Output caps (--maxOutputChars, take_snapshot's maxChars): text over the cap
 * is cut at a line boundary and ends with a note saying how much was left out
 * and how to get it. The note counts towards the cap.
 */

/** How to get what a cap cut off a snapshot. */
export const SNAPSHOT_OUTPUT_HINT =
  'Call take_snapshot with sinceLast=true for only what changed, with maxChars for a shorter cut, or with filePath to save the whole snapshot to a file.';

/** What a cut costs at most besides the hint: the brackets, the counts and the wording. */
const NOTE_OVERHEAD_CHARS = 120;
/** What saying where a first line was cut costs at most ("The first line is cut after N characters. "). */
const FIRST_LINE_NOTE_CHARS = 60;

/** The note that replaces the lines left out. */
export function cutNote(lines: number, chars: number, cap: number, how: string): string {
  const what = `${lines} more line${lines === 1 ? '' : 's'} (${chars} characters)`;
  return `[Output cut at ${cap} characters: ${what} left out. ${how}]`;
}

/**
 * `text` if it fits in `maxChars`, else its first whole lines followed by the
 * note. When not even one line fits, the first line is cut mid-way (the note
 * says so) rather than showing nothing.
 */
export function capText(text: string, maxChars: number, how: string, reserve = 0): string {
  if (text.length <= maxChars) {
    return text;
  }
  // `reserve`: room the caller adds to a cut text (a line closing a page-content block).
  const budget = Math.max(0, maxChars - reserve - NOTE_OVERHEAD_CHARS - how.length);
  const lines = text.split('\n');
  let kept = 0;
  let used = 0;
  while (kept < lines.length && used + (lines[kept]?.length ?? 0) + 1 <= budget) {
    used += (lines[kept]?.length ?? 0) + 1;
    kept++;
  }
  if (kept === 0) {
    const first = lines[0] ?? '';
    // The note then also says where the line was cut.
    const head = first.slice(0, Math.max(0, budget - FIRST_LINE_NOTE_CHARS));
    const rest = text.length - head.length;
    return `${head}\n${cutNote(lines.length - (text.endsWith('\n') ? 1 : 0), rest, maxChars, `The first line is cut after ${head.length} characters. ${how}`)}`;
  }
  const shown = lines.slice(0, kept).join('\n');
  // A text ending in a newline has no real line after it.
  const left = lines.length - kept - (text.endsWith('\n') ? 1 : 0);
  return `${shown}\n${cutNote(left, text.length - shown.length - 1, maxChars, how)}`;
}
