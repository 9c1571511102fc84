import {
  canonicalAnum,
  type CallAttribution,
  type PartnerConfig,
  type SourceCallRecording,
  type SourceSpamPolicy,
  type StoredSourceRoute,
} from '@trackline/contracts';
import {
  attributionKindOf,
  selectAnsweringNumber,
  VOICEMAIL_TARGET,
  type AttributedCall,
} from '@trackline/domain';
import type { PartnerConfigStore } from '../partners/partner-config.store';
import {
  assertProjectionsComplete,
  type ProjectionGenerationStore,
} from '../partners/projection-generation.store';
import type { CallRoutingStore, PoolBinding } from './call-routing.store';

export interface RouteCallInput {
  callId: string;
  /** As `readAnum` accepted it; stored in the partner's one form (`canonicalAnum`). */
  anum: string;
  /** The dialled tracking number, E.164. */
  bnum: string;
  at: Date;
  /** The provider's STIR/SHAKEN verification, kept with the attribution for the record (docs/spam.md). */
  stirVerstat?: string | null;
}

/** Where a dialled call goes when its target is busy or does not answer; null: nowhere else. */
export type DialFallback = typeof VOICEMAIL_TARGET | null;

/**
 * The switch's instruction (docs/switch.md); absent fields are left out of the JSON. Every `dial` carries
 * `on_busy` and `on_no_answer` (the source's busy / no-answer diversion; null when the call has no
 * source or the source does not divert), and `vm_greeting_id` when one of them is voicemail and the
 * source has a greeting.
 */
export interface RouteDecision {
  action: 'dial' | 'voicemail' | 'reject';
  target?: string;
  partner: string | null;
  customer_id?: string;
  source_id?: string;
  session_id?: string;
  on_busy?: DialFallback;
  on_no_answer?: DialFallback;
  vm_greeting_id?: string;
}

export interface RoutedCall {
  decision: RouteDecision;
  /**
   * The source route was projected under an older projection version, so its busy / no-answer
   * diversion is unknown and left out (null) until management rebuilds the projections.
   */
  staleRoute: boolean;
  /** What was stored for the record; null when the number is not one of ours. */
  attribution: CallAttribution | null;
  /** The call's source's own spam policy (docs/spam.md, Per source); null: the partner's applies. */
  sourceSpamPolicy: SourceSpamPolicy | null;
  /** The call's source's own recording settings (docs/telephony.md, Recording answered calls); null: the partner's. */
  sourceCallRecording: SourceCallRecording | null;
}

export class CallRoutingService {
  constructor(
    private readonly partners: PartnerConfigStore,
    private readonly store: CallRoutingStore,
    /** Whether a miss is real, or Redis is being rebuilt (docs/redis-keys.md, Projection generation). */
    private readonly generations: ProjectionGenerationStore,
  ) {}

  async route(input: RouteCallInput): Promise<RoutedCall> {
    const entry = await this.store.findNumber(input.bnum);
    // Not one of ours: nothing to attribute, and no partner's key space to store it in. Unless the
    // index is being rebuilt: then the call is answered 503 and the switch or provider falls back.
    if (entry === null) {
      await assertProjectionsComplete(this.generations);
      return {
        decision: { action: 'reject', partner: null },
        staleRoute: false,
        attribution: null,
        sourceSpamPolicy: null,
        sourceCallRecording: null,
      };
    }
    const partner = await this.partners.find(entry.advId);
    if (partner === null) {
      await assertProjectionsComplete(this.generations);
      return {
        decision: { action: 'reject', partner: entry.advId },
        staleRoute: false,
        attribution: null,
        sourceSpamPolicy: null,
        sourceCallRecording: null,
      };
    }

    let decision: RouteDecision;
    let attribution: CallAttribution;
    let source: StoredSourceRoute | null = null;
    if (entry.kind === 'pool') {
      const bound = await this.store.findPoolBinding(entry.advId, input.bnum, input.at.getTime());
      if (bound === null) {
        decision = fallback(partner);
        attribution = attributionOf(input, partner, decision, null, null, false, {
          number: 'pool',
          binding: null,
        });
      } else {
        // The binding's answering number may be a source's: its rules apply and the call is its lead.
        source = await this.store.findSourceByPhonenr(entry.advId, bound.binding.numberOnPage);
        decision =
          source === null
            ? dial(bound.binding.numberOnPage, partner)
            : applySource(source, partner, input.at);
        decision.session_id = bound.binding.sessionId;
        const { recycled } = bound.binding;
        attribution = attributionOf(input, partner, decision, source, bound, !bound.sessionLive, {
          number: 'pool',
          binding: { recycled, sessionLive: bound.sessionLive },
        });
      }
    } else {
      source = await this.store.findStaticRoute(entry.advId, input.bnum);
      decision = source === null ? fallback(partner) : applySource(source, partner, input.at);
      attribution = attributionOf(input, partner, decision, source, null, source?.closed ?? false, {
        number: 'static',
        hasSource: source !== null,
      });
    }
    await this.store.saveAttribution(attribution);
    return {
      decision,
      staleRoute: source?.stale ?? false,
      attribution,
      sourceSpamPolicy: source?.spamPolicy ?? null,
      sourceCallRecording: source?.callRecording ?? null,
    };
  }

