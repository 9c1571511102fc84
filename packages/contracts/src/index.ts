export * from './projection-version';
export { ProjectionDecodeError } from './projection-error';
export * from './redis-keys';
export * from './partner-config.codec';
export * from './source-route.codec';
export * from './number-index.codec';
export * from './binding.codec';
export * from './call-attribution.codec';
export * from './customer-seen-event.codec';
export * from './projection-writer';
export * from './projection-generation.codec';
// The request checks every replacement request runs are exported by name: a name re-exported with
// `export *` is read through one getter shared by every such name, which V8 can only look up the
// slow way, on each of the twenty-odd calls a request makes (docs/benchmarks.md).
export {
  findUnstorableCharacter,
  isStorableText,
  jsonMayHoldUnstorableText,
  UNSTORABLE_TEXT_RULE,
} from './text-rules';
export {
  ANUM_RULE,
  CALL_ID_RULE,
  callIdProblem,
  canonicalAnum,
  characterCount,
  lengthProblem,
  parameterLimit,
  readAnum,
  TEXT_LIMITS,
  textProblem,
  toStorableText,
  WITHHELD_CALLER,
} from './accept-rules';
export * from './field-label';
export * from './dial-outcome.codec';
export * from './pool-stats.codec';
export {
  isMarketingIdKey,
  MARKETING_ID_KEYS,
  marketingIdProblem,
  marketingIdsOf,
  type MarketingIdKey,
  type MarketingIds,
} from './marketing-ids';
export * from './caller-history';
