import type {Protocol} from '../../protocol/index.js';
import type {SnapNode, SnapProps} from './types.js';

type AXNode = Protocol.Accessibility.AXNode;

/**
 * Chrome's accessibility tree (Accessibility.getFullAXTree / queryAXTree) turned
 * into snapshot nodes with the reference's rules: which nodes an agent needs
 * ("interesting" ones, unless verbose), and how their properties serialize.
 * Used for verbose snapshots, for widgets whose insides only Chrome can see
 * (date inputs, media controls), and by tests as the oracle for the fast path.
 */

const CONTROL_ROLES = new Set([
  'button',
  'checkbox',
  'ColorWell',
  'combobox',
  'DisclosureTriangle',
  'listbox',
  'menu',
  'menubar',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'radio',
  'scrollbar',
  'searchbox',
  'slider',
  'spinbutton',
  'switch',
  'tab',
  'textbox',
  'tree',
  'treeitem',
]);
const LANDMARK_ROLES = new Set([
  'banner',
  'complementary',
  'contentinfo',
  'form',
  'main',
  'navigation',
  'region',
  'search',
]);
const PRESENTATIONAL_CHILDREN = new Set([
  'doc-cover',
  'graphics-symbol',
  'img',
  'image',
  'Meter',
  'scrollbar',
  'slider',
  'separator',
  'progressbar',
]);
const TEXT_ROLES = new Set(['LineBreak', 'text', 'InlineTextBox', 'StaticText']);

const USER_STRINGS = ['name', 'value', 'description', 'keyshortcuts', 'roledescription', 'valuetext', 'url'];
const BOOLEANS = [
  'disabled',
  'expanded',
  'focused',
  'modal',
  'multiline',
  'multiselectable',
  'readonly',
  'required',
  'selected',
  'busy',
  'atomic',
];
const TRISTATES = ['checked', 'pressed'];
const NUMBERS = ['level', 'valuemax', 'valuemin'];
const TOKENS = ['autocomplete', 'haspopup', 'invalid', 'orientation', 'live', 'relevant', 'errormessage', 'details'];

/** An AX node with its children linked, and the facts the filter needs. */
export class AxItem {
  readonly children: AxItem[] = [];
  /** Root of a child frame's tree, attached under an Iframe node. */
  frameRoot: SnapNode | undefined;
  readonly role: string;
  readonly name: string;
  readonly description: string | undefined;
  readonly ignored: boolean;
  focusable = false;
  editable = false;
  richlyEditable = false;
  hidden = false;
  busy = false;
  modal = false;
  live: string | undefined;
  roledescription: string | undefined;
  hasErrormessage = false;
  hasDetails = false;
  #focusableBelow: boolean | undefined;

  constructor(readonly payload: AXNode) {
    this.role = payload.role ? String(payload.role.value) : 'Unknown';
    this.name = payload.name ? String(payload.name.value ?? '') : '';
    this.description = payload.description ? String(payload.description.value ?? '') : undefined;
    this.ignored = payload.ignored;
    for (const property of payload.properties ?? []) {
      const value = property.value.value as unknown;
      switch (property.name) {
        case 'editable':
          this.editable = true;
          this.richlyEditable = value === 'richtext';
          break;
        case 'focusable':
          this.focusable = Boolean(value);
          break;
        case 'hidden':
          this.hidden = Boolean(value);
          break;
        case 'busy':
          this.busy = Boolean(value);
          break;
        case 'live':
          this.live = typeof value === 'string' ? value : undefined;
          break;
        case 'modal':
          this.modal = Boolean(value);
          break;
        case 'roledescription':
          this.roledescription = typeof value === 'string' && value ? value : undefined;
          break;
        case 'errormessage':
          this.hasErrormessage = true;
          break;
        case 'details':
          this.hasDetails = true;
          break;
        default:
          break;
      }
    }
  }

  get isControl(): boolean {
    return CONTROL_ROLES.has(this.role);
  }

