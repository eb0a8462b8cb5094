/**
 * DevTools issues (Audits.issueAdded): a short title and a one-paragraph
 * explanation per kind, written for this server, and the key that groups
 * repeated occurrences of the same problem into one console entry.
 */
import type {Protocol} from '../../../protocol/index.js';

export interface IssueText {
  title: string;
  explanation: string;
}

type Details = Record<string, unknown>;

/** Per issue code; `variants` refine the text by the detail's reason/type field. */
const ISSUE_TEXT: Record<string, IssueText & {variants?: Record<string, Partial<IssueText>>}> = {
  CookieIssue: {
    title: 'A cookie was blocked or will be blocked',
    explanation:
      'The browser rejected or restricted a cookie because of its SameSite, Secure, Partitioned or domain attributes. Check the Set-Cookie header of the affected request.',
    variants: {
      ExcludeSameSiteUnspecifiedTreatedAsLax: {title: 'Cookie without SameSite was treated as SameSite=Lax'},
      ExcludeSameSiteNoneInsecure: {title: 'SameSite=None cookie was rejected because it is not Secure'},
      ExcludeSameSiteLax: {title: 'SameSite=Lax cookie was not sent with a cross-site request'},
      ExcludeSameSiteStrict: {title: 'SameSite=Strict cookie was not sent with a cross-site request'},
      ExcludeInvalidSameParty: {title: 'Cookie with an invalid SameParty attribute was rejected'},
      WarnThirdPartyPhaseout: {title: 'Third-party cookie will be blocked'},
      ExcludeThirdPartyPhaseout: {title: 'Third-party cookie was blocked'},
    },
  },
  MixedContentIssue: {
    title: 'Insecure content loaded on a secure page',
    explanation:
      'An HTTPS page requested an HTTP resource. Browsers upgrade or block such requests; serve the resource over HTTPS.',
  },
  BlockedByResponseIssue: {
    title: 'A resource was blocked by its response headers',
    explanation:
      'The response carried a Cross-Origin-Resource-Policy, Cross-Origin-Embedder-Policy or Cross-Origin-Opener-Policy that forbids this use. Adjust the headers on the server or the way the resource is embedded.',
  },
  HeavyAdIssue: {
    title: 'An ad frame used too many resources and was removed',
    explanation: 'An ad iframe exceeded the browser limits for network or CPU use and was unloaded.',
  },
  ContentSecurityPolicyIssue: {
    title: 'Content Security Policy blocked a resource',
    explanation:
      "The page's Content-Security-Policy refused a script, style, frame, eval or other resource. Either change the policy or stop loading the resource.",
    variants: {
      kInlineViolation: {title: 'Content Security Policy blocked an inline script or style'},
      kEvalViolation: {title: 'Content Security Policy blocked eval'},
      kURLViolation: {title: 'Content Security Policy blocked a resource URL'},
      kTrustedTypesSinkViolation: {title: 'Trusted Types policy blocked a DOM sink assignment'},
      kTrustedTypesPolicyViolation: {title: 'Trusted Types policy creation was blocked'},
    },
  },
  SharedArrayBufferIssue: {
    title: 'SharedArrayBuffer needs cross-origin isolation',
    explanation:
      'SharedArrayBuffer is only available when the page is cross-origin isolated (COOP: same-origin and COEP: require-corp or credentialless).',
  },
  CorsIssue: {
    title: 'A cross-origin request was blocked by CORS',
    explanation:
      'The server did not allow this cross-origin request: a missing or wrong Access-Control-Allow-* header, a failed preflight, or a credentials mismatch. Fix the CORS headers on the server.',
    variants: {
      PreflightMissingAllowOriginHeader: {title: 'CORS preflight response has no Access-Control-Allow-Origin header'},
      MissingAllowOriginHeader: {title: 'CORS response has no Access-Control-Allow-Origin header'},
      AllowOriginMismatch: {title: 'CORS Access-Control-Allow-Origin does not match the origin'},
      InvalidAllowOriginValue: {title: 'CORS Access-Control-Allow-Origin header value is invalid'},
      PreflightInvalidStatus: {title: 'CORS preflight request failed with a non-2xx status'},
      InvalidResponse: {title: 'CORS request failed before a response arrived'},
    },
  },
  QuirksModeIssue: {
    title: 'Page is rendered in quirks mode',
    explanation:
      'The document has no (or a legacy) doctype, so the browser uses quirks-mode layout. Start the document with <!DOCTYPE html>.',
  },
  PartitioningBlobURLIssue: {
    title: 'A blob URL from another partition was blocked',
    explanation: 'Blob URLs are partitioned by top-level site; this blob URL was created in a different partition.',
  },
  NavigatorUserAgentIssue: {
    title: 'Page reads the reduced user agent string',
    explanation:
      'navigator.userAgent, appVersion or platform were read; their values are reduced. Use User-Agent Client Hints for detailed information.',
  },
  GenericIssue: {
    title: 'The page has a problem',
    explanation: 'Chrome reported a problem with this page.',
    variants: {
      FormLabelForNameError: {
        title: 'A form label refers to a field by name instead of id',
        explanation: 'A <label for> must match the id of a form field, not its name.',
      },
      FormDuplicateIdForInputError: {
        title: 'Form fields share the same id',
        explanation: 'Several form fields have the same id, which breaks labels and autofill. Make ids unique.',
      },
      FormInputWithNoLabelError: {
        title: 'A form field has no label',
        explanation: 'A form field has neither an id nor a name, and no associated label. Add a <label> or aria-label.',
      },
      FormAutocompleteAttributeEmptyError: {
        title: 'A form field has an empty autocomplete attribute',
        explanation: 'An empty autocomplete attribute is invalid; remove it or give it a valid token.',
      },
      FormEmptyIdAndNameAttributesForInputError: {
        title: 'A form field has neither id nor name',
        explanation: 'Without an id or name, autofill and form submission cannot identify the field.',
      },
      FormAriaLabelledByToNonExistingIdError: {
        title: 'aria-labelledby refers to a missing id',
        explanation: 'aria-labelledby names an element id that does not exist.',
      },
      FormInputAssignedAutocompleteValueToIdOrNameAttributeError: {
        title: 'A form field uses an autocomplete value as its id or name',
        explanation: 'Use the autocomplete attribute for autofill hints instead of the id or name.',
      },
      FormLabelHasNeitherForNorNestedInputError: {
        title: 'A form label has neither a for attribute nor a nested field',
        explanation: 'A <label> should either wrap its field or point to it with for=.',
      },
      FormLabelForMatchesNonExistingIdError: {
        title: 'A form label refers to a missing id',
        explanation: 'The for attribute of a <label> names an id that no form field has.',
      },
      FormInputHasWrongButWellIntendedAutocompleteValueError: {
        title: 'A form field has a misspelled autocomplete value',
        explanation: 'The autocomplete value is not a valid token; check its spelling.',
      },
      ResponseWasBlockedByORB: {
        title: 'A response was blocked by Opaque Response Blocking',
        explanation:
          'A cross-origin no-cors response looked like data (JSON, HTML…) rather than an image, script or media file, so it was blocked.',
      },
      NavigationEntryMarkedSkippable: {
        title: 'A history entry was marked skippable',
        explanation: 'The page added a history entry without a user gesture; the back button will skip it.',
      },
    },
  },
  DeprecationIssue: {
    title: 'The page uses a deprecated feature',
    explanation:
      'A web platform feature the page uses is deprecated and will be removed. The detail names the feature.',
  },
  ClientHintIssue: {
    title: 'Client hints were not delegated correctly',
    explanation:
      'A Permissions-Policy or meta tag for User-Agent Client Hints is malformed or used where it has no effect.',
  },
  FederatedAuthRequestIssue: {
    title: 'A FedCM sign-in request failed',
    explanation: 'navigator.credentials.get with an identity provider failed; the detail gives the reason.',
  },
  FederatedAuthUserInfoRequestIssue: {
    title: 'A FedCM user info request failed',
    explanation: 'IdentityProvider.getUserInfo failed; the detail gives the reason.',
  },
  BounceTrackingIssue: {
    title: 'Bounce-tracking site data will be cleared',
    explanation: 'A site that only redirected the user (bounce tracking) will have its storage cleared.',
  },
  CookieDeprecationMetadataIssue: {
    title: 'A third-party cookie is affected by the cookie deprecation',
    explanation: 'A third-party cookie was allowed by a temporary exception that will go away.',
  },
  StylesheetLoadingIssue: {
    title: 'A stylesheet failed to load',
    explanation: 'An @import rule or a linked stylesheet could not be loaded, so its styles are missing.',
  },
  PropertyRuleIssue: {
    title: 'An @property rule is invalid',
    explanation: 'An @property rule has an invalid syntax, initial-value or inherits descriptor and is ignored.',
  },
  SharedDictionaryIssue: {
    title: 'A compression dictionary could not be used',
    explanation: 'A Use-As-Dictionary or dictionary-compressed response was malformed or not allowed.',
  },
  ElementAccessibilityIssue: {
    title: 'An element has an accessibility problem',
    explanation:
      'An element is used in a way assistive technology cannot handle (e.g. invalid children of a <select>).',
  },
  SRIMessageSignatureIssue: {
    title: 'A response signature check failed',
    explanation: 'The response did not satisfy its HTTP message signature integrity requirements and was blocked.',
  },
  UnencodedDigestIssue: {
    title: 'A response digest header is invalid',
    explanation: 'The Unencoded-Digest header of the response is malformed or does not match the body.',
  },
  ConnectionAllowlistIssue: {
    title: 'A connection was blocked by the connection allowlist',
    explanation: 'The page declared a connection allowlist that does not include this destination.',
  },
  UserReidentificationIssue: {
    title: 'A resource was blocked to prevent user re-identification',
    explanation: 'A known fingerprinting or tracking resource was blocked or restricted.',
  },
  PermissionElementIssue: {
    title: 'A permission element is misconfigured',
    explanation: 'A <permission> element has invalid attributes or styling and does not work.',
  },
  PerformanceIssue: {
    title: 'The page has a performance problem',
    explanation: 'Chrome detected a pattern that slows the page down; the detail gives the kind.',
  },
  SelectivePermissionsInterventionIssue: {
    title: 'A permission request was blocked by an intervention',
    explanation: 'Chrome blocked a permission-gated API called from an ad or tracking script.',
  },
  EmailVerificationRequestIssue: {
    title: 'An email verification request failed',
    explanation: 'An email verification protocol request failed; the detail gives the reason.',
  },
  LazyLoadImageIssue: {
    title: 'A lazy-loaded image is likely above the fold',
    explanation: 'An image with loading=lazy is visible at load; loading it lazily delays rendering.',
  },
  WebInstallIssue: {
    title: 'A web app install request failed',
    explanation: 'navigator.install failed; the detail gives the reason.',
  },
};

