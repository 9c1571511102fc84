import { ATTRIBUTION_KINDS, readStirVerstat, type AttributionKind } from '@trackline/domain';
import { fail, parseJsonObject, readBoolean, readNullableString, readString } from './projection-error';

/** How long a routed call's attribution waits for its call record (docs/switch.md). */
export const CALL_ATTRIBUTION_TTL_SECONDS = 7 * 24 * 60 * 60;

export type RouteAction = 'dial' | 'voicemail' | 'reject';

/**
 * What replacement decided for one call and what it knew about it, stored under `call:<call_id>`
 * for management to join onto the call record. DNI fields are null when no pool binding carried the call.
 */
export interface CallAttribution {
  callId: string;
  advId: string;
  anum: string;
  bnum: string;
  /** ISO 8601 UTC instant the call was routed for. */
  at: string;
  action: RouteAction;
  target: string | null;
  sourceId: string | null;
  customerId: string | null;
  vmGreetingId: string | null;
  sessionId: string | null;
  trackingId: string | null;
  fullUrl: string | null;
  fullReferrer: string | null;
  custnr: string | null;
  parameters: Record<string, string> | null;
  /** The dialled number was held back: a pool number past its session, or a closed source's number. */
  quarantined: boolean;
  /** How sure the attribution is; null when an older replacement wrote it without (docs/cdrs.md). */
  kind: AttributionKind | null;
  /** Epoch ms the pool binding that carried the call was created; null without one. */
  boundAt: number | null;
  /** The provider's STIR/SHAKEN verification (`StirVerstat`, docs/spam.md); null when none was sent. */
  stirVerstat?: string | null;
}

const WHAT = 'call attribution';
const ACTIONS: readonly RouteAction[] = ['dial', 'voicemail', 'reject'];

export function encodeCallAttribution(attribution: CallAttribution): string {
  return JSON.stringify({
    call_id: attribution.callId,
    adv_id: attribution.advId,
    anum: attribution.anum,
    bnum: attribution.bnum,
    at: attribution.at,
    action: attribution.action,
    target: attribution.target,
    source_id: attribution.sourceId,
    customer_id: attribution.customerId,
    vm_greeting_id: attribution.vmGreetingId,
    session_id: attribution.sessionId,
    tracking_id: attribution.trackingId,
    full_url: attribution.fullUrl,
    full_referrer: attribution.fullReferrer,
    custnr: attribution.custnr,
    parameters: attribution.parameters,
    quarantined: attribution.quarantined,
    attribution_kind: attribution.kind,
    bound_at: attribution.boundAt,
    // Left out when none, so an attribution without it is byte for byte what it was before.
    ...(attribution.stirVerstat == null ? {} : { stir_verstat: attribution.stirVerstat }),
  });
}

export function decodeCallAttribution(raw: string): CallAttribution {
  const record = parseJsonObject(WHAT, raw);
  const action = readString(WHAT, record, 'action') as RouteAction;
  if (!ACTIONS.includes(action)) fail(WHAT, `action must be one of ${ACTIONS.join(', ')}`);
  const parameters = record.parameters;
  if (parameters !== null && (typeof parameters !== 'object' || Array.isArray(parameters))) {
    fail(WHAT, 'parameters must be an object or null');
  }
  return {
    callId: readString(WHAT, record, 'call_id'),
    advId: readString(WHAT, record, 'adv_id'),
    anum: readString(WHAT, record, 'anum'),
    bnum: readString(WHAT, record, 'bnum'),
    at: readString(WHAT, record, 'at'),
    action,
    target: readNullableString(WHAT, record, 'target'),
    sourceId: readNullableString(WHAT, record, 'source_id'),
    customerId: readNullableString(WHAT, record, 'customer_id'),
    vmGreetingId: readNullableString(WHAT, record, 'vm_greeting_id'),
    sessionId: readNullableString(WHAT, record, 'session_id'),
    trackingId: readNullableString(WHAT, record, 'tracking_id'),
    fullUrl: readNullableString(WHAT, record, 'full_url'),
    fullReferrer: readNullableString(WHAT, record, 'full_referrer'),
    custnr: readNullableString(WHAT, record, 'custnr'),
    parameters: parameters as Record<string, string> | null,
    quarantined: readBoolean(WHAT, record, 'quarantined'),
    kind: readKind(record),
    boundAt: readBoundAt(record),
    ...stirVerstatOf(record),
  };
}

// Both absent in what replacement wrote before attribution confidence existed: read as unknown.
function readKind(record: Record<string, unknown>): AttributionKind | null {
  const kind = readNullableString(WHAT, record, 'attribution_kind');
  if (kind !== null && !ATTRIBUTION_KINDS.includes(kind as AttributionKind))
    fail(WHAT, `attribution_kind must be one of ${ATTRIBUTION_KINDS.join(', ')}`);
  return kind as AttributionKind | null;
}

function readBoundAt(record: Record<string, unknown>): number | null {
  const boundAt = record.bound_at;
  if (boundAt === null || boundAt === undefined) return null;
  if (typeof boundAt !== 'number' || !Number.isSafeInteger(boundAt))
    fail(WHAT, 'bound_at must be an integer');
  return boundAt;
}

// Absent when the call had none (and in what replacement wrote before spam scoring existed).
function stirVerstatOf(record: Record<string, unknown>): { stirVerstat?: string } {
  const value = record.stir_verstat;
  if (value === undefined || value === null) return {};
  if (typeof value !== 'string') fail(WHAT, 'stir_verstat must be a string');
  const known = readStirVerstat(value);
  return known === null ? {} : { stirVerstat: known };
}
