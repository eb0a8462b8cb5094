// The CSS bundle: DevTools' SDK target with its DOM and CSS models, which turn
// CSS.getMatchedStylesForNode into a cascade (CSSMatchedStyles: which
// declarations win, which are overloaded, what is inherited).
export const bundle = {
  name: 'devtools-css',
  source: `
export {setUpDevTools} from 'vendor-entry:setup';
export * as Common from './front_end/core/common/common.js';
export * as CSSMatchedStyles from './front_end/core/sdk/CSSMatchedStyles.js';
export * as CSSMetadata from './front_end/core/sdk/CSSMetadata.js';
export * as CSSModel from './front_end/core/sdk/CSSModel.js';
export * as CSSProperty from './front_end/core/sdk/CSSProperty.js';
export * as CSSRule from './front_end/core/sdk/CSSRule.js';
export * as CSSStyleDeclaration from './front_end/core/sdk/CSSStyleDeclaration.js';
export * as DOMModel from './front_end/core/sdk/DOMModel.js';
export * as Host from './front_end/core/host/host.js';
export * as Root from './front_end/core/root/root.js';
export {FrameManager} from './front_end/core/sdk/FrameManager.js';
export * as ProtocolClient from './front_end/core/protocol_client/protocol_client.js';
export {TargetManager} from './front_end/core/sdk/TargetManager.js';
export {Target} from './front_end/core/sdk/Target.js';
`,
};