/** Keys whose string values tell apart kinds of the same issue code. */
const VARIANT_KEYS = [
  'errorType',
  'violationType',
  'reason',
  'type',
  'resolutionStatus',
  'corsError',
  'cookieExclusionReasons',
  'cookieWarningReasons',
];

/** The detail object of an issue (the single `<x>IssueDetails` field). */
export function issueDetails(issue: Protocol.Audits.InspectorIssue): Details {
  for (const value of Object.values(issue.details)) {
    if (value && typeof value === 'object') {
      return value as Details;
    }
  }
  return {};
}

/** Values that distinguish kinds of one issue code, e.g. the CORS error or the form error type. */
export function issueVariants(details: Details): string[] {
  const out: string[] = [];
  const visit = (obj: Details, depth: number) => {
    for (const key of VARIANT_KEYS) {
      const value = obj[key];
      if (typeof value === 'string') {
        out.push(value);
      } else if (Array.isArray(value)) {
        out.push(...value.filter((v): v is string => typeof v === 'string'));
      }
    }
    if (depth === 0) {
      for (const value of Object.values(obj)) {
        if (value && typeof value === 'object' && !Array.isArray(value)) {
          visit(value as Details, 1);
        }
      }
    }
  };
  visit(details, 0);
  return out;
}

/** Title and explanation for an issue: the variant's when known, else the code's. */
export function describeIssue(code: string, variants: string[]): IssueText {
  const base = ISSUE_TEXT[code];
  if (!base) {
    const words = code.replace(/Issue$/, '').replace(/([a-z])([A-Z])/g, '$1 $2');
    return {title: `${words} problem`, explanation: `Chrome reported a ${words.toLowerCase()} problem on this page.`};
  }
  for (const variant of variants) {
    const refined = base.variants?.[variant];
    if (refined) {
      return {title: refined.title ?? base.title, explanation: refined.explanation ?? base.explanation};
    }
  }
  return {title: base.title, explanation: base.explanation};
}

/** Groups occurrences: same code and same distinguishing values. */
export function aggregationKey(code: string, variants: string[]): string {
  return `${code}|${variants.join(',')}`;
}
