import * as v from 'valibot';

import type {RegisteredTool} from '../tools/registry.js';

/** Why a call's arguments were refused: the text of its isError result. */
export interface ArgumentsRefusal {
  refusal: string;
  /** Structured as an error message even for a slim tool (the array-for-object refusal always was). */
  unslim?: boolean;
}

/**
 * The validate step of the pipeline: a JSON object, no argument the tool does
 * not take, and the tool's schema. Each refusal says what to fix and retry.
 */
export function validateArguments(
  registered: RegisteredTool,
  args: unknown,
): {params: Record<string, unknown>} | ArgumentsRefusal {
  const {name} = registered.tool;
  if (args !== undefined && args !== null && (typeof args !== 'object' || Array.isArray(args))) {
    return {refusal: `Arguments for tool "${name}" must be a JSON object.`};
  }
  const given = (args ?? {}) as Record<string, unknown>;
  const expected = Object.keys(registered.schema.entries);
  const unknown = Object.keys(given).filter(k => !expected.includes(k));
  if (unknown.length) {
    const plural = unknown.length > 1;
    const list = unknown.map(k => `"${k}"`).join(', ');
    const expectation = expected.length
      ? `Expected arguments: ${expected.map(k => `"${k}"`).join(', ')}.`
      : 'This tool does not accept any arguments.';
    return {
      refusal: `Unknown argument${plural ? 's' : ''} for tool "${name}": ${list}. ${expectation} Remove ${plural ? 'them' : 'it'} and retry.`,
    };
  }
  // valibot takes an array for a record (index keys); JSON Schema does not.
  const properties = (registered.inputSchema['properties'] ?? {}) as Record<string, {type?: unknown}>;
  const arrayForObject = Object.keys(given).find(k => properties[k]?.type === 'object' && Array.isArray(given[k]));
  if (arrayForObject) {
    return {
      refusal: `Invalid arguments for tool "${name}": "${arrayForObject}": Invalid type: Expected Object but received Array. Fix it and retry.`,
      unslim: true,
    };
  }
  const parsed = v.safeParse(registered.schema, given);
  if (!parsed.success) {
    return {
      refusal: `Invalid arguments for tool "${name}": ${parsed.issues.map(describeIssue).join('; ')}. Fix ${parsed.issues.length > 1 ? 'them' : 'it'} and retry.`,
    };
  }
  return {params: parsed.output};
}

function describeIssue(issue: v.BaseIssue<unknown>): string {
  const path = issue.path?.map(p => String(p.key)).join('.') ?? '';
  if (issue.kind === 'schema' && issue.type === 'object' && issue.input === undefined && path) {
    return `"${path}" is required`;
  }
  return path ? `"${path}": ${issue.message}` : issue.message;
}
