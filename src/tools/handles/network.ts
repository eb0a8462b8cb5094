/** The network facet of a page handle: browser/network's collector, bodies and mocks. */
import type {Page} from '../../browser/core/Page.js';
import {requestBody, responseBody} from '../../browser/network/bodies.js';
import type {NetworkRecord} from '../../browser/network/networkRecord.js';
import type {ToolNetwork} from '../context.js';

export function pageNetwork(page: Page): ToolNetwork {
  const collector = () => page.instrumentation.network;
  return {
    list: includePreserved => collector().list(includePreserved),
    find: id => collector().findById(id),
    requestBody: (record: NetworkRecord) => requestBody(record),
    responseBody: (record: NetworkRecord) => responseBody(record),
    mock: spec => page.mocks.add(spec),
    clearMocks: urlPattern => page.mocks.clear(urlPattern),
    mocks: () => page.mocks.list(),
  };
}
