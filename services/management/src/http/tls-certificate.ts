import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@trackline/platform';
import { generate } from 'selfsigned';

export interface TlsMaterial {
  cert: string;
  key: string;
}

export interface TlsSource {
  certFile?: string;
  keyFile?: string;
  dataDir: string;
}

const SELF_SIGNED_DAYS = 825;

/**
 * The operator's certificate (TLS_CERT/TLS_KEY) when given; otherwise a self-signed one kept under
 * `<dataDir>/tls/`, created on the first start and reused afterwards so clients that pinned it
 * keep working across restarts.
 */
export async function loadTlsMaterial(source: TlsSource, logger: Logger, now: Date): Promise<TlsMaterial> {
  if (source.certFile !== undefined && source.keyFile !== undefined) {
    const [cert, key] = await Promise.all([
      readFile(source.certFile, 'utf8'),
      readFile(source.keyFile, 'utf8'),
    ]);
    logger.info({ cert: source.certFile }, 'TLS: using the configured certificate');
    return { cert, key };
  }
  const folder = join(source.dataDir, 'tls');
  const certPath = join(folder, 'self-signed-cert.pem');
  const keyPath = join(folder, 'self-signed-key.pem');
  const existing = await readPair(certPath, keyPath);
  if (existing !== undefined) {
    logger.info({ cert: certPath }, 'TLS: TLS_CERT/TLS_KEY unset; reusing the self-signed certificate');
    return existing;
  }
  const created = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now.getTime() - 60_000),
    notAfterDate: new Date(now.getTime() + SELF_SIGNED_DAYS * 86_400_000),
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  await mkdir(folder, { recursive: true, mode: 0o700 });
  // The key is written first and readable by the owner only; the certificate is public.
  await writeFile(keyPath, created.private, { mode: 0o600 });
  await writeFile(certPath, created.cert, { mode: 0o644 });
  logger.warn(
    { cert: certPath, fingerprint: created.fingerprint },
    'TLS: TLS_CERT/TLS_KEY unset; created a self-signed certificate (clients must trust it explicitly)',
  );
  return { cert: created.cert, key: created.private };
}

async function readPair(certPath: string, keyPath: string): Promise<TlsMaterial | undefined> {
  try {
    const [cert, key] = await Promise.all([readFile(certPath, 'utf8'), readFile(keyPath, 'utf8')]);
    return { cert, key };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
