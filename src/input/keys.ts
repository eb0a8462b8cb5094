/**
 * US keyboard layout: what Input.dispatchKeyEvent needs for every key name an
 * agent may give (the same names as Puppeteer's KeyInput: "Enter", "KeyA",
 * "a", "A", "Digit1", "!", "ArrowLeft", "F5", "Control", …).
 */
export interface KeyDefinition {
  key: string;
  code: string;
  keyCode: number;
  /** Text the key types (none for keys like Shift or ArrowLeft). */
  text?: string;
  /** 1 = left, 2 = right, 3 = numpad. */
  location?: number;
  /** Key value when Shift is held. */
  shiftKey?: string;
}

/** [code, keyCode, key, shifted key, location] — text is the key itself when it is one character. */
type Row = [code: string, keyCode: number, key: string, shiftKey?: string, location?: number];

const ROWS: Row[] = [
  ['Backspace', 8, 'Backspace'],
  ['Tab', 9, 'Tab'],
  ['Enter', 13, 'Enter'],
  ['NumpadEnter', 13, 'Enter', undefined, 3],
  ['ShiftLeft', 16, 'Shift', undefined, 1],
  ['ShiftRight', 16, 'Shift', undefined, 2],
  ['ControlLeft', 17, 'Control', undefined, 1],
  ['ControlRight', 17, 'Control', undefined, 2],
  ['AltLeft', 18, 'Alt', undefined, 1],
  ['AltRight', 18, 'Alt', undefined, 2],
  ['MetaLeft', 91, 'Meta', undefined, 1],
  ['MetaRight', 92, 'Meta', undefined, 2],
  ['Pause', 19, 'Pause'],
  ['CapsLock', 20, 'CapsLock'],
  ['Escape', 27, 'Escape'],
  ['Convert', 28, 'Convert'],
  ['NonConvert', 29, 'NonConvert'],
  ['Space', 32, ' '],
  ['PageUp', 33, 'PageUp'],
  ['PageDown', 34, 'PageDown'],
  ['End', 35, 'End'],
  ['Home', 36, 'Home'],
  ['ArrowLeft', 37, 'ArrowLeft'],
  ['ArrowUp', 38, 'ArrowUp'],
  ['ArrowRight', 39, 'ArrowRight'],
  ['ArrowDown', 40, 'ArrowDown'],
  ['Select', 41, 'Select'],
  ['Open', 43, 'Execute'],
  ['PrintScreen', 44, 'PrintScreen'],
  ['Insert', 45, 'Insert'],
  ['Delete', 46, 'Delete'],
  ['ContextMenu', 93, 'ContextMenu'],
  ['NumLock', 144, 'NumLock'],
  ['ScrollLock', 145, 'ScrollLock'],
  ['AudioVolumeMute', 173, 'AudioVolumeMute'],
  ['AudioVolumeDown', 174, 'AudioVolumeDown'],
  ['AudioVolumeUp', 175, 'AudioVolumeUp'],
  ['MediaTrackNext', 176, 'MediaTrackNext'],
  ['MediaTrackPrevious', 177, 'MediaTrackPrevious'],
  ['MediaStop', 178, 'MediaStop'],
  ['MediaPlayPause', 179, 'MediaPlayPause'],
  ['Digit0', 48, '0', ')'],
  ['Digit1', 49, '1', '!'],
  ['Digit2', 50, '2', '@'],
  ['Digit3', 51, '3', '#'],
  ['Digit4', 52, '4', '$'],
  ['Digit5', 53, '5', '%'],
  ['Digit6', 54, '6', '^'],
  ['Digit7', 55, '7', '&'],
  ['Digit8', 56, '8', '*'],
  ['Digit9', 57, '9', '('],
  ['Semicolon', 186, ';', ':'],
  ['Equal', 187, '=', '+'],
  ['Comma', 188, ',', '<'],
  ['Minus', 189, '-', '_'],
  ['Period', 190, '.', '>'],
  ['Slash', 191, '/', '?'],
  ['Backquote', 192, '`', '~'],
  ['BracketLeft', 219, '[', '{'],
  ['Backslash', 220, '\\', '|'],
  ['BracketRight', 221, ']', '}'],
  ['Quote', 222, "'", '"'],
  ['Numpad0', 45, '0', 'Insert', 3],
  ['Numpad1', 35, '1', 'End', 3],
  ['Numpad2', 40, '2', 'ArrowDown', 3],
  ['Numpad3', 34, '3', 'PageDown', 3],
  ['Numpad4', 37, '4', 'ArrowLeft', 3],
  ['Numpad5', 12, '5', 'Clear', 3],
  ['Numpad6', 39, '6', 'ArrowRight', 3],
  ['Numpad7', 36, '7', 'Home', 3],
  ['Numpad8', 38, '8', 'ArrowUp', 3],
  ['Numpad9', 33, '9', 'PageUp', 3],
  ['NumpadMultiply', 106, '*', undefined, 3],
  ['NumpadAdd', 107, '+', undefined, 3],
  ['NumpadSubtract', 109, '-', undefined, 3],
  ['NumpadDivide', 111, '/', undefined, 3],
  ['NumpadDecimal', 46, '.', undefined, 3],
  ['NumpadEqual', 12, '=', undefined, 3],
];

