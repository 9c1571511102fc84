import type { CallAttribution, PartnerConfig, SourceRoute } from '@trackline/contracts';
import { selectAnsweringNumber, VOICEMAIL_TARGET } from '@trackline/domain';
import type { PartnerConfigStore } from '../partners/partner-config.store';
import type { CallRoutingStore, PoolBinding } from './call-routing.store';

export interface RouteCallInput {
  callId: string;
  anum: string;
  /** The dialled tracking number, E.164. */
  bnum: string;
  at: Date;
}

/** The switch's instruction (SPEC §5); absent fields are left out of the JSON. */
export interface RouteDecision {
  action: 'dial' | 'voicemail' | 'reject';
  target?: string;
  partner: string | null;
  customer_id?: string;
  source_id?: string;
  session_id?: string;
  vm_greeting_id?: string;
}

export class CallRoutingService {
  constructor(
    private readonly partners: PartnerConfigStore,
    private readonly store: CallRoutingStore,
  ) {}

  async route(input: RouteCallInput): Promise<RouteDecision> {
    const entry = await this.store.findNumber(input.bnum);
    // Not one of ours: nothing to attribute, and no partner's key space to store it in.
    if (entry === null) return { action: 'reject', partner: null };
    const partner = await this.partners.find(entry.advId);
    if (partner === null) return { action: 'reject', partner: entry.advId };

    let decision: RouteDecision;
    let attribution: CallAttribution;
    if (entry.kind === 'pool') {
      const bound = await this.store.findPoolBinding(entry.advId, input.bnum, input.at.getTime());
      if (bound === null) {
        decision = fallback(partner);
        attribution = attributionOf(input, partner, decision, null, null, false);
      } else {
        // The binding's answering number may be a source's: its rules apply and the call is its lead.
        const source = await this.store.findSourceByPhonenr(entry.advId, bound.binding.numberOnPage);
        decision =
          source === null
            ? { action: 'dial', target: bound.binding.numberOnPage, partner: partner.advId }
            : applySource(source, partner, input.at);
        decision.session_id = bound.binding.sessionId;
        attribution = attributionOf(input, partner, decision, source, bound, !bound.sessionLive);
      }
    } else {
      const source = await this.store.findStaticRoute(entry.advId, input.bnum);
      decision = source === null ? fallback(partner) : applySource(source, partner, input.at);
      attribution = attributionOf(input, partner, decision, source, null, source?.closed ?? false);
    }
    await this.store.saveAttribution(attribution);
    return decision;
  }
}

function fallback(partner: PartnerConfig): RouteDecision {
  return partner.fallbackNumber === null
    ? { action: 'reject', partner: partner.advId }
    : { action: 'dial', target: partner.fallbackNumber, partner: partner.advId };
}

/** vm_divert_all, then the alt-number rule in force at the call's local time, else the source's number. */
function applySource(source: SourceRoute, partner: PartnerConfig, at: Date): RouteDecision {
  const base = { partner: partner.advId, customer_id: source.customerId, source_id: source.sourceId };
  const target = source.vmDivertAll
    ? VOICEMAIL_TARGET
    : selectAnsweringNumber(source.altNumbers, source.phonenr, at, partner.timeZone).target;
  if (target !== VOICEMAIL_TARGET) return { action: 'dial', target, ...base };
  return source.vmGreetingId === null
    ? { action: 'voicemail', ...base }
    : { action: 'voicemail', ...base, vm_greeting_id: source.vmGreetingId };
}

function attributionOf(
  input: RouteCallInput,
  partner: PartnerConfig,
  decision: RouteDecision,
  source: SourceRoute | null,
  bound: PoolBinding | null,
  quarantined: boolean,
): CallAttribution {
  const context = bound?.binding.context ?? null;
  return {
    callId: input.callId,
    advId: partner.advId,
    anum: input.anum,
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
  };
}
