import type {Protocol} from '../../protocol/index.js';
import type {SnapNode, SnapProps} from './types.js';

type AXNode = Protocol.Accessibility.AXNode;

/**
 * One node of Chrome's accessibility tree with the facts the reference's
 * filter uses (Puppeteer 25's AXNode: isInteresting, isLeafNode, isControl,
 * serialize), so that filtering and printing give what chrome-devtools-mcp
 * prints.
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
/** Roles whose children are presentational: the filter never looks below them. */
export const LEAF_ROLES = new Set([
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
export const TEXT_ROLES = new Set(['LineBreak', 'text', 'InlineTextBox', 'StaticText']);

export const isControlRole = (role: string): boolean => CONTROL_ROLES.has(role);

const USER_STRINGS = ['value', 'description', 'keyshortcuts', 'roledescription', 'valuetext', 'url'];
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

export class AxItem {
  readonly children: AxItem[] = [];
  /** The node whose children this one is among (undefined for a tree's or subtree's root). */
  parent: AxItem | undefined;
  /** The content frame's snapshot root, for an Iframe node (attached as its last child). */
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
  /** Relations that move or point at other nodes (aria-owns, aria-activedescendant), set by attributes or internals. */
  hasOwns = false;
  hasActiveDescendant = false;
  #focusableBelow: boolean | undefined;

  constructor(readonly payload: AXNode) {
    this.role = payload.role ? String(payload.role.value) : 'Unknown';
    this.name = payload.name ? String(payload.name.value ?? '') : '';
    this.description = payload.description ? String(payload.description.value ?? '') : undefined;
    this.ignored = payload.ignored;
    for (const property of payload.properties ?? []) {
      const value = property.value.value as unknown;
      switch (property.name as string) {
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
        case 'owns':
          this.hasOwns = true;
          break;
        case 'activedescendant':
          this.hasActiveDescendant = true;
          break;
      }
    }
  }

  get backendNodeId(): number | undefined {
    return this.payload.backendDOMNodeId;
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

  /** A leaf for the filter: nothing below it is ever looked at. */
  get isLeaf(): boolean {
    if (this.children.length === 0) {
      return true;
    }
    const plainTextField =
      !this.richlyEditable && (this.editable || this.role === 'textbox' || this.role === 'searchbox');
    if (plainTextField || TEXT_ROLES.has(this.role) || LEAF_ROLES.has(this.role)) {
      return true;
    }
    if (this.#hasFocusableBelow()) {
      return false;
    }
    return this.role === 'heading' && this.name !== '';
  }

  /** isLeaf for a node fetched on its own: Chrome's childIds say whether it has children (never a heading here). */
  get isLeafAlone(): boolean {
    if ((this.payload.childIds ?? []).length === 0) {
      return true;
    }
    const plainTextField =
      !this.richlyEditable && (this.editable || this.role === 'textbox' || this.role === 'searchbox');
    return plainTextField || TEXT_ROLES.has(this.role) || LEAF_ROLES.has(this.role);
  }

  /**
   * @param leaf whether the node is a leaf; a node fetched on its own has no
   *   linked children, so its caller says (Chrome gave it children or not).
   */
  isInteresting(insideControl: boolean, leaf: () => boolean = () => this.isLeaf): boolean {
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
    return leaf() && (this.name !== '' || Boolean(this.description));
  }

  /** The node's fields as the reference serializes them (everything but role, name and children). */
  serializeProps(): SnapProps {
    const properties = new Map<string, unknown>();
    for (const property of this.payload.properties ?? []) {
      properties.set(property.name.toLowerCase(), property.value.value);
    }
    if (this.payload.value) {
      properties.set('value', this.payload.value.value);
    }
    if (this.payload.description) {
      properties.set('description', this.payload.description.value);
    }
    const props: SnapProps = {};
    const put = (key: string, value: unknown) => {
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
        props[key] = value;
      }
    };
    for (const key of USER_STRINGS) {
      put(key, properties.get(key));
    }
    for (const key of BOOLEANS) {
      if (properties.has(key) && !(key === 'focused' && this.role === 'RootWebArea')) {
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
      put(key, properties.get(key));
    }
    for (const key of TOKENS) {
      const value = properties.get(key);
      if (value && value !== 'false') {
        put(key, value);
      }
    }
    // The reference prints an option's text as its value (Chrome's AX node has none).
    if (this.role === 'option' && this.name) {
      props['value'] = this.name;
    }
    return props;
  }
}

/**
 * queryAXTree gives ignored nodes their real role and name where
 * getFullAXTree gives role "none" and no name or properties; the filter
 * reads roles of ignored nodes (a hidden button still makes what is below it
 * "inside a control"), so subtrees are brought to getFullAXTree's form.
 */
export function asFullTreeNode(node: AXNode): AXNode {
  if (!node.ignored) {
    return node;
  }
  const {name: _name, properties: _properties, description: _description, value: _value, ...rest} = node;
  return {...rest, role: {type: 'role', value: 'none'}, chromeRole: {type: 'internalRole', value: 0}};
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
        child.parent = item;
      }
    }
  }
  return {root: byId.values().next().value, items: [...byId.values()]};
}
