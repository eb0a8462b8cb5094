/**
 * Checks a value against a JSON Schema a page supplied (third-party tool
 * input), with Ajv: the maintained validator chrome-devtools-mcp uses too,
 * loaded on first use.
 */

interface SchemaError {
  instancePath: string;
  message?: string;
}

/** `/items/0/my-key` as a JavaScript access path: `.items[0]['my-key']`. */
function accessPath(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map(raw => raw.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map(key => (/^\d+$/.test(key) ? `[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `['${key}']`))
    .join('');
}

/**
 * Errors as chrome-devtools-mcp words them (`data.a should be number`: the
 * phrasing of the Ajv release it bundles), from a current Ajv's.
 */
function errorsText(errors: readonly SchemaError[]): string {
  return errors
    .map(e => `data${accessPath(e.instancePath)} ${(e.message ?? '').replace(/^must /, 'should ')}`)
    .join(', ');
}

/** The validation failure (`data.who should be string`), or undefined when the value is valid. */
export async function jsonSchemaErrors(schema: Record<string, unknown>, value: unknown): Promise<string | undefined> {
  // Node gives the CommonJS package's named export; the packed bundle only its
  // module.exports as the default (the Ajv class itself).
  const {Ajv: named, default: whole} = await import('ajv');
  const Ajv = named ?? whole;
  const ajv = new Ajv({strict: false, allErrors: false});
  let validate;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    return `its input schema is not a valid JSON Schema (${(error as Error).message})`;
  }
  return validate(value) ? undefined : errorsText(validate.errors ?? []);
}
