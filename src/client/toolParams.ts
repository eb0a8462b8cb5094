/**
 * A tool's parameters as people read and type them, derived from the JSON
 * Schema of its input (the same one tools/list sends, made from the tool's
 * valibot schema): `cdp-mcp <tool> --help`, docs/tools.md, and the
 * `--param value` words of a CLI call.
 */

/** The JSON Schema of one parameter, as far as we read it. */
export interface ParamSchema {
  type?: string;
  enum?: readonly unknown[];
  items?: ParamSchema;
  /** One of these (send_cdp_command's params: an object, or it as a JSON string). */
  anyOf?: readonly ParamSchema[];
  properties?: Record<string, ParamSchema>;
  required?: readonly string[];
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  minLength?: number;
}

/** The JSON Schema of a tool's input object. */
export interface InputSchema {
  properties?: Record<string, object>;
  required?: readonly string[];
}

/** What help and docs say about one parameter. */
export interface ParamDoc {
  name: string;
  /** `string`, `integer`, `boolean`, `png|jpeg|webp`, `string[]`, `object (JSON)`… */
  type: string;
  required: boolean;
  /** The schema's default, as typed on the command line; empty when none. */
  defaultValue: string;
  description: string;
  schema: ParamSchema;
}

/** The bounds of a number, e.g. `0-100`, `>= 1`. */
function bounds(schema: ParamSchema): string {
  const {minimum: min, maximum: max, exclusiveMinimum: above} = schema;
  if (min !== undefined && max !== undefined) {
    return ` ${min}-${max}`;
  }
  if (min !== undefined) {
    return ` >= ${min}`;
  }
  if (above !== undefined) {
    return ` > ${above}`;
  }
  return max === undefined ? '' : ` <= ${max}`;
}

/** A short name of the value a parameter takes. */
export function typeLabel(schema: ParamSchema): string {
  if (schema.enum) {
    return schema.enum.map(String).join('|');
  }
  if (schema.anyOf) {
    return schema.anyOf.map(typeLabel).join(' or ');
  }
  switch (schema.type) {
    case 'number':
    case 'integer':
      return `${schema.type}${bounds(schema)}`;
    case 'array': {
      const item = schema.items ?? {};
      return item.type === 'object' || item.type === 'array' ? 'array of objects (JSON)' : `${typeLabel(item)}[]`;
    }
    case 'object':
      return 'object (JSON)';
    default:
      return schema.type ?? 'JSON';
  }
}

function defaultText(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  }
  return value === undefined ? '' : JSON.stringify(value);
}

/** The parameters of a tool, in schema order. */
export function paramDocs(input: InputSchema): ParamDoc[] {
  const required = new Set(input.required ?? []);
  return Object.entries(input.properties ?? {}).map(([name, raw]) => {
    const schema = raw as ParamSchema;
    return {
      name,
      type: typeLabel(schema),
      required: required.has(name),
      defaultValue: defaultText(schema.default),
      description: schema.description ?? '',
      schema,
    };
  });
}

/** A mistake on the command line of a tool call: exit code 2. */
export class UsageError extends Error {}

/** `click-at` → `clickAt`, so kebab-case spellings of parameters work as they do for flags. */
function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

function expected(param: ParamDoc): string {
  return `--${param.name} takes ${param.type}`;
}

