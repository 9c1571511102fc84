import { envNamesIn } from './env-names';

describe('envNamesIn', () => {
  it('finds EnvReader reads of every method and direct process.env reads, once each', () => {
    const source = `
      const read = new EnvReader(env);
      read.port('MANAGEMENT_PORT', 8443);
      read.url(
        "DATABASE_URL", undefined, ['postgres:']);
      read.integer('NOTIFY_POLL_MS', 1_000, { min: 10 });
      read.optionalString('TLS_CERT');
      read.string('MANAGEMENT_PORT', '1');
      findOnPath(name, process.env.PATH);
      const home = process.env['HOME'];
    `;
    expect(envNamesIn(source)).toEqual([
      'DATABASE_URL',
      'HOME',
      'MANAGEMENT_PORT',
      'NOTIFY_POLL_MS',
      'PATH',
      'TLS_CERT',
    ]);
  });

  it('does not count rule names given to reject(), or names that are not variables', () => {
    const source = `
      read.reject('TLS_CERT/TLS_KEY', 'set both or neither');
      read.reject('DIGEST_NONCE_SECRET', 'too short');
      spread(read.string(name, ''));
      const env = { ...process.env };
      other.string('NOT_A_READER', '');
    `;
    expect(envNamesIn(source)).toEqual([]);
  });
});
