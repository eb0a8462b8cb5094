/**
 * The page-side half of third-party developer tools: a page offers tools by
 * answering the `devtoolstooldiscovery` event on `window` with
 * `event.respondWith({name, description?, tools: [{name, description,
 * inputSchema, execute}]})`. These scripts run in the page's main world.
 */

/**
 * Dispatches the discovery event, keeps the valid groups in
 * `window.__dtmcp.toolGroups`, installs `window.__dtmcp.executeTool`, and
 * resolves with the groups as JSON (after a task when nobody answered at once,
 * for pages that answer asynchronously).
 */
export const DISCOVER_TOOLS = `(async () => {
  const dt = (window.__dtmcp ??= {});
  dt.toolGroups = [];
  const validTool = t => t && typeof t.name === 'string' && typeof t.description === 'string' &&
    typeof t.execute === 'function' && t.inputSchema !== null && typeof t.inputSchema === 'object';
  const validGroup = g => g && typeof g.name === 'string' &&
    (g.description === undefined || typeof g.description === 'string') && Array.isArray(g.tools) && g.tools.every(validTool);
  let responded = false;
  const event = new CustomEvent('devtoolstooldiscovery');
  event.respondWith = group => {
    responded = true;
    if (validGroup(group)) {
      dt.toolGroups.push(group);
    } else {
      console.error('devtoolstooldiscovery: invalid tool group (needs name and tools with name, description, inputSchema and execute)', group);
    }
  };
  dt.executeTool = async (name, args) => {
    if (!dt.toolGroups.length) {
      throw new Error('No tools found on the page');
    }
    for (const group of dt.toolGroups) {
      const tool = group.tools.find(t => t.name === name);
      if (tool) {
        return tool.execute(args);
      }
    }
    throw new Error('Tool ' + name + ' not found');
  };
  window.dispatchEvent(event);
  if (!responded) {
    await new Promise(resolve => setTimeout(resolve, 0));
  }
  return dt.toolGroups.map(g => ({
    name: g.name,
    description: g.description,
    tools: g.tools.map(t => ({name: t.name, description: t.description, inputSchema: t.inputSchema})),
  }));
})()`;

/**
 * Runs a tool (called on an object of the main world, the elements after
 * the keys they replace) and returns `[json, ...elements]`: its result as
 * JSON text made serialisable (each element in the document becomes
 * `{[marker]: i}`, the i-th element after the text; an element out of the
 * document, which no snapshot can show, a descriptive string; so do
 * functions, class instances and circular references).
 */
export const EXECUTE_TOOL = `async function (name, args, elementKeys, marker, ...elements) {
  elementKeys.forEach((key, i) => (args[key] = elements[i]));
  if (!window.__dtmcp?.executeTool) {
    throw new Error('No tools found on the page');
  }
  const result = await window.__dtmcp.executeTool(name, args);
  const ancestors = new Set();
  const stashed = [];
  const plain = value => {
    if (value instanceof Element) {
      if (!value.isConnected) {
        return '<Detached ' + value.localName + ' element>';
      }
      stashed.push(value);
      return {[marker]: stashed.length - 1};
    }
    if (typeof value === 'function') {
      return '<Function object>';
    }
    if (value === null || typeof value !== 'object') {
      return value;
    }
    if (ancestors.has(value)) {
      return '<Circular reference>';
    }
    const proto = Object.getPrototypeOf(value);
    if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) {
      return '<' + (value.constructor?.name ?? 'Object') + ' instance>';
    }
    ancestors.add(value);
    const out = Array.isArray(value)
      ? value.map(plain)
      : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
    ancestors.delete(value);
    return out;
  };
  return [JSON.stringify(plain(result)), ...stashed];
}`;

/** In the page, on an element: its ancestors, nearest first (a shadow root's host stands for the root). */
export const ANCESTORS_OF = `function () {
  const out = [];
  for (let n = this.parentNode; n; n = n instanceof ShadowRoot ? n.host : n.parentNode) {
    if (n.nodeType === Node.ELEMENT_NODE) out.push(n);
  }
  return out;
}`;