  #hasFocusableBelow(): boolean {
    if (this.#focusableBelow === undefined) {
      this.#focusableBelow = this.children.some(c => c.focusable || c.#hasFocusableBelow());
    }
    return this.#focusableBelow;
  }

  get isLeaf(): boolean {
    if (this.children.length === 0) {
      return true;
    }
    const plainTextField =
      !this.richlyEditable && (this.editable || this.role === 'textbox' || this.role === 'searchbox');
    if (plainTextField || TEXT_ROLES.has(this.role) || PRESENTATIONAL_CHILDREN.has(this.role)) {
      return true;
    }
    if (this.#hasFocusableBelow()) {
      return false;
    }
    return this.role === 'heading' && this.name !== '';
  }

  isInteresting(insideControl: boolean): boolean {
    if (this.role === 'Ignored' || this.hidden || this.ignored) {
      return false;
    }
    if (LANDMARK_ROLES.has(this.role)) {
      return true;
    }
    if (
      this.focusable ||
      this.richlyEditable ||
      this.busy ||
      (this.live !== undefined && this.live !== 'off') ||
      this.modal ||
      this.hasErrormessage ||
      this.hasDetails ||
      this.roledescription
    ) {
      return true;
    }
    if (this.isControl) {
      return true;
    }
    if (insideControl) {
      return false;
    }
    return this.isLeaf && (this.name !== '' || Boolean(this.description));
  }

  /** The node's fields as the reference serializes them (everything but role and children). */
  serializeProps(): SnapProps {
    const properties = new Map<string, unknown>();
    for (const property of this.payload.properties ?? []) {
      properties.set(property.name.toLowerCase(), property.value.value);
    }
    if (this.payload.name) {
      properties.set('name', this.payload.name.value);
    }
    if (this.payload.value) {
      properties.set('value', this.payload.value.value);
    }
    if (this.payload.description) {
      properties.set('description', this.payload.description.value);
    }
    const props: SnapProps = {};
    for (const key of USER_STRINGS) {
      if (key !== 'name' && properties.has(key)) {
        props[key] = properties.get(key) as string;
      }
    }
    for (const key of BOOLEANS) {
      if (key === 'focused' && this.role === 'RootWebArea') {
        continue;
      }
      if (properties.has(key)) {
        props[key] = Boolean(properties.get(key));
      }
    }
    for (const key of TRISTATES) {
      if (properties.has(key)) {
        const value = properties.get(key);
        props[key] = value === 'mixed' ? 'mixed' : value === 'true';
      }
    }
    for (const key of NUMBERS) {
      if (properties.has(key)) {
        props[key] = properties.get(key) as number;
      }
    }
    for (const key of TOKENS) {
      const value = properties.get(key);
      if (value && value !== 'false') {
        props[key] = value as string;
      }
    }
    return props;
  }
}

/** Links a flat AX node list into a tree; the first node is the root. */
export function linkAxTree(nodes: AXNode[]): {root: AxItem | undefined; items: AxItem[]} {
  const byId = new Map<string, AxItem>();
  for (const node of nodes) {
    byId.set(node.nodeId, new AxItem(node));
  }
  for (const item of byId.values()) {
    for (const childId of item.payload.childIds ?? []) {
      const child = byId.get(childId);
      if (child) {
        item.children.push(child);
      }
    }
  }
  return {root: byId.values().next().value, items: [...byId.values()]};
}

export interface AxConvertOptions {
  interestingOnly: boolean;
  /** Start as if below a control (for subtrees fetched on behalf of the fast path). */
  insideControl?: boolean;
  /** Builds the SnapNode shell (key, ref) for an AX node. */
  shell(item: AxItem): Pick<SnapNode, 'key' | 'ref'>;
}

/**
 * Applies the reference's filter: keep interesting nodes (and Iframe nodes
 * carrying a child frame), hoist the children of dropped ones into their
 * parent, never look below leaves. Returns the top-level nodes (normally one).
 */
export function convertAxTree(root: AxItem, options: AxConvertOptions): SnapNode[] {
  const kept = new Set<AxItem>();
  if (options.interestingOnly) {
    const collect = (item: AxItem, insideControl: boolean) => {
      if (item.isInteresting(insideControl) || item.frameRoot) {
        kept.add(item);
      }
      if (item.isLeaf) {
        return;
      }
      const below = insideControl || item.isControl;
      for (const child of item.children) {
        collect(child, below);
      }
    };
    collect(root, options.insideControl ?? false);
  }
  const serialize = (item: AxItem): SnapNode[] => {
    const children: SnapNode[] = [];
    for (const child of item.children) {
      children.push(...serialize(child));
    }
    if (options.interestingOnly && !kept.has(item)) {
      return children;
    }
    if (item.frameRoot) {
      children.push(item.frameRoot);
    }
    return [{role: item.role, name: item.name, props: item.serializeProps(), children, ...options.shell(item)}];
  };
  return serialize(root);
}
