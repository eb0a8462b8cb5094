import type {Page, ResolvedElement} from '../browser/core/Page.js';
import {actionPoint} from './actionPoint.js';
import {callOn, mouseClick, typeText} from './actions.js';

/** Above this length text is set at once instead of typed (as the reference does). */
const TYPE_LIMIT = 100;

/** In the page, on the element: what kind of control it is and its toggle state. */
const INSPECT = `function() {
  const el = this;
  const role = (el.getAttribute('role') || '').trim().split(/\\s+/)[0];
  const toggleInput = el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio');
  if (toggleInput || role === 'checkbox' || role === 'radio' || role === 'switch' || role === 'menuitemcheckbox' || role === 'menuitemradio') {
    const mixed = (toggleInput && el.indeterminate) || el.getAttribute('aria-checked') === 'mixed';
    const checked = toggleInput ? el.checked : el.getAttribute('aria-checked') === 'true';
    return {kind: 'toggle', state: mixed ? 'mixed' : checked};
  }
  if (el.localName === 'select') return {kind: 'select'};
  return {kind: 'other'};
}`;

/** Selects the option whose value (else text) matches; dispatches input and change. */
const SELECT_OPTION = `function(value, byText) {
  const options = Array.from(this.options);
  const norm = s => s.replace(/\\s+/g, ' ').trim();
  let option = byText ? undefined : options.find(o => o.value === value);
  option ??= options.find(o => norm(o.label) === norm(value) || norm(o.text) === norm(value));
  if (!option) return false;
  if (this.multiple) { for (const o of options) o.selected = o === option; } else { this.value = option.value; option.selected = true; }
  this.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
  this.dispatchEvent(new Event('change', {bubbles: true}));
  return true;
}`;

/**
 * Prepares a text fill: focuses the field and decides what to type. Keeps a
 * prefix already in place, else selects the old text so typing replaces it.
 * Long values and non-typeable inputs (date, color, range) are set directly.
 */
const PREPARE_TEXT = `function(value, typeLimit) {
  const el = this;
  const typeable = ['', 'text', 'url', 'tel', 'search', 'password', 'number', 'email'];
  const isInput = el.localName === 'input';
  const isTextarea = el.localName === 'textarea';
  const editable = el.isContentEditable;
  if (!isInput && !isTextarea && !editable) return {mode: 'refuse'};
  el.focus();
  const setDirect = () => {
    if (editable && !isInput && !isTextarea) { el.innerText = value; }
    else {
      const proto = isInput ? HTMLInputElement.prototype : HTMLTextAreaElement.prototype;
      Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, value);
    }
    el.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
    el.dispatchEvent(new Event('change', {bubbles: true}));
    return {mode: 'done'};
  };
  if (isInput && !typeable.includes(el.type)) return setDirect();
  if (value.length >= typeLimit) return setDirect();
  const current = editable && !isInput && !isTextarea ? el.innerText : el.value;
  if (current === value) return {mode: 'done'};
  if (current && value.startsWith(current)) {
    if (isInput || isTextarea) {
      try { el.setSelectionRange(current.length, current.length); } catch {}
    } else {
      const range = document.createRange(); range.selectNodeContents(el); range.collapse(false);
      const sel = getSelection(); sel.removeAllRanges(); sel.addRange(range);
    }
    return {mode: 'type', text: value.slice(current.length)};
  }
  if (current) {
    if (isInput || isTextarea) { try { el.select(); } catch { el.setSelectionRange?.(0, current.length); } }
    else { const range = document.createRange(); range.selectNodeContents(el); const sel = getSelection(); sel.removeAllRanges(); sel.addRange(range); }
    if (value === '') { document.execCommand('delete'); return {mode: 'done'}; }
  }
  return {mode: 'type', text: value};
}`;

/**
 * Fills one element as the reference's fill does: a combobox with options
 * (select) by option text or value, a checkbox/radio/switch by "true"/"false",
 * text fields by typing (or setting long values), other inputs by value.
 */
export async function fillElement(page: Page, uid: string, value: string): Promise<void> {
  const elements = page.getElements();
  const node = elements.describe(uid);
  const element: ResolvedElement = await elements.resolve(uid);
  const info = await callOn<{kind: 'toggle' | 'select' | 'other'; state?: boolean | 'mixed'}>(element, INSPECT);
  if (info.kind === 'select' || (node.role === 'combobox' && node.options.length > 0)) {
    await actionPoint(page, element, uid, true, {hitTest: false});
    const byText = node.options.some(option => option.name === value);
    const selected = info.kind === 'select' ? await callOn<boolean>(element, SELECT_OPTION, [value, byText]) : false;
    if (!selected) {
      const optionUid = node.options.find(option => option.name === value)?.uid;
      if (!optionUid) {
        throw new Error(`Could not find option with text "${value}"`);
      }
      const optionEl = await elements.resolve(optionUid);
      await mouseClick(page, await actionPoint(page, optionEl, optionUid, true), 1);
    }
    return;
  }
  if (info.kind === 'toggle') {
    if (value !== 'true' && value !== 'false') {
      throw new Error(`Checkboxes, radio boxes and toggles require "true" or "false" value, but ${value} was used`);
    }
    const want = value === 'true';
    if (info.state === 'mixed' || info.state !== want) {
      await mouseClick(page, await actionPoint(page, element, uid, true), 1);
    }
    return;
  }
  await actionPoint(page, element, uid, true, {hitTest: false});
  const plan = await callOn<{mode: 'refuse' | 'done' | 'type'; text?: string}>(element, PREPARE_TEXT, [
    value,
    TYPE_LIMIT,
  ]);
  if (plan.mode === 'refuse') {
    throw new Error(
      `Element with uid ${uid} (${node.role}) cannot be filled out: use fill on a text field, select, checkbox or radio, or click it instead.`,
    );
  }
  if (plan.mode === 'type' && plan.text) {
    await typeText(page, plan.text);
  }
}
