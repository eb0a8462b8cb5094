/**
 * Issue 25 (memory): the DevTools SDK that get_css_styles loads carries
 * DevTools' protocol table without what only the Protocol Monitor reads
 * (scripts/vendor/common.mjs, slimProtocolPlugin): commands keep their names
 * and reply names, so the agents' invoke_ methods work; no parameters,
 * descriptions or types.
 */
import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {loadCssBundle, vendorUrl} from '../../../src/devtools/vendor.js';

interface Backend {
  typeMap: Map<string, unknown>;
  agentPrototypes: Map<
    string,
    Record<string, unknown> & {
      metadata: Record<string, {parameters: unknown[]; description: string; replyArgs: string[]}>;
    }
  >;
  getEventParameterNames(): Map<string, Map<string, string[]>>;
}

describe('the CSS bundle', () => {
  it('has a protocol table of names only', async () => {
    await loadCssBundle();
    const {ProtocolClient} = (await import(vendorUrl('css').href)) as {
      ProtocolClient: {InspectorBackend: {inspectorBackend: Backend}};
    };
    const backend = ProtocolClient.InspectorBackend.inspectorBackend;
    const css = backend.agentPrototypes.get('CSS');
    assert.equal(typeof css?.['invoke_getMatchedStylesForNode'], 'function');
    assert.deepEqual(css?.metadata['CSS.getMatchedStylesForNode']?.parameters, []);
    assert.equal(css?.metadata['CSS.getMatchedStylesForNode']?.description, '');
    assert.ok(css?.metadata['CSS.getMatchedStylesForNode']?.replyArgs.includes('matchedCSSRules'));
    assert.equal(backend.typeMap.size, 0);
    // Events keep their parameter names (the dispatchers need them).
    assert.deepEqual(backend.getEventParameterNames().get('CSS')?.get('CSS.styleSheetAdded'), ['header']);
  });
});
