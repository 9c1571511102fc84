/**
 * The ad-click and analytics ids a replacement request's `parameters` may carry
 * (docs/number-replacement.md, Click and analytics ids): they travel with the binding to the call
 * record, where each has its own column, and the conversion export sends them to Google
 * (docs/conversions.md). Both services check them with the same rules.
 */
export const MARKETING_ID_KEYS = ['gclid', 'gbraid', 'wbraid', 'ga_client_id', 'ga_session_id'] as const;
export type MarketingIdKey = (typeof MARKETING_ID_KEYS)[number];

export interface MarketingIds {
  gclid: string | null;
  gbraid: string | null;
  wbraid: string | null;
  gaClientId: string | null;
  gaSessionId: string | null;
}

interface MarketingIdRule {
  /** cdrs column size. */
  maxLength: number;
  pattern: RegExp;
  rule: string;
}

// Google's click ids are URL-safe base64 text; a GA client id is the `_ga` cookie's
// "<random>.<seconds>" (or its "GA1.1." form); a GA session id is the `_ga_<stream>` cookie's
// session start in seconds.
const CLICK_ID: MarketingIdRule = {
  maxLength: 150,
  pattern: /^[A-Za-z0-9_-]+$/,
  rule: 'must be 1 to 150 characters of A-Z, a-z, 0-9, "-" and "_"',
};

const MARKETING_ID_RULES: Record<MarketingIdKey, MarketingIdRule> = {
  gclid: CLICK_ID,
  gbraid: CLICK_ID,
  wbraid: CLICK_ID,
  ga_client_id: {
    maxLength: 64,
    pattern: /^[A-Za-z0-9._-]+$/,
    rule: 'must be 1 to 64 characters of A-Z, a-z, 0-9, ".", "-" and "_"',
  },
  ga_session_id: { maxLength: 20, pattern: /^[0-9]+$/, rule: 'must be 1 to 20 digits' },
};

export function isMarketingIdKey(key: string): key is MarketingIdKey {
  return (MARKETING_ID_KEYS as readonly string[]).includes(key);
}

/** The broken rule of a marketing id (`must be …`), or undefined when accepted. */
export function marketingIdProblem(key: MarketingIdKey, value: string): string | undefined {
  const { maxLength, pattern, rule } = MARKETING_ID_RULES[key];
  return value.length <= maxLength && pattern.test(value) ? undefined : rule;
}

/**
 * The ids a stored binding's parameters carry. A value an older replacement accepted without the
 * rules is left out rather than stored broken: the record keeps it in `parameters` as sent.
 */
export function marketingIdsOf(parameters: Record<string, unknown> | null | undefined): MarketingIds {
  const read = (key: MarketingIdKey): string | null => {
    const value = parameters?.[key];
    return typeof value === 'string' && marketingIdProblem(key, value) === undefined ? value : null;
  };
  return {
    gclid: read('gclid'),
    gbraid: read('gbraid'),
    wbraid: read('wbraid'),
    gaClientId: read('ga_client_id'),
    gaSessionId: read('ga_session_id'),
  };
}
