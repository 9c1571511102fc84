import type { Partner } from '../partners/partner';

const SHOWN_SECRET_CHARACTERS = 4;

/** Enough of a secret to tell two apart, never enough to use it. */
export function maskSecret(secret: string): string {
  const characters = [...secret];
  return `${characters.slice(0, SHOWN_SECRET_CHARACTERS).join('')}… (${characters.length} characters)`;
}

export function describeAllowIps(partner: Partner): string {
  return partner.allowIps.length === 0 ? '(none: every address is refused)' : partner.allowIps.join(', ');
}

export function describeCustomFields(partner: Partner): string {
  const parts = (['customer', 'source'] as const)
    .filter((entity) => partner.customFields[entity].length > 0)
    .map((entity) => `${entity}: ${partner.customFields[entity].join(', ')}`);
  return parts.length === 0 ? '-' : parts.join('; ');
}

/** The lines partner:create and partner:update print about the partner's settings. */
export function describePartner(partner: Partner): string[] {
  return [
    `  id:              ${partner.id}`,
    `  username:        ${partner.digestUsername}`,
    `  signing secret:  ${maskSecret(partner.signingSecret)}`,
    `  allowed IPs:     ${describeAllowIps(partner)}`,
    `  country:         ${partner.country}`,
    `  time zone:       ${partner.timeZone}`,
    `  on exhausted:    ${partner.dni.onExhausted}`,
    `  fallback number: ${partner.dni.fallbackNumber ?? '-'}`,
    `  session:         ${partner.dni.sessionTtlSeconds} s, hold-back ${partner.dni.holdBackSeconds} s`,
    `  show full anum:  ${partner.showFullAnum ? '1' : '0'}`,
    `  ring timeout:    ${partner.calls.ringTimeoutSeconds ?? 'default'}`,
    `  screen calls:    ${partner.calls.screenCalls ? '1' : '0'}`,
    `  cdr retention:   ${partner.cdrRetentionMonths} months`,
    `  mask anum after: ${partner.anumMaskAfterDays === null ? 'off' : `${partner.anumMaskAfterDays} days`}`,
    `  rate limit:      ${describeRateLimit(partner.rateLimitPerMinute)}`,
    `  target overflow: ${partner.pool.targetOverflow}`,
    `  pool exhausted:  ${partner.pool.exhaustedShare} recycled share`,
    `  spam policy:     ${partner.spam.policy} from score ${partner.spam.threshold}`,
    `  contact e-mail:  ${partner.contactEmail ?? '-'}`,
  ];
}

/** null is the service's RATE_LIMIT_PER_MINUTE, which the CLI does not read: it names it. */
export function describeRateLimit(perMinute: number | null): string {
  if (perMinute === null) return 'default (RATE_LIMIT_PER_MINUTE)';
  return perMinute === 0 ? 'none' : `${perMinute} requests per minute`;
}