function buildTable(): Map<string, KeyDefinition> {
  const table = new Map<string, KeyDefinition>();
  const define = (name: string, def: KeyDefinition) => {
    if (!table.has(name)) {
      table.set(name, def);
    }
  };
  const textOf = (key: string) => (key.length === 1 ? key : key === 'Enter' ? '\r' : undefined);
  for (const [code, keyCode, key, shiftKey, location] of ROWS) {
    const def: KeyDefinition = {
      key,
      code,
      keyCode,
      ...(textOf(key) ? {text: textOf(key)} : {}),
      ...(location ? {location} : {}),
      ...(shiftKey ? {shiftKey} : {}),
    };
    define(code, def);
  }
  for (let i = 0; i < 26; i++) {
    const lower = String.fromCharCode(97 + i);
    const upper = lower.toUpperCase();
    const code = `Key${upper}`;
    define(code, {key: lower, code, keyCode: 65 + i, text: lower, shiftKey: upper});
    define(lower, {key: lower, code, keyCode: 65 + i, text: lower, shiftKey: upper});
    define(upper, {key: upper, code, keyCode: 65 + i, text: upper});
  }
  for (let i = 1; i <= 24; i++) {
    define(`F${i}`, {key: `F${i}`, code: `F${i}`, keyCode: 111 + i});
  }
  // Key values (not codes) map to their main-row key; shifted symbols to the key that makes them.
  for (const [code, keyCode, key, shiftKey, location] of ROWS) {
    if (location === 3) {
      continue;
    }
    const base = table.get(code);
    if (base) {
      define(key, base);
    }
    if (shiftKey && shiftKey.length === 1) {
      define(shiftKey, {key: shiftKey, code, keyCode, text: shiftKey});
    }
  }
  define('Shift', table.get('ShiftLeft') as KeyDefinition);
  define('Control', table.get('ControlLeft') as KeyDefinition);
  define('Alt', table.get('AltLeft') as KeyDefinition);
  define('Meta', table.get('MetaLeft') as KeyDefinition);
  define('\r', {key: 'Enter', code: 'Enter', keyCode: 13, text: '\r'});
  define('\n', {key: 'Enter', code: 'Enter', keyCode: 13, text: '\r'});
  define('\t', table.get('Tab') as KeyDefinition);
  return table;
}

export const KEYS: ReadonlyMap<string, KeyDefinition> = buildTable();

export const MODIFIER_BITS: Record<string, number> = {Alt: 1, Control: 2, Meta: 4, Shift: 8};

/**
 * Parses "Control+Shift+R" into modifiers and a key. A `+` that starts a
 * token is the literal key (`Control++` is Control and `+`); a trailing `+`
 * after a key is dropped (`Shift+` is Shift).
 */
export function parseKey(input: string): {key: string; modifiers: string[]} {
  const tokens: string[] = [];
  let current = '';
  for (const char of input) {
    if (char === '+' && current !== '') {
      tokens.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  if (current !== '') {
    tokens.push(current);
  }
  if (tokens.length === 0) {
    throw new Error(`Key ${input} could not be parsed.`);
  }
  for (const token of tokens) {
    if (!KEYS.has(token)) {
      throw new Error(
        `${token} is invalid. Valid keys are: ${[...KEYS.keys()].filter(k => k.length > 0 && !/[\r\n\t]/.test(k)).join(', ')}.`,
      );
    }
  }
  if (new Set(tokens).size !== tokens.length) {
    throw new Error(`Key ${input} contains duplicate keys.`);
  }
  const key = tokens[tokens.length - 1] as string;
  return {key, modifiers: tokens.slice(0, -1)};
}
