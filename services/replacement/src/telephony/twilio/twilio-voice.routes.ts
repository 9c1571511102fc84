import {
  callRecordingFor,
  canonicalAnum,
  dialAnswered,
  isKeySafeAdvId,
  readAnum,
  WITHHELD_CALLER,
  type CallerHistoryStore,
} from '@trackline/contracts';
import { normalizePhoneNumber, readStirVerstat, ValidationError } from '@trackline/domain';
import type { TwilioVoiceConfig } from '../../config/replacement-config';
import type { BaseRouteContext, ProviderRouteDefinition } from '../../http/route-definition';
import { withStoreDeadline } from '../../http/store-deadline';
import type { ReplacementMetrics } from '../../metrics/replacement-metrics';
import type { PartnerConfigStore } from '../../partners/partner-config.store';
import type { CallRoutingService } from '../call-routing.service';
import type { DialOutcomeStore } from './dial-outcome.store';
import { judgeVoiceCall, type SpamVerdict } from './spam-screening';
import { CALL_SID_PATTERN, CALL_SID_RULE, requiredField, type WebhookForm } from './twilio-form';
import {
  connectTwiml,
  decisionTwiml,
  hangupTwiml,
  parseDialQuery,
  rejectTwiml,
  screenTwiml,
  TWILIO_PATHS,
  voicemailTwiml,
} from './twilio-twiml';

export interface TwilioVoiceRoutesDeps {
  routing: CallRoutingService;
  /** The partner's ring timeout and screening setting. */
  partners: PartnerConfigStore;
  dialOutcomes: DialOutcomeStore;
  /** The caller's recent history and the partner's spam lists (docs/spam.md). */
  callerHistory: Pick<CallerHistoryStore, 'noteCall'>;
  config: TwilioVoiceConfig;
  clock: () => number;
  /** Every Redis round trip of one webhook together must finish within this (the 200 ms budget). */
  storeDeadlineMs: number;
  metrics: Pick<ReplacementMetrics, 'routeDecision' | 'unknownNumberCalled'>;
}

const DIAL_STATUSES = new Set(['completed', 'answered', 'busy', 'no-answer', 'failed', 'canceled']);
const NUMBER_PATTERN = /^\+?[0-9]{3,20}$/;

/**
 * The provider's voice webhooks (docs/telephony.md): the routing decision of `/telephony/route`
 * rendered as TwiML; route definitions for the one registration (http/mount-routes.ts), which
 * checks the provider's signature first. A store outage answers 503 at once, so the provider
 * turns to the number's fallback URL.
 */
