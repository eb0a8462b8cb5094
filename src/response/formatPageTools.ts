/** Text of the tools a page offers: WebMCP tools and third-party developer tool groups. */

/** A tool as lists print it. */
export interface PageToolView {
  name: string;
  description: string;
  inputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** A group of third-party developer tools. */
export interface PageToolGroupView {
  name: string;
  description?: string;
  tools: PageToolView[];
}

/** `JSON.stringify`, but `undefined` for a missing value, as the reference prints it. */
function json(value: unknown): string {
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

export function formatWebMcpTools(tools: PageToolView[]): string[] {
  if (!tools.length) {
    return ['## WebMCP tools', 'No WebMCP tools available.'];
  }
  return [
    '## WebMCP tools',
    ...tools.map(
      t =>
        `name="${t.name}", description="${t.description}", inputSchema=${json(t.inputSchema)}, annotations=${json(t.annotations)}`,
    ),
  ];
}

export function formatThirdPartyTools(groups: PageToolGroupView[]): string[] {
  if (!groups.length) {
    return [];
  }
  return [
    '## Third-party developer tools',
    ...groups.flatMap(group => [
      group.description ? `${group.name}: ${group.description}` : group.name,
      'Available tools:',
      ...group.tools.map(t => `name="${t.name}", description="${t.description}", inputSchema=${json(t.inputSchema)}`),
    ]),
  ];
}
