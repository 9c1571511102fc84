import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { createLogger } from '@trackline/platform';
import { generate } from 'selfsigned';
import { writeFile } from 'node:fs/promises';
import {
  createDigestPartner,
  createTestStores,
  startTestService,
  testConfig,
  type RunningService,
  type TestStores,
} from '../test-support/test-service';
import { rawRequest } from '../test-support/https-request';
import { pingAs } from '../test-support/digest-client';

function peerCertificatePem(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      const raw = socket.getPeerCertificate().raw;
      socket.end();
      resolve(raw.toString('base64'));
    });
    socket.on('error', reject);
  });
}

function pemBody(pem: string): string {
  return pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
}

/** A GET over plain HTTP to the HTTPS port, as a client or TLS-terminating proxy would send it. */
function plainGet(port: number, path: string, headers: Record<string, string> = {}) {
  return rawRequest({ port, method: 'GET', path, plain: true, headers });
}

describe('HTTPS only', () => {
  let stores: TestStores;
  let service: RunningService;
  const logLines: string[] = [];

  beforeAll(async () => {
    stores = await createTestStores();
    await createDigestPartner(stores, 'acme', 'secret pass', ['127.0.0.1']);
    const logger = createLogger({ service: 'test', level: 'silent' });
    const capture = logger.child({});
    // pino writes through its destination; capture the messages by wrapping info/warn.
    for (const level of ['info', 'warn'] as const) {
      const original = capture[level].bind(capture) as (...args: unknown[]) => void;
      capture[level] = ((...args: unknown[]) => {
        logLines.push(args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' '));
        original(...args);
      }) as typeof capture.info;
    }
    service = await startTestService(testConfig(stores, { TRUST_PROXY: '10.9.9.9' }), { logger: capture });
  });

  afterAll(async () => {
    await service.close();
    await stores.release();
  });

  it('creates a self-signed certificate under the data folder when TLS_CERT/TLS_KEY are unset, and serves it', async () => {
    const cert = await readFile(join(stores.dataDir, 'tls', 'self-signed-cert.pem'), 'utf8');
    expect(logLines.some((line) => line.includes('created a self-signed certificate'))).toBe(true);
    expect(await peerCertificatePem(service.port)).toBe(pemBody(cert));
  });

  it('reuses that certificate on the next start', async () => {
    const cert = await readFile(join(stores.dataDir, 'tls', 'self-signed-cert.pem'), 'utf8');
    logLines.length = 0;
    const second = await startTestService(testConfig(stores), { logger: service.logger });
    try {
      expect(logLines.some((line) => line.includes('reusing the self-signed certificate'))).toBe(true);
      expect(await peerCertificatePem(second.port)).toBe(pemBody(cert));
    } finally {
      await second.close();
    }
  });

  it('serves the operator certificate from TLS_CERT/TLS_KEY', async () => {
    const made = await generate([{ name: 'commonName', value: 'operator.example' }], {
      keyType: 'ec',
      curve: 'P-256',
    });
    const certFile = join(stores.dataDir, 'operator-cert.pem');
    const keyFile = join(stores.dataDir, 'operator-key.pem');
    await writeFile(certFile, made.cert);
    await writeFile(keyFile, made.private);
    const own = await startTestService(testConfig(stores, { TLS_CERT: certFile, TLS_KEY: keyFile }));
    try {
      expect(await peerCertificatePem(own.port)).toBe(pemBody(made.cert));
    } finally {
      await own.close();
    }
  });

  it('answers plain HTTP on the same port with 403 HTTPS required, in JSON or XML', async () => {
    const json = await plainGet(service.port, '/miscellaneous/ping');
    expect(json.status).toBe(403);
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(json.json()).toEqual({ error: { status: 403, message: 'HTTPS required' } });

    const xml = await plainGet(service.port, '/v1/customers.xml');
    expect(xml.status).toBe(403);
    expect(xml.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(xml.text).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<error><status>403</status><message>HTTPS required</message></error>',
    );
  });

  it('does not believe X-Forwarded-Proto from an untrusted peer', async () => {
    const spoofed = await plainGet(service.port, '/miscellaneous/ping', { 'X-Forwarded-Proto': 'https' });
    expect(spoofed.status).toBe(403);
  });

  it('serves the API over HTTPS to a digest client', async () => {
    const ping = await pingAs(service.port, 'acme-api', 'secret pass');
    expect(ping.status).toBe(200);
    expect(ping.json()).toEqual({ ping: 'ok' });
  });

  it('answers /health and /ready without credentials, over HTTPS and plain HTTP', async () => {
    for (const plain of [false, true]) {
      const health = await rawRequest({ port: service.port, method: 'GET', path: '/health', plain });
      expect(health.status).toBe(200);
      expect(health.json()).toEqual({ status: 'ok' });
      const ready = await rawRequest({ port: service.port, method: 'GET', path: '/ready', plain });
      expect(ready.status).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready', checks: { postgres: 'ok', redis: 'ok' } });
    }
  });
});

describe('behind a trusted TLS-terminating proxy', () => {
  let stores: TestStores;
  let service: RunningService;

  beforeAll(async () => {
    stores = await createTestStores();
    await createDigestPartner(stores, 'acme', 'secret pass', ['203.0.113.7']);
    // The test client is the proxy: loopback is trusted, as is the inner proxy hop 10.0.0.0/8.
    service = await startTestService(testConfig(stores, { TRUST_PROXY: '127.0.0.1,10.0.0.0/8' }));
  });

  afterAll(async () => {
    await service.close();
    await stores.release();
  });

  const ping = (headers: Record<string, string>) => pingAs(service.port, 'acme-api', 'secret pass', headers);

  it('counts plain HTTP with X-Forwarded-Proto: https from a trusted proxy as HTTPS', async () => {
    const plain = await plainGet(service.port, '/miscellaneous/ping', { 'X-Forwarded-Proto': 'https' });
    // Past the HTTPS check: now credentials are asked for.
    expect(plain.status).toBe(401);
    const refused = await plainGet(service.port, '/miscellaneous/ping');
    expect(refused.status).toBe(403);
  });

  it('takes the client address from the right-most untrusted X-Forwarded-For hop', async () => {
    const allowed = await ping({ 'X-Forwarded-For': '198.51.100.1, 203.0.113.7, 10.1.2.3' });
    expect(allowed.status).toBe(200);
    // A client that writes the allowed address itself at the left is still seen as 198.51.100.1.
    const spoofed = await ping({ 'X-Forwarded-For': '203.0.113.7, 198.51.100.1' });
    expect(spoofed.status).toBe(401);
    expect(spoofed.json()).toEqual({
      error: {
        status: 401,
        message:
          'Client address 198.51.100.1 is not in the IP allowlist of this account; ask the operator to add it',
      },
    });
  });
});
