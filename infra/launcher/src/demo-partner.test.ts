import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CommandResult } from './children';
import { ensureDemoPartner, listPartnerNames, signedReplacementExample, type RunCli } from './demo-partner';

/** A stand-in for the management CLI that keeps partners in memory and records every call. */
function fakeCli(initial: string[] = []): { runCli: RunCli; calls: string[][]; partners: string[] } {
  const partners = [...initial];
  const calls: string[][] = [];
  const ok = (stdout = ''): CommandResult => ({ code: 0, stdout, stderr: '' });
  const runCli: RunCli = async (args) => {
    calls.push(args);
    if (args[0] === 'partner:list') {
      const log = JSON.stringify({ level: 'info', msg: 'connected' });
      return ok(`${log}\n${JSON.stringify(partners.map((name) => ({ name, country: 'NO' })))}\n`);
    }
    if (args[0] === 'partner:create') {
      partners.push(args[args.indexOf('--name') + 1]);
      return ok('created');
    }
    if (args[0] === 'numbers:add') return ok('added 10');
    return { code: 2, stdout: '', stderr: `unknown command ${args[0]}` };
  };
  return { runCli, calls, partners };
}

describe('ensureDemoPartner', () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'trackline-demo-'));
    file = path.join(dir, 'demo-partner.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates a demo partner with generated credentials on an empty database and saves them', async () => {
    const cli = fakeCli();
    const outcome = await ensureDemoPartner(cli.runCli, file);

    expect(outcome.kind).toBe('created');
    if (outcome.kind !== 'created') return;
    const { partner } = outcome;
    expect(partner.advId).toBe('demo');
    expect(partner.password.length).toBeGreaterThanOrEqual(20);
    expect(partner.signingSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(cli.calls[1]).toEqual([
      'partner:create',
      '--name',
      'demo',
      '--username',
      'demo',
      '--password',
      partner.password,
      '--signing-secret',
      partner.signingSecret,
      '--allow-ip',
      '127.0.0.1/32',
      '--allow-ip',
      '::1/128',
    ]);
    expect(cli.calls[2]).toEqual([
      'numbers:add',
      '--partner',
      'demo',
      '--kind',
      'pool',
      '+4791000001-+4791000010',
    ]);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(partner);
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(outcome.warnings).toEqual([]);
  });

  it('gives the same credentials again on a second start, creating nothing', async () => {
    const cli = fakeCli();
    const first = await ensureDemoPartner(cli.runCli, file);
    const callsAfterFirst = cli.calls.length;

    const second = await ensureDemoPartner(cli.runCli, file);
    expect(second.kind).toBe('existing');
    expect(second.kind === 'existing' && second.partner).toEqual(first.kind === 'created' && first.partner);
    expect(cli.calls.slice(callsAfterFirst)).toEqual([['partner:list', '--json']]);
  });

  it('leaves a database with other partners alone, even with a stale saved file', async () => {
    writeFileSync(file, JSON.stringify({ advId: 'demo', password: 'x' }));
    const cli = fakeCli(['acme', 'globex']);
    expect(await ensureDemoPartner(cli.runCli, file)).toEqual({ kind: 'skipped', partnerCount: 2 });
    expect(cli.calls.map((args) => args[0])).toEqual(['partner:list']);
  });

  it('still creates the partner when the pool numbers cannot be added, and says why', async () => {
    const cli = fakeCli();
    const runCli: RunCli = (args) =>
      args[0] === 'numbers:add'
        ? Promise.resolve({ code: 1, stdout: '', stderr: 'range too large\n' })
        : cli.runCli(args);
    const outcome = await ensureDemoPartner(runCli, file);
    expect(outcome.kind === 'created' && outcome.warnings).toEqual([
      'could not add demo pool numbers: range too large',
    ]);
  });

  it('stops with the CLI message when listing partners fails or prints no JSON', async () => {
    await expect(
      listPartnerNames(async () => ({ code: 1, stdout: '', stderr: 'connect ECONNREFUSED\n' })),
    ).rejects.toThrow('management CLI partner:list failed (exit 1): connect ECONNREFUSED');
    await expect(
      listPartnerNames(async () => ({ code: 0, stdout: 'no partners\n', stderr: '' })),
    ).rejects.toThrow('partner:list --json did not print a JSON array');
  });
});

describe('listPartnerNames with a CLI that has no --json', () => {
  const table = [
    'ID  NAME  USERNAME  SIGNING SECRET            ALLOWED IPS',
    '1   acme  acme      abcd… (32 characters)     127.0.0.1/32, ::1/128',
    '2   demo  demo      0123… (64 characters)     (none: every address is refused)',
  ].join('\n');
  const cliWithout =
    (stdout: string): RunCli =>
    async (args) =>
      args.includes('--json')
        ? { code: 1, stdout: '', stderr: "error: unknown option '--json'\n" }
        : { code: 0, stdout: `${stdout}\n`, stderr: '' };

  it('reads the advIds from the NAME column of the table', async () => {
    expect(await listPartnerNames(cliWithout(table))).toEqual(['acme', 'demo']);
  });

  it('reads "no partners" as an empty list', async () => {
    expect(await listPartnerNames(cliWithout('No partners yet; create one with partner:create.'))).toEqual(
      [],
    );
  });
});

describe('signedReplacementExample', () => {
  it('signs the exact body with HMAC-SHA1 of the signing secret', () => {
    const partner = {
      advId: 'demo',
      username: 'demo',
      password: 'p',
      signingSecret: 's3cret',
      allowIps: [],
      poolNumbers: '',
    };
    const { body, sign } = signedReplacementExample(partner);
    expect(JSON.parse(body)).toMatchObject({ advId: 'demo', type: 'web', numbers: '22334455' });
    expect(sign).toBe(createHmac('sha1', 's3cret').update(body).digest('hex'));
    expect(sign).toMatch(/^[0-9a-f]{40}$/);
  });
});
