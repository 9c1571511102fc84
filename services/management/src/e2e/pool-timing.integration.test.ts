import { formatUtcTimestamp } from '@trackline/domain';
import { E2E_TIMEOUT_MS, startE2eEnvironment, type E2eEnvironment } from '../test-support/e2e-environment';

const PARTNER = {
  advId: 'timing-acme',
  username: 'timing-acme-api',
  password: 'correct horse',
  signingSecret: 'a-signing-secret-of-32-characters',
};
const POOL_NUMBERS = ['+4791400001', '+4791400002', '+4791400003'];
const AT = Date.parse('2026-03-02T08:00:00Z');
const SECOND = 1000;

type Body = Record<string, unknown>;

// The session lifetime and hold-back are the partner's settings, overridden by the pool's
// (docs/pool-sizing.md, Session lifetime and hold-back): the replacement service binds with the
// values in the projection, and a call's attribution follows the binding made under them.
describe('session lifetime and hold-back set by the partner and the pool', () => {
  jest.setTimeout(E2E_TIMEOUT_MS);
  let env: E2eEnvironment;

  beforeAll(async () => {
    env = await startE2eEnvironment(PARTNER);
    await env.operator('numbers:add', '--partner', PARTNER.advId, '--kind', 'pool', ...POOL_NUMBERS);
  });

  afterAll(async () => {
    await env?.close();
  });

  async function newSession(now: number, trackingId: string): Promise<string> {
    const answer = await env.visit({ at: now, trackingId });
    expect(answer.status).toBe(200);
    return (answer.body.numbers as Array<{ replace_with: { e164: string } }>)[0]!.replace_with.e164;
  }

  async function attributionOf(callId: string, bnum: string, at: number): Promise<unknown> {
    const start = formatUtcTimestamp(new Date(at));
    expect((await env.route({ call_id: callId, anum: '+4798000001', bnum, at: start })).status).toBe(200);
    const ingested = await env.ingest({
      call_id: callId,
      anum: '+4798000001',
      bnum,
      start,
      duration: 30,
      answered: 1,
    });
    expect(ingested.status).toBe(201);
    return (ingested.body.cdrs as Body[])[0]!.attribution;
  }

  it('takes the partner default from /settings and the pool override from /number_pools', async () => {
    const settings = await env.api.write('PUT', '/settings', {
      session_lifetime_seconds: '300',
      hold_back_seconds: '120',
    });
    expect(settings.status).toBe(200);
    expect((settings.body.settings as Body[])[0]).toMatchObject({
      session_lifetime_seconds: '300',
      hold_back_seconds: '120',
    });
    const pool = await env.api.write('PUT', '/number_pools', {
      session_lifetime_seconds: '60',
      hold_back_seconds: '30',
    });
    expect(pool.status).toBe(200);
    expect((pool.body.number_pools as Body[])[0]).toMatchObject({
      session_lifetime_seconds: '60',
      session_lifetime_from: 'pool',
      hold_back_seconds: '30',
      hold_back_from: 'pool',
      recommendation: expect.objectContaining({ session_ttl: '60', hold_back: '30', hold_seconds: '90' }),
    });

    // Bound at 08:00:00 for 60 s, then 30 s of hold-back.
    const number = await newSession(AT, 'visitor-short');
    expect(await attributionOf('timing-live', number, AT + 45 * SECOND)).toBe('session');
    expect(await attributionOf('timing-held', number, AT + 75 * SECOND)).toBe('after_session');
    expect(await attributionOf('timing-free', number, AT + 95 * SECOND)).toBe('none');
  });

  it('keeps the values a binding was made under when the settings change after it', async () => {
    const number = await newSession(AT + 200 * SECOND, 'visitor-before-change');
    // Back to the partner's 300 s + 120 s for sessions from now on.
    const cleared = await env.api.write('PUT', '/number_pools', {
      session_lifetime_seconds: '',
      hold_back_seconds: '',
    });
    expect((cleared.body.number_pools as Body[])[0]).toMatchObject({
      session_lifetime_seconds: '300',
      session_lifetime_from: 'partner',
      hold_back_seconds: '120',
      hold_back_from: 'partner',
    });
    // The earlier binding still ends at +60 s and its hold-back at +90 s.
    expect(await attributionOf('timing-old-held', number, AT + 275 * SECOND)).toBe('after_session');
    expect(await attributionOf('timing-old-free', number, AT + 295 * SECOND)).toBe('none');
    // A session bound now holds its number for 300 s.
    const later = await newSession(AT + 400 * SECOND, 'visitor-after-change');
    expect(await attributionOf('timing-new-live', later, AT + 650 * SECOND)).toBe('session');
    expect(await attributionOf('timing-new-held', later, AT + 780 * SECOND)).toBe('after_session');
  });

  it.each([
    [
      '/settings',
      { session_lifetime_seconds: '59' },
      'session_lifetime_seconds: must be whole seconds from 60 to 86400',
    ],
    ['/settings', { hold_back_seconds: '86401' }, 'hold_back_seconds: must be whole seconds from 0 to 86400'],
    [
      '/number_pools',
      { session_lifetime_seconds: '1.5' },
      'session_lifetime_seconds: must be whole seconds from 60 to 86400',
    ],
    [
      '/number_pools',
      { hold_back_seconds: '-1' },
      'hold_back_seconds: must be whole seconds from 0 to 86400',
    ],
    ['/number_pools', { lifetime: '60' }, 'lifetime: unknown field'],
    ['/settings', { lifetime: '60' }, 'spam_threshold, session_lifetime_seconds, hold_back_seconds'],
    [
      '/number_pools',
      { autoscaling: '1', max: '10' },
      'max_monthly_cost: is required while autoscaling is 1',
    ],
    [
      '/number_pools',
      { autoscaling: '1', max_monthly_cost: '10' },
      'max: is required while autoscaling is 1',
    ],
    ['/number_pools', { min: '5', max: '4' }, 'max: must be at least min (5)'],
    [
      '/number_pools',
      { autoscaling: '1', min: '10', max: '20', max_monthly_cost: '11.00' },
      'max_monthly_cost: must pay for min (10 numbers at 1.1500 a month = 11.50)',
    ],
  ])('refuses PUT %s %j naming the field', async (path, body, message) => {
    const answer = await env.api.write('PUT', path, body);
    expect(answer.status).toBe(400);
    expect((answer.body.error as Body).message).toContain(message);
  });
});
