import type { PartnerConfig } from '@trackline/contracts';
import { ForbiddenError, signBody, verifySignature } from '@trackline/domain';
import { NotImplementedError } from '../http/replacement-errors';
import type { PartnerConfigStore } from '../partners/partner-config.store';
import type { ProjectionGenerationStore } from '../partners/projection-generation.store';
import { ProjectionsRebuildingError } from '../resilience/projections-rebuilding-error';
import type { AllocationInput, AllocationResult, NumberPoolStore } from '../pools/number-pool.store';
import { DynamicNumbersService } from './dynamic-numbers.service';

const partner: PartnerConfig = {
  advId: 'acme', signingSecret: 'k', country: 'NO', timeZone: 'Europe/Oslo',
  sessionTtlSeconds: 1800, holdBackSeconds: 600, onExhausted: 'original', fallbackNumber: null,
}; // prettier-ignore

class FakePartners implements PartnerConfigStore {
  reads = 0;
  async find(advId: string): Promise<PartnerConfig | null> {
    this.reads++;
    return advId === 'acme' ? partner : null;
  }
}

class FakePool implements NumberPoolStore {
  inputs: AllocationInput[] = [];
  constructor(private readonly result: AllocationResult) {}
  async allocate(input: AllocationInput): Promise<AllocationResult> {
    this.inputs.push(input);
    return this.result;
  }
}

const SESSION = '11111111-2222-4333-8444-555555555555';

function body(overrides: Record<string, unknown> = {}): Buffer {
  return Buffer.from(
    JSON.stringify({
      advId: 'acme', fullUrl: 'u', trackingId: 't', numbers: '22334455, 23456789', type: 'web', fullReferrer: '',
      parameters: { custnr: 'C1', custname: 'Kari' }, userAgent: 'UA', requestIpAddress: 'ip', ...overrides,
    }), // prettier-ignore
  );
}

/** The generation marker's presence (docs/redis-keys.md, Projection generation); counts the reads. */
class FakeGenerations implements ProjectionGenerationStore {
  reads = 0;
  constructor(public complete = true) {}
  async isComplete(): Promise<boolean> {
    this.reads++;
    return this.complete;
  }
}

function service(
  pool: FakePool,
  partners = new FakePartners(),
  generations = new FakeGenerations(),
): DynamicNumbersService {
  return new DynamicNumbersService({ partners, generations, pools: pool, newSessionId: () => SESSION });
}