export function twilioVoiceRoutes(deps: TwilioVoiceRoutesDeps): ProviderRouteDefinition[] {
  const { config } = deps;
  const webhook = (
    path: string,
    answer: (context: BaseRouteContext & { form: WebhookForm }) => Promise<string>,
  ): ProviderRouteDefinition => ({
    method: 'POST',
    path,
    access: 'provider',
    signature: { publicUrl: config.publicUrl, authToken: config.authToken },
    handle: async (context) => ({ kind: 'twiml', xml: await answer(context) }),
  });

  const voice = webhook(TWILIO_PATHS.voice, async ({ form, log }) => {
    const callId = requiredField(form, 'CallSid', CALL_SID_PATTERN, CALL_SID_RULE);
    // The one reading of every edge (docs/switch.md, "Numbers"); the caller is read in the partner's
    // country by the routing. A From no record could hold is a caller the provider could not name.
    const bnum = normalizePhoneNumber(
      'To',
      requiredField(form, 'To', NUMBER_PATTERN, 'must be a phone number'),
      null,
    );
    const caller = readAnum(form.get('From') ?? '');
    const anum = 'anum' in caller ? caller.anum : WITHHELD_CALLER;
    // Signed with the other POST fields; absent outside the US (docs/spam.md).
    const stirVerstat = readStirVerstat(form.get('StirVerstat'));
    const now = deps.clock();
    const { decision, partnerConfig, spam, sourceCallRecording } = await withStoreDeadline(
      (async () => {
        const { decision, attribution, sourceSpamPolicy, sourceCallRecording } = await deps.routing.route({
          callId,
          anum,
          bnum,
          at: new Date(now),
          stirVerstat,
        });
        // The routing just read it: from the in-process cache (PARTNER_CONFIG_CACHE_MS).
        const partnerConfig = decision.partner === null ? null : await deps.partners.find(decision.partner);
        const spam: SpamVerdict | null =
          partnerConfig === null || decision.action === 'reject'
            ? null
            : await judgeVoiceCall(
                deps.callerHistory,
                partnerConfig,
                {
                  anum: canonicalAnum(anum, partnerConfig.country),
                  bnum,
                  stirVerstat,
                  atMs: now,
                },
                sourceSpamPolicy,
              );
        if (attribution !== null && (spam?.handling === 'reject' || spam?.handling === 'voicemail'))
          await deps.routing.answeredOtherwise(attribution, spam.handling);
        return { decision, partnerConfig, spam, sourceCallRecording };
      })(),
      deps.storeDeadlineMs,
    );
    deps.metrics.routeDecision(decision.action);
    if (decision.partner === null) deps.metrics.unknownNumberCalled('provider');
    log.info(
      {
        callId,
        action: decision.action,
        partner: decision.partner,
        spamScore: spam?.score,
        spam: spam?.handling,
      },
      'provider call routed',
    );
    if (spam?.handling === 'reject') return rejectTwiml();
    if (spam?.handling === 'voicemail')
      return voicemailTwiml(config, bnum, decision.vm_greeting_id ?? null, now);
    const handling = {
      ringTimeoutSeconds: partnerConfig?.ringTimeoutSeconds ?? config.ringTimeoutSeconds,
      // A challenged call is screened: the answering phone must press 1 (docs/telephony.md).
      screenCalls: partnerConfig?.screenCalls === true || spam?.handling === 'challenge',
      // From the projections the routing read: no round trip more on the call's path.
      recording: callRecordingFor(partnerConfig ?? {}, sourceCallRecording),
    };
    return decisionTwiml(decision, bnum, config, handling, now);
  });

  const dialResult = webhook(TWILIO_PATHS.dialResult, async ({ form, query, log }) => {
    const context = parseDialQuery(query);
    if (context === null) throw new ValidationError('query', 'is not a dial-result link Trackline made');
    const callId = requiredField(form, 'CallSid', CALL_SID_PATTERN, CALL_SID_RULE);
    const reported = requiredField(form, 'DialCallStatus', /^[a-z-]{1,20}$/, 'must be a dial status');
    if (!DIAL_STATUSES.has(reported))
      throw new ValidationError('DialCallStatus', `must be one of ${[...DIAL_STATUSES].join(', ')}`);
    // A screened call counts as answered only when the answering phone pressed 1; an answering
    // machine (or a person declining) that picked up is a call nobody answered.
    const status =
      context.screened &&
      dialAnswered(reported) &&
      !(await withStoreDeadline(deps.dialOutcomes.accepted(context.advId, callId), deps.storeDeadlineMs))
        ? 'no-answer'
        : reported;
    const rawDuration = form.get('DialCallDuration') ?? '0';
    if (!/^\d{1,9}$/.test(rawDuration))
      throw new ValidationError('DialCallDuration', 'must be whole seconds');
    const divert = (status === 'busy' && context.onBusy) || (status === 'no-answer' && context.onNoAnswer);
    const now = deps.clock();
    await withStoreDeadline(
      deps.dialOutcomes.save(context.advId, {
        callId,
        status,
        durationSeconds: dialAnswered(status) ? Number(rawDuration) : 0,
        voicemail: divert,
        at: new Date(now).toISOString(),
      }),
      deps.storeDeadlineMs,
    );
    log.info({ callId, status, divert }, 'provider dial ended');
    return divert ? voicemailTwiml(config, context.bnum, context.vmGreetingId, now) : hangupTwiml();
  });

  // <Number url>: the whisper to the answering phone, then its key press (docs/telephony.md).
  const screen = webhook(TWILIO_PATHS.screen, async ({ form, query, log }) => {
    const advId = query.get('adv');
    if (!isKeySafeAdvId(advId)) throw new ValidationError('adv', 'must name a partner in the screening link');
    if (query.get('step') !== 'answer') return screenTwiml(config, advId);
    // The whisper runs on the dialled leg; the call it belongs to is its parent.
    const parent = form.get('ParentCallSid') ?? '';
    const callId = CALL_SID_PATTERN.test(parent)
      ? parent
      : requiredField(form, 'CallSid', CALL_SID_PATTERN, CALL_SID_RULE);
    if (form.get('Digits') !== '1') return hangupTwiml();
    await withStoreDeadline(deps.dialOutcomes.accept(advId, callId), deps.storeDeadlineMs);
    log.info({ callId }, 'screened call accepted');
    return connectTwiml();
  });

  // <Record action>: without it the provider would fetch the voice URL again and route the call anew.
  const recorded = webhook(TWILIO_PATHS.recorded, async () => hangupTwiml());

  return [voice, dialResult, screen, recorded];
}
