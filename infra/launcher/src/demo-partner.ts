import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CommandResult } from './children';
import { LauncherError } from './launcher-error';

/** The demo partner's credentials, as printed and as saved in `<data>/demo-partner.json`. */
export interface DemoPartner {
  advId: string;
  username: string;
  password: string;
  signingSecret: string;
  allowIps: string[];
  poolNumbers: string;
}

/** Runs `node services/management/dist/cli.js <args>`. */
export type RunCli = (args: string[]) => Promise<CommandResult>;

export type DemoPartnerOutcome =
  | { kind: 'created'; partner: DemoPartner; warnings: string[] }
  | { kind: 'existing'; partner: DemoPartner }
  | { kind: 'skipped'; partnerCount: number };

const DEMO_ADV_ID = 'demo';
// Loopback only: the demo partner is for trying the API from this machine.
const DEMO_ALLOW_IPS = ['127.0.0.1/32', '::1/128'];
// Norwegian mobile numbers from a range for fiction, as the seed's examples use NO.
const DEMO_POOL = '+4791000001-+4791000010';

/**
 * Gives an empty database a demo partner with generated credentials, or finds the one an earlier
 * start created. A database that already has other partners is left alone.
 */
export async function ensureDemoPartner(runCli: RunCli, file: string): Promise<DemoPartnerOutcome> {
  const names = await listPartnerNames(runCli);
  const saved = readSaved(file);
  if (saved !== undefined && names.includes(saved.advId)) return { kind: 'existing', partner: saved };
  if (names.length > 0) return { kind: 'skipped', partnerCount: names.length };

  const partner: DemoPartner = {
    advId: DEMO_ADV_ID,
    username: DEMO_ADV_ID,
    password: randomBytes(18).toString('base64url'),
    signingSecret: randomBytes(32).toString('hex'),
    allowIps: DEMO_ALLOW_IPS,
    poolNumbers: DEMO_POOL,
  };
  await mustSucceed(runCli, [
    'partner:create',
    '--name',
    partner.advId,
    '--username',
    partner.username,
    '--password',
    partner.password,
    '--signing-secret',
    partner.signingSecret,
    ...partner.allowIps.flatMap((cidr) => ['--allow-ip', cidr]),
  ]);
  // Saved before anything else can fail: the password exists nowhere else in clear text.
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(partner, null, 2)}\n`, { mode: 0o600 });

  // A pool makes the replacement curl example answer with numbers instead of 501; the partner is
  // usable without it, so a failure here is reported, not fatal.
  const warnings: string[] = [];
  const pool = await runCli([
    'numbers:add',
    '--partner',
    partner.advId,
    '--kind',
    'pool',
    partner.poolNumbers,
  ]);
  if (pool.code !== 0) warnings.push(`could not add demo pool numbers: ${firstLine(pool)}`);
  return { kind: 'created', partner, warnings };
}

/**
 * The partners' advIds. Asks for `partner:list --json` (one JSON array line on stdout; log lines may
 * come before it). A CLI that does not know --json yet is read through its table instead: the header
 * line, then one row per partner with the advId in the second column, or a "No partners" line.
 */
export async function listPartnerNames(runCli: RunCli): Promise<string[]> {
  const asJson = await runCli(['partner:list', '--json']);
  if (asJson.code !== 0 && /unknown option/i.test(`${asJson.stderr}${asJson.stdout}`)) {
    return namesFromTable(await mustSucceed(runCli, ['partner:list']));
  }
  const result = await mustSucceed(() => Promise.resolve(asJson), ['partner:list', '--json']);
  const line = result.stdout
    .split('\n')
    .map((text) => text.trim())
    .filter((text) => text.startsWith('['))
    .pop();
  let parsed: unknown;
  try {
    parsed = line === undefined ? undefined : JSON.parse(line);
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed))
    throw new LauncherError(`partner:list --json did not print a JSON array: ${firstLine(result)}`);
  return parsed.map((entry: unknown) => {
    const name = (entry as { name?: unknown } | null)?.name;
    if (typeof name !== 'string')
      throw new LauncherError('partner:list --json printed a partner without a name');
    return name;
  });
}

function namesFromTable(result: CommandResult): string[] {
  const lines = result.stdout.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('{'));
  if (lines.length === 0 || /^no partners/i.test(lines[0].trim())) return [];
  const [header, ...rows] = lines;
  const columns = header.trim().split(/\s{2,}/);
  const nameColumn = columns.findIndex((title) => /^(name|advId)$/i.test(title));
  if (nameColumn < 0) throw new LauncherError(`partner:list printed no name column: ${header.trim()}`);
  // Columns are separated by two or more spaces; values hold at most single spaces.
  return rows
    .map((row) => row.trim().split(/\s{2,}/)[nameColumn])
    .filter((name): name is string => name !== undefined);
}

/** The body and signed URL path for the printed replacement example (no openssl needed to try it). */
export function signedReplacementExample(partner: DemoPartner): { body: string; sign: string } {
  const body = JSON.stringify({
    advId: partner.advId,
    fullUrl: 'https://example.com/ad/1',
    trackingId: 'visitor-1',
    numbers: '22334455',
    type: 'web',
    fullReferrer: '',
    parameters: { custnr: 'demo-1', custname: 'Demo Customer', custemail: 'demo@example.com' },
    userAgent: 'curl',
    requestIpAddress: '127.0.0.1',
    sessionId: '',
  });
  return { body, sign: createHmac('sha1', partner.signingSecret).update(body, 'utf8').digest('hex') };
}

function readSaved(file: string): DemoPartner | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Partial<DemoPartner>;
    return typeof value.advId === 'string' && typeof value.password === 'string'
      ? (value as DemoPartner)
      : undefined;
  } catch {
    // A damaged file is ignored; the partner list decides what happens next.
    return undefined;
  }
}

async function mustSucceed(runCli: RunCli, args: string[]): Promise<CommandResult> {
  const result = await runCli(args);
  if (result.code !== 0)
    throw new LauncherError(
      `management CLI ${args[0]} failed (exit ${String(result.code)}): ${firstLine(result)}`,
    );
  return result;
}

function firstLine(result: CommandResult): string {
  const text = `${result.stderr}\n${result.stdout}`.trim();
  return text.split('\n').find((line) => line.trim() !== '') ?? 'no output';
}