describe('DynamicNumbersService', () => {
  it('checks an unknown advId against a secret as a known one is checked (same HMAC work)', async () => {
    const secrets: string[] = [];
    const verify = (secret: string, raw: Buffer | string, signature: string | undefined): boolean => {
      secrets.push(secret);
      return verifySignature(secret, raw, signature);
    };
    const pool = new FakePool({ kind: 'allocated', sessionId: SESSION, numbers: [] });
    const checked = new DynamicNumbersService({
      partners: new FakePartners(),
      generations: new FakeGenerations(),
      pools: pool,
      newSessionId: () => SESSION,
      verify,
    });
    const wrong = 'f'.repeat(40);
    await expect(checked.replace(body(), wrong, 0)).rejects.toThrow('Invalid signature');
    await expect(checked.replace(body({ advId: 'nobody' }), wrong, 0)).rejects.toThrow('Invalid signature');
    expect(secrets).toHaveLength(2);
    expect(secrets[0]).toBe('k');
    expect(secrets[1]).toMatch(/^[0-9a-f]{64}$/);
  });

  it('answers an unknown advId 503 while the projections are being rebuilt, 403 once they are complete', async () => {
    const pool = new FakePool({ kind: 'allocated', sessionId: SESSION, numbers: [] });
    const generations = new FakeGenerations(false);
    const replacing = service(pool, new FakePartners(), generations);
    const unknown = body({ advId: 'not-projected-yet' });
    const refusal = replacing.replace(unknown, 'f'.repeat(40), 0);
    await expect(refusal).rejects.toBeInstanceOf(ProjectionsRebuildingError);
    await expect(refusal).rejects.toMatchObject({
      status: 503,
      message: 'Service starting: configuration is being rebuilt, retry shortly',
    });
    // A known partner's wrong signature is wrong whatever Redis holds; it asks as well (same work).
    await expect(replacing.replace(body(), 'f'.repeat(40), 0)).rejects.toThrow(ForbiddenError);
    expect(generations.reads).toBe(2);
    generations.complete = true;
    await expect(replacing.replace(unknown, 'f'.repeat(40), 0)).rejects.toThrow(ForbiddenError);
  });

  it('never asks about the projections for a correctly signed request of a known partner', async () => {
    const pool = new FakePool({ kind: 'allocated', sessionId: SESSION, numbers: ['+4791000001', null] });
    const generations = new FakeGenerations(false);
    const raw = body();
    await service(pool, new FakePartners(), generations).replace(raw, signBody('k', raw), 0);
    expect(generations.reads).toBe(0);
  });

  it('answers the allocated numbers, keeping the page number where none was free', async () => {
    const pool = new FakePool({ kind: 'allocated', sessionId: SESSION, numbers: ['+4791000001', null] });
    const raw = body();
    const result = await service(pool).replace(raw, signBody('k', raw), 1_000);
    expect(result).toEqual({
      success: true,
      numbers: [
        { number_on_page: '22334455', replace_with: { e164: '+4791000001', local: '91 00 00 01' } },
        { number_on_page: '23456789', replace_with: { e164: '+4723456789', local: '23 45 67 89' } },
      ],
      sessionId: SESSION,
    });
    expect(pool.inputs[0]).toMatchObject({
      advId: 'acme', now: 1_000, onExhausted: 'original', sessionId: null, newSessionId: SESSION,
      numbersOnPage: ['+4722334455', '+4723456789'],
      customer: { advId: 'acme', custnr: 'C1', custname: 'Kari', at: 1_000 },
      context: { type: 'web', custnr: 'C1', parameters: { custnr: 'C1', custname: 'Kari' } },
    }); // prettier-ignore
  });

  it('accepts an upper-case signature and passes a UUID session id on, ignoring one that is not ours', async () => {
    const pool = new FakePool({ kind: 'allocated', sessionId: SESSION, numbers: [null, null] });
    const withSession = body({ sessionId: SESSION.toUpperCase() });
    await service(pool).replace(withSession, signBody('k', withSession).toUpperCase(), 0);
    const forged = body({ sessionId: '../../x' });
    await service(pool).replace(forged, signBody('k', forged), 0);
    expect(pool.inputs.map((i) => i.sessionId)).toEqual([SESSION, null]);
  });

  it('answers an unknown partner and a bad signature alike, before looking at other fields', async () => {
    const pool = new FakePool({ kind: 'no_pool' });
    const unknown = Buffer.from(JSON.stringify({ advId: 'nobody' }));
    await expect(service(pool).replace(unknown, signBody('k', unknown), 0)).rejects.toThrow(
      new ForbiddenError('Invalid signature'),
    );
    const incomplete = Buffer.from(JSON.stringify({ advId: 'acme' }));
    await expect(service(pool).replace(incomplete, 'f'.repeat(40), 0)).rejects.toThrow('Invalid signature');
    await expect(service(pool).replace(incomplete, undefined, 0)).rejects.toThrow('Invalid signature');
    await expect(service(pool).replace(incomplete, signBody('k', incomplete), 0)).rejects.toThrow(
      'Missing parameter: fullUrl',
    );
    expect(pool.inputs).toHaveLength(0);
  });

  it('checks JSON and advId without touching Redis', async () => {
    const partners = new FakePartners();
    const pool = new FakePool({ kind: 'no_pool' });
    await expect(service(pool, partners).replace(Buffer.from('nope'), undefined, 0)).rejects.toThrow(
      'Invalid JSON',
    );
    await expect(service(pool, partners).replace(Buffer.from('{}'), undefined, 0)).rejects.toThrow(
      'Missing parameter: advId',
    );
    expect(partners.reads).toBe(0);
  });

  it('sends no customer event without custnr, and 501 without a pool', async () => {
    const pool = new FakePool({ kind: 'no_pool' });
    const raw = body({ parameters: { custname: 'Kari' } });
    await expect(service(pool).replace(raw, signBody('k', raw), 0)).rejects.toThrow(
      new NotImplementedError('No number pool configured'),
    );
    expect(pool.inputs[0]!.customer).toBeNull();
  });

  it('answers a missing pool 503, not 501, while the projections are being rebuilt', async () => {
    // Redis lost its data while this replica still holds the partner's settings in its cache.
    const pool = new FakePool({ kind: 'no_pool' });
    const generations = new FakeGenerations(false);
    const raw = body();
    await expect(
      service(pool, new FakePartners(), generations).replace(raw, signBody('k', raw), 0),
    ).rejects.toBeInstanceOf(ProjectionsRebuildingError);
    generations.complete = true;
    await expect(
      service(pool, new FakePartners(), generations).replace(raw, signBody('k', raw), 0),
    ).rejects.toThrow(new NotImplementedError('No number pool configured'));
  });
});
