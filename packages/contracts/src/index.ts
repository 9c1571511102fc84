// What every replacement request calls is exported by name: a name re-exported with `export *` is
// read through one getter shared by every such name, which V8 can only look up the slow way, on
// each of the twenty-odd calls a request makes (docs/benchmarks.md).
export * from './projection-version';
export { ProjectionDecodeError } from './projection-error';
export * from './redis-keys';
export * from './partner-config.codec';
export * from './source-route.codec';
export {
  callRecordingFor,
  CONSENT_MAX_LENGTH,
  DEFAULT_CONSENT_ANNOUNCEMENT,
  type CallRecordingDecision,
  type SourceCallRecording,
} from './call-recording';
export * from './number-index.codec';
export {
  decodeBinding,
  encodeBindingContext,
  type Binding,
  type BindingContext,
  type VisitorType,
} from './binding.codec';
export * from './call-attribution.codec';
export {
  CUSTOMER_EVENTS_GROUP,
  CUSTOMER_EVENTS_MAXLEN,
  CUSTOMER_SEEN_EVENT_TYPE,
  CUSTOMER_SEEN_EVENT_VERSION,
  CUSTOMER_SEEN_RESEND_MS,
  customerMarker,
  customerSeenPeriod,
  decodeCustomerSeenEvent,
  encodeCustomerSeenEvent,
  type CustomerSeenEvent,
} from './customer-seen-event.codec';
export * from './projection-writer';
export * from './projection-generation.codec';
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
export {
  decodePoolHourStats,
  HOUR_MS,
  POOL_STATS_FIELDS,
  POOL_STATS_KEEP_HOURS,
  poolStatsHour,
  type PoolHourStats,
} from './pool-stats.codec';
export {
  isMarketingIdKey,
  MARKETING_ID_KEYS,
  marketingIdProblem,
  marketingIdsOf,
  type MarketingIdKey,
  type MarketingIds,
} from './marketing-ids';
export * from './caller-history';
