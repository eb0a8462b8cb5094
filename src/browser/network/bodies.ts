import type {NetworkRecord} from './networkRecord.js';

/** Bound of fetching one body from Chrome. */
const BODY_TIMEOUT_MS = 10_000;

/**
 * The response body as Chrome kept it (durable messages keep bodies across
 * navigations, up to a budget). Undefined when it is gone, was too large to
 * keep, or never existed (redirects, failures). A mocked response's body is
 * the mock's: Chrome keeps none for requests answered through Fetch.
 */
export async function responseBody(record: NetworkRecord): Promise<Buffer | undefined> {
  if (!record.response || record.redirected || record.resourceType === 'websocket' || record.session.detached) {
    return undefined;
  }
  if (record.mockBody) {
    return record.mockBody;
  }
  try {
    const {body, base64Encoded} = await record.session.send(
      'Network.getResponseBody',
      {requestId: record.requestId},
      BODY_TIMEOUT_MS,
    );
    return Buffer.from(body, base64Encoded ? 'base64' : 'utf8');
  } catch {
    return undefined;
  }
}

/** The request body: sent inline with the request, or asked from Chrome for larger ones. */
export async function requestBody(record: NetworkRecord): Promise<string | undefined> {
  if (!record.hasPostData) {
    return undefined;
  }
  if (record.postData !== undefined) {
    return record.postData;
  }
  if (record.session.detached) {
    return undefined;
  }
  try {
    const {postData, base64Encoded} = await record.session.send(
      'Network.getRequestPostData',
      {requestId: record.requestId},
      BODY_TIMEOUT_MS,
    );
    return base64Encoded ? Buffer.from(postData, 'base64').toString('utf8') : postData;
  } catch {
    return undefined;
  }
}
