import type { DemoPartner, DemoPartnerOutcome } from './demo-partner';
import { signedReplacementExample } from './demo-partner';

export interface SummaryInput {
  managementUrl: string;
  replacementUrl: string;
  databaseUrl: string;
  redisUrl: string;
  /** True when databaseUrl is the launcher's embedded Postgres (its password is a local one). */
  embeddedDatabase: boolean;
  dataDir: string;
  /** The development defaults in force (development-defaults.ts). */
  developmentLines: string[];
  demo: DemoPartnerOutcome;
  demoFile: string;
}

/** What the user reads once everything answers: where things are and how to try both APIs. */
export function summaryLines(input: SummaryInput): string[] {
  const lines = [
    '',
    'Trackline is running.',
    `  management API   ${input.managementUrl}   (HTTPS, self-signed certificate unless TLS_CERT/TLS_KEY are set)`,
    `  replacement API  ${input.replacementUrl}`,
    `  Postgres         ${input.embeddedDatabase ? input.databaseUrl : redact(input.databaseUrl)}`,
    `  Redis            ${input.redisUrl}`,
    `  data folder      ${input.dataDir}`,
    '',
    'API reference (interactive, no credentials needed; docs/partner-api.md):',
    `  ${input.managementUrl}/docs   ${input.replacementUrl}/docs`,
    '',
    'The operator CLI against this database (docs/operations.md):',
    input.embeddedDatabase
      ? `  DATABASE_URL='${input.databaseUrl}' pnpm trackline partner:list`
      : '  pnpm trackline partner:list   (with the same DATABASE_URL in the environment)',
    '',
    ...input.developmentLines,
    '',
  ];
  if (input.demo.kind === 'skipped') {
    lines.push(`The database has ${input.demo.partnerCount} partner(s); no demo partner was created.`);
  } else {
    lines.push(...demoLines(input.demo.partner, input, input.demo.kind === 'created'));
  }
  lines.push('', 'Press Ctrl-C to stop everything this command started.');
  return lines;
}

function demoLines(partner: DemoPartner, input: SummaryInput, created: boolean): string[] {
  const { body, sign } = signedReplacementExample(partner);
  return [
    `Demo partner (${created ? 'created now' : 'created by an earlier start'}; saved in ${input.demoFile}):`,
    `  advId           ${partner.advId}`,
    `  username        ${partner.username}`,
    `  password        ${partner.password}`,
    `  signing secret  ${partner.signingSecret}`,
    `  IP allowlist    ${partner.allowIps.join(', ')}`,
    '',
    'Try the management API (digest authentication; -k accepts the self-signed certificate):',
    `  curl -k --digest -u '${partner.username}:${partner.password}' ${input.managementUrl}/v1/miscellaneous/ping`,
    '',
    'Try the replacement API (the body is signed with HMAC-SHA1 of the signing secret):',
    `  curl -s -X POST '${input.replacementUrl}/dynamic-numbers?sign=${sign}' -H 'Content-Type: application/json' \\`,
    `    --data-raw '${body}'`,
  ];
}

/** The URL with its password hidden, for URLs the operator gave (they may be production ones). */
export function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString();
}