  /**
   * The provider's voice webhook answered otherwise than routed (a spam policy, docs/spam.md): the
   * attribution says so, so management waits for a recording of a call sent to voicemail and for no
   * dial result of a call that was never dialled.
   */
  async answeredOtherwise(attribution: CallAttribution, action: 'voicemail' | 'reject'): Promise<void> {
    await this.store.saveAttribution({ ...attribution, action, target: null });
  }
}

/** A dial without a source: the switch has nowhere to send it on busy or no answer. */
function dial(target: string, partner: PartnerConfig): RouteDecision {
  return { action: 'dial', target, partner: partner.advId, on_busy: null, on_no_answer: null };
}

function fallback(partner: PartnerConfig): RouteDecision {
  return partner.fallbackNumber === null
    ? { action: 'reject', partner: partner.advId }
    : dial(partner.fallbackNumber, partner);
}

/**
 * vm_divert_all, then the alt-number rule in force at the call's local time, else the source's
 * number. A dial keeps the source's busy / no-answer diversion whichever number it rings: the
 * voicemail box is the source's, not the answering number's.
 */
function applySource(source: StoredSourceRoute, partner: PartnerConfig, at: Date): RouteDecision {
  const base = { partner: partner.advId, customer_id: source.customerId, source_id: source.sourceId };
  const greeting = source.vmGreetingId === null ? {} : { vm_greeting_id: source.vmGreetingId };
  const target = source.vmDivertAll
    ? VOICEMAIL_TARGET
    : selectAnsweringNumber(source.altNumbers, source.phonenr, at, partner.timeZone).target;
  if (target === VOICEMAIL_TARGET) return { action: 'voicemail', ...base, ...greeting };
  const onBusy: DialFallback = source.vmDivertBusy ? VOICEMAIL_TARGET : null;
  const onNoAnswer: DialFallback = source.vmDivertNoanswer ? VOICEMAIL_TARGET : null;
  const diverts = onBusy !== null || onNoAnswer !== null;
  return {
    action: 'dial',
    target,
    ...base,
    on_busy: onBusy,
    on_no_answer: onNoAnswer,
    ...(diverts ? greeting : {}),
  };
}

function attributionOf(
  input: RouteCallInput,
  partner: PartnerConfig,
  decision: RouteDecision,
  source: StoredSourceRoute | null,
  bound: PoolBinding | null,
  quarantined: boolean,
  called: AttributedCall,
): CallAttribution {
  const context = bound?.binding.context ?? null;
  return {
    callId: input.callId,
    advId: partner.advId,
    anum: canonicalAnum(input.anum, partner.country),
    bnum: input.bnum,
    at: input.at.toISOString(),
    action: decision.action,
    target: decision.target ?? null,
    sourceId: source?.sourceId ?? null,
    customerId: source?.customerId ?? null,
    vmGreetingId: decision.vm_greeting_id ?? null,
    sessionId: bound?.binding.sessionId ?? null,
    trackingId: context?.trackingId ?? null,
    fullUrl: context?.fullUrl ?? null,
    fullReferrer: context?.fullReferrer ?? null,
    custnr: context?.custnr ?? null,
    parameters: context?.parameters ?? null,
    quarantined,
    kind: attributionKindOf(called),
    boundAt: bound?.binding.boundAt ?? null,
    ...(input.stirVerstat == null ? {} : { stirVerstat: input.stirVerstat }),
  };
}
