import { Agent } from 'node:http';
import {
  createDigestPartner,
  createTestStores,
  startTestService,
  testConfig,
  type RunningService,
  type TestStores,
} from '../test-support/test-service';
import { hostileAuthorizationHeaders } from '../test-support/hostile-headers';
import { rawRequest } from '../test-support/https-request';
import { MAX_AUTHORIZATION_LENGTH } from './digest/digest-header';

/**
 * Anyone can send an Authorization header before being known; its cost must not let them stall
 * the process (docs/architecture.md, Hardened edges). Plain HTTP behind a trusted proxy, as in a
 * deployment behind a TLS terminator.
 */
describe('unauthenticated Authorization headers', () => {
  let stores: TestStores;
  let service: RunningService;
  const forwarded = { 'X-Forwarded-Proto': 'https' };

  beforeAll(async () => {
    stores = await createTestStores();
    await createDigestPartner(stores, 'acme', 'secret pass', ['127.0.0.1']);
    service = await startTestService(testConfig(stores, { TRUST_PROXY: '127.0.0.1' }));
  });

  afterAll(async () => {
    await service?.close();
    await stores?.release();
  });

  const attack = (authorization: string) =>
    rawRequest({
      port: service.port,
      method: 'GET',
      path: '/miscellaneous/ping',
      plain: true,
      headers: { ...forwarded, Authorization: authorization },
    });

  it('refuses a header over the bound with 401 naming the limit', async () => {
    const result = await attack(`Digest ${'x'.repeat(15_000)}`);
    expect(result.status).toBe(401);
    expect(result.json()).toEqual({
      error: {
        status: 401,
        message: `Authorization header must be at most ${MAX_AUTHORIZATION_LENGTH} characters`,
      },
    });
    expect(result.headers['www-authenticate']).toContain('Digest realm="Trackline"');
  });

  // How long /health waits during such a flood is a speed figure, measured by `pnpm bench`
  // (docs/benchmarks.md, Header flood); here: every hostile request is refused and nothing else is.
  it('50 hostile headers in parallel are all refused with 401 while /health keeps answering', async () => {
    const probeAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    const probe = () =>
      rawRequest({ port: service.port, method: 'GET', path: '/health', plain: true, agent: probeAgent });
    try {
      const headers = hostileAuthorizationHeaders();
      let attacking = true;
      const attacks = Promise.all(headers.map(attack)).finally(() => {
        attacking = false;
      });
      const probes: number[] = [];
      do probes.push((await probe()).status);
      while (attacking || probes.length < 5);
      const answers = await attacks;
      expect(answers.map((answer) => answer.status)).toEqual(headers.map(() => 401));
      expect(new Set(answers.map((answer) => answer.text)).size).toBe(2); // one message per kind of header
      expect(probes.every((status) => status === 200)).toBe(true);
    } finally {
      probeAgent.destroy();
    }
  });
});
