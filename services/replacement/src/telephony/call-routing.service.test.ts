import type { CallAttribution, NumberIndexEntry, StoredSourceRoute } from '@trackline/contracts';
import { partnerConfig, sourceRoute } from '../test-support/fixtures';
import { ProjectionsRebuildingError } from '../resilience/projections-rebuilding-error';
import { CallRoutingService } from './call-routing.service';
import type { CallRoutingStore, PoolBinding } from './call-routing.store';

const partner = partnerConfig('acme');
const AT = new Date('2026-01-05T10:00:00Z');

/** One static number with the route given; records the attributions saved. */
class StaticRouteStore implements CallRoutingStore {
  readonly saved: CallAttribution[] = [];
  constructor(private readonly route: StoredSourceRoute) {}
  async findNumber(number: string): Promise<NumberIndexEntry | null> {
    return number === this.route.destnr ? { advId: 'acme', kind: 'static' } : null;
  }
  async findPoolBinding(): Promise<PoolBinding | null> {
    return null;
  }
  async findStaticRoute(_advId: string, destnr: string): Promise<StoredSourceRoute | null> {
    return destnr === this.route.destnr ? this.route : null;
  }
  async findSourceByPhonenr(): Promise<StoredSourceRoute | null> {
    return null;
  }
  async saveAttribution(attribution: CallAttribution): Promise<void> {
    this.saved.push(attribution);
  }
}

function serviceFor(route: StoredSourceRoute): { service: CallRoutingService; store: StaticRouteStore } {
  const store = new StaticRouteStore(route);
  return { service: new CallRoutingService({ find: async () => partner }, store, complete), store };
}

const complete = { isComplete: async () => true };

const call = { callId: 'c1', anum: '+4799999999', bnum: '+4790000001', at: AT };

describe('CallRoutingService busy / no-answer diversion', () => {
  it('says when the route it used is stale, so the caller can log it', async () => {
    const stale = serviceFor({ ...sourceRoute(), stale: true });
    expect(await stale.service.route(call)).toEqual({
      decision: expect.objectContaining({ action: 'dial', on_busy: null, on_no_answer: null }),
      staleRoute: true,
      attribution: expect.objectContaining({ callId: call.callId, action: 'dial' }),
      sourceCallRecording: null,
      sourceSpamPolicy: null,
    });
    const spamPolicy = { policy: 'reject' as const, threshold: 40 };
    const callRecording = { recordCalls: true, consentAnnouncement: null };
    const fresh = serviceFor({
      ...sourceRoute({ vmDivertNoanswer: true, spamPolicy, callRecording }),
      stale: false,
    });
    expect(await fresh.service.route(call)).toEqual({
      decision: expect.objectContaining({ on_busy: null, on_no_answer: 'voicemail' }),
      staleRoute: false,
      attribution: expect.objectContaining({ callId: call.callId, action: 'dial' }),
      sourceSpamPolicy: spamPolicy,
      sourceCallRecording: callRecording,
    });
  });

  it('gives vm_divert_all precedence: a voicemail action carries no dial fallbacks', async () => {
    const route = sourceRoute({ vmDivertAll: true, vmDivertBusy: true, vmGreetingId: '3' });
    const { service, store } = serviceFor({ ...route, stale: false });
    expect((await service.route(call)).decision).toEqual({
      action: 'voicemail',
      partner: 'acme',
      customer_id: '7',
      source_id: '101',
      vm_greeting_id: '3',
    });
    expect(store.saved[0]).toMatchObject({ action: 'voicemail', vmGreetingId: '3' });
  });

  it('leaves the greeting out of a dial that cannot reach voicemail', async () => {
    const { service, store } = serviceFor({ ...sourceRoute({ vmGreetingId: '3' }), stale: false });
    const { decision } = await service.route(call);
    expect(decision).toEqual({
      action: 'dial',
      target: '+4722334455',
      partner: 'acme',
      customer_id: '7',
      source_id: '101',
      on_busy: null,
      on_no_answer: null,
    });
    expect(store.saved[0]!.vmGreetingId).toBeNull();
  });
});

describe('CallRoutingService while Redis is being rebuilt', () => {
  const route = { ...sourceRoute(), stale: false };
  const rebuilding = { isComplete: async () => false };

  it('answers 503 for a number the index does not hold yet instead of rejecting the call', async () => {
    const routing = new CallRoutingService(
      { find: async () => partner },
      new StaticRouteStore(route),
      rebuilding,
    );
    await expect(routing.route({ ...call, bnum: '+4790000999' })).rejects.toBeInstanceOf(
      ProjectionsRebuildingError,
    );
  });

  it('answers 503 for an indexed number whose partner is not projected yet', async () => {
    const routing = new CallRoutingService(
      { find: async () => null },
      new StaticRouteStore(route),
      rebuilding,
    );
    await expect(routing.route(call)).rejects.toBeInstanceOf(ProjectionsRebuildingError);
  });

  it('routes what it finds, and rejects a number of nobody once the projections are complete', async () => {
    const store = new StaticRouteStore(route);
    const routing = new CallRoutingService({ find: async () => partner }, store, rebuilding);
    expect((await routing.route(call)).decision.action).toBe('dial');
    const complete = new CallRoutingService({ find: async () => partner }, store, {
      isComplete: async () => true,
    });
    expect((await complete.route({ ...call, bnum: '+4790000999' })).decision).toEqual({
      action: 'reject',
      partner: null,
    });
  });
});