function parseJson(param: ParamDoc, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UsageError(`${expected(param)}, and "${text}" is not valid JSON.`);
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** One typed word to the value the schema wants (the server checks ranges and formats again). */
function scalar(param: ParamDoc, schema: ParamSchema, text: string): unknown {
  if (schema.enum) {
    const match = schema.enum.find(choice => String(choice) === text);
    if (match === undefined) {
      throw new UsageError(`${expected(param)}, not "${text}".`);
    }
    return match;
  }
  switch (schema.type) {
    case 'number':
    case 'integer': {
      const n = text.trim() === '' ? NaN : Number(text);
      if (!Number.isFinite(n) || (schema.type === 'integer' && !Number.isInteger(n))) {
        throw new UsageError(`${expected(param)}, not "${text}".`);
      }
      return n;
    }
    case 'boolean':
      if (text !== 'true' && text !== 'false') {
        throw new UsageError(`--${param.name} is true or false, not "${text}".`);
      }
      return text === 'true';
    case 'string':
      return text;
    default:
      // JSON, or the text itself when the parameter also takes a string.
      return schema.anyOf?.some(choice => choice.type === 'string') && !isJson(text) ? text : parseJson(param, text);
  }
}

/** Adds one occurrence of `--param value` to the arguments. */
function addValue(args: Record<string, unknown>, param: ParamDoc, text: string): void {
  const {schema} = param;
  if (schema.type !== 'array') {
    if (param.name in args) {
      throw new UsageError(`--${param.name} was given twice; it takes one value.`);
    }
    args[param.name] = scalar(param, schema, text);
    return;
  }
  // A JSON array as one word, or one item per occurrence.
  const items = text.trimStart().startsWith('[') ? parseJson(param, text) : [scalar(param, schema.items ?? {}, text)];
  if (!Array.isArray(items)) {
    throw new UsageError(`${expected(param)}.`);
  }
  const previous = (args[param.name] as unknown[] | undefined) ?? [];
  args[param.name] = [...previous, ...(items as unknown[])];
}

function nameList(params: ParamDoc[]): string {
  return params.length ? params.map(p => `--${p.name}`).join(', ') : 'none';
}

/**
 * chrome-devtools-mcp's CLI syntax: the required parameters not given by
 * name, as plain words in schema order (`click 1_7`).
 */
function addPositionals(
  tool: string,
  params: ParamDoc[],
  args: Record<string, unknown>,
  positionals: readonly string[],
): void {
  const open = params.filter(p => p.required && !(p.name in args));
  const extra = positionals[open.length];
  if (extra !== undefined) {
    const takes = open.length
      ? `its required parameters in order (${open.map(p => p.name).join(', ')}), then --name value`
      : 'its parameters as --name value';
    throw new UsageError(`Unexpected "${extra}": ${tool} takes ${takes} (parameters: ${nameList(params)}).`);
  }
  positionals.forEach((word, index) => {
    const param = open[index];
    if (param) {
      addValue(args, param, word);
    }
  });
}

/**
 * Reads required parameters as plain words in schema order, `--param value`, `--param=value`, `--flag` / `--flag=false` /
 * `--no-flag` (booleans), repeated flags or one JSON array (arrays), JSON
 * (objects) into tool arguments. Throws a UsageError naming the parameter
 * and what it takes.
 */
export function parseToolArgs(tool: string, input: InputSchema, argv: readonly string[]): Record<string, unknown> {
  const params = paramDocs(input);
  const byName = new Map(params.map(p => [p.name, p]));
  const args: Record<string, unknown> = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] ?? '';
    if (!word.startsWith('--')) {
      positionals.push(word);
      continue;
    }
    const [rawName = '', inline] = word.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    let param = byName.get(camel(rawName));
    let negated = false;
    if (!param && /^no-?[a-zA-Z]/.test(rawName)) {
      const positive = camel(rawName.replace(/^no-?/, ''));
      const candidate = byName.get(positive.charAt(0).toLowerCase() + positive.slice(1));
      if (candidate?.schema.type === 'boolean' && inline === undefined) {
        param = candidate;
        negated = true;
      }
    }
    if (!param) {
      throw new UsageError(`Unknown parameter --${rawName} for ${tool}. Its parameters: ${nameList(params)}.`);
    }
    if (param.schema.type === 'boolean' && inline === undefined) {
      args[param.name] = !negated;
      continue;
    }
    let text = inline;
    if (text === undefined) {
      text = argv[i + 1];
      if (text === undefined) {
        throw new UsageError(`--${param.name} needs a value (${param.type}).`);
      }
      i++;
    }
    addValue(args, param, text);
  }
  addPositionals(tool, params, args, positionals);
  const missing = params.filter(p => p.required && !(p.name in args));
  if (missing.length) {
    const list = missing.map(p => `--${p.name} <${p.type}>`).join(', ');
    throw new UsageError(`${tool} needs ${list}.`);
  }
  return args;
}
