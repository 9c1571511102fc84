import { projectionKeys, writePartnerProjection } from '@trackline/contracts';
import { ProviderCallSimulator, RecordingServer } from '@trackline/test-harness';
import {
  markProjectionsComplete,
  partnerConfig,
  poolNumbers,
  projection,
  sourceRoute,
  uniqueAdvId,
} from '../test-support/fixtures';
import { sendReplacementRequest, webRequest } from '../test-support/partner-client';
import { singleRedisTarget, type RedisTarget } from '../test-support/redis-target';
import { startTestServer, type TestServer } from '../test-support/test-server';

const PUBLIC = 'https://calls.trackline.test';
const ACCOUNT = 'AC00000000000000000000000000000001';
const TOKEN = 'twilio-test-token';
const REBUILDING = 'Service starting: configuration is being rebuilt, retry shortly';
const STATIC = '+4790000301';

/**
 * Redis without management's generation marker (docs/redis-keys.md, Projection generation): it came
 * back empty and the projections are being rebuilt. What a partner, the switch and the provider see.
 */
describe('while the projections are being rebuilt', () => {
  let target: RedisTarget;
  let app: TestServer;
  let provider: ProviderCallSimulator;
  const known = partnerConfig(uniqueAdvId('rebuilt'));
  const notYet = partnerConfig(uniqueAdvId('not-yet'));

  beforeAll(async () => {
    target = await singleRedisTarget();
    app = await startTestServer(target.redis, target.keyPrefix);
    provider = new ProviderCallSimulator(
      {
        accountSid: ACCOUNT,
        authToken: TOKEN,
        signatureHeader: 'X-Twilio-Signature',
        targetFor: (url) => url.replace(PUBLIC, app.baseUrl),
      },
      new RecordingServer(ACCOUNT, TOKEN),
    );
    // One partner is back already; the marker is not: the rebuild has not finished.
    await writePartnerProjection(
      target.redis,
      target.keyPrefix,
      projection(known, poolNumbers(2, 301), [sourceRoute({ destnr: STATIC })]),
    );
    await target.redis.del(projectionKeys(target.keyPrefix).generation);
  });

  afterAll(async () => {
    await app?.close();
    await target?.close();
  });

  const replace = (advId: string, secret: string, httpStatuses: boolean) =>
    sendReplacementRequest(app.baseUrl, webRequest(advId, '22334455'), { secret, httpStatuses });

  const route = async (bnum: string) => {
    const response = await fetch(`${app.baseUrl}/telephony/route`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer switch-token' },
      body: JSON.stringify({ call_id: `c-${bnum}-${Date.now()}`, anum: '+4799999999', bnum }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  const voice = (to: string) =>
    provider.post(`${PUBLIC}/telephony/twilio/voice`, [
      ['AccountSid', ACCOUNT],
      ['CallSid', `CA${Date.now()}${to.slice(-4)}`],
      ['From', '+4798765432'],
      ['To', to],
    ]);

  it('answers a correctly signed request of a partner not projected yet with 503, not 403', async () => {
    const statuses = await replace(notYet.advId, notYet.signingSecret, true);
    expect([statuses.status, statuses.body]).toEqual([503, { success: false, error: REBUILDING }]);
    const legacy = await replace(notYet.advId, notYet.signingSecret, false);
    expect([legacy.status, legacy.body]).toEqual([200, { success: false, error: REBUILDING }]);
  });

  it('serves a partner already rebuilt, and still refuses its wrong signature with 403', async () => {
    const served = await replace(known.advId, known.signingSecret, true);
    expect(served.status).toBe(200);
    expect(served.body.success).toBe(true);
    const forged = await replace(known.advId, 'not-the-secret', true);
    expect([forged.status, forged.body.error]).toEqual([403, 'Invalid signature']);
  });

  it('answers the switch and the provider 503 for a number not indexed yet, so they fall back', async () => {
    const switchAnswer = await route('+4790000399');
    expect(switchAnswer).toEqual({ status: 503, body: { error: { status: 503, message: REBUILDING } } });
    const providerAnswer = await voice('+4790000399');
    expect(providerAnswer.response.status).toBe(503);
    expect(JSON.parse(providerAnswer.response.text)).toEqual({ error: { status: 503, message: REBUILDING } });
    // A number already rebuilt is routed as usual.
    expect((await route(STATIC)).body.action).toBe('dial');
  });

  it('answers an unknown advId 403 and an unknown number reject once the marker is written', async () => {
    await markProjectionsComplete(target.redis, target.keyPrefix);
    const unknown = await replace(notYet.advId, notYet.signingSecret, true);
    expect([unknown.status, unknown.body.error]).toEqual([403, 'Invalid signature']);
    expect(await route('+4790000399')).toEqual({ status: 200, body: { action: 'reject', partner: null } });
  });
});
