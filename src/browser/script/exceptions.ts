import type {Protocol} from '../../../protocol/index.js';

/**
 * The first line of a page exception as the page would print it, without a
 * bare "Error: " prefix (`TypeError: x` stays as it is).
 */
export function exceptionMessage(details: Protocol.Runtime.ExceptionDetails): string {
  const description: unknown = details.exception?.description ?? details.exception?.value ?? details.text;
  const first = String(description).split('\n')[0] ?? '';
  return first.replace(/^Error: /, '') || details.text;
}
