import { lookup } from 'node:dns/promises';
import { ValidationError } from '@trackline/domain';
import ipaddr from 'ipaddr.js';

export const WEBHOOK_URL_MAX_LENGTH = 2000;

/**
 * Hosts that may be plain http and resolve anywhere (WEBHOOK_INSECURE_HOSTS, docs/configuration.md):
 * local development and tests, where the receiver is http://127.0.0.1:….
 */
export class InsecureHosts {
  private readonly hosts: Set<string>;

  constructor(hosts: readonly string[]) {
    this.hosts = new Set(hosts.map(normaliseHost));
  }

  has(hostname: string): boolean {
    return this.hosts.has(normaliseHost(hostname));
  }
}

/** Lower case, without IPv6 brackets: how URL.hostname and an operator's list are compared. */
function normaliseHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
}

/**
 * The rules a webhook URL must meet before anything is resolved: an absolute https URL (http only
 * for an insecure host) without credentials or a fragment. Returns the URL as it will be called.
 */
export function parseWebhookUrl(field: string, value: string, insecure: InsecureHosts): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ValidationError(field, 'must be an absolute https URL');
  }
  const insecureHost = insecure.has(url.hostname);
  if (url.protocol !== 'https:' && !(insecureHost && url.protocol === 'http:')) {
    throw new ValidationError(field, 'must be an https URL');
  }
  if (url.username !== '' || url.password !== '') {
    throw new ValidationError(field, 'must not contain a user name or password');
  }
  if (url.hash !== '') throw new ValidationError(field, 'must not contain a fragment (#…)');
  return url;
}

/**
 * Why this address may not receive webhooks, or undefined when it may: only public unicast
 * addresses do. Private, loopback, link-local (the cloud metadata address 169.254.169.254 among
 * them), carrier-grade NAT, unique-local, site-local, multicast, reserved and unspecified ranges are
 * refused. An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is judged as the IPv4 address it carries.
 * Every other IPv6 form that embeds an IPv4 address is refused whatever it embeds: IPv4-compatible
 * (`::a.b.c.d`, deprecated, and `[::127.0.0.1]` would otherwise pass as "unicast"), IPv4-translated,
 * NAT64, 6to4 and Teredo; a receiver has a plain IPv4 or IPv6 address of its own (docs/webhooks.md).
 */
export function forbiddenAddressReason(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  let parsed = ipaddr.parse(canonicalIPv6(address));
  if (parsed.kind() === 'ipv6') {
    const ipv6 = parsed as ipaddr.IPv6;
    if (ipv6.isIPv4MappedAddress()) parsed = ipv6.toIPv4Address();
    else if (isIPv4Compatible(ipv6)) return 'an IPv4-compatible IPv6 address';
  }
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  return `${RANGE_NAMES[range] ?? `a reserved (${range})`} address`;
}

/**
 * An IPv6 address in WHATWG URL's canonical form (hex groups, no dotted tail); anything else as it
 * is. ipaddr.js reads every dotted tail as IPv4-mapped (`::8.8.8.8` as `::ffff:8.8.8.8`), which
 * would let an IPv4-compatible address pass as the IPv4 address it carries.
 */
function canonicalIPv6(address: string): string {
  if (!address.includes(':')) return address;
  return new URL(`http://[${address}]/`).hostname.slice(1, -1);
}

/** `::/96` but for `::` and `::1`: the deprecated form that carries an IPv4 address in its last 32 bits. */
function isIPv4Compatible(address: ipaddr.IPv6): boolean {
  const parts = address.parts;
  const upperZero = parts.slice(0, 6).every((part) => part === 0);
  const lower = parts[6] * 0x10000 + parts[7];
  return upperZero && lower > 1;
}

// ipaddr.js's range names, as an operator would say them.
const RANGE_NAMES: Record<string, string> = {
  private: 'a private',
  loopback: 'a loopback',
  linkLocal: 'a link-local',
  uniqueLocal: 'a unique-local',
  deprecatedSiteLocal: 'a site-local',
  carrierGradeNat: 'a carrier-grade NAT',
  unspecified: 'an unspecified',
  broadcast: 'a broadcast',
  multicast: 'a multicast',
  reserved: 'a reserved',
  rfc6145: 'an IPv4-translated IPv6',
  rfc6052: 'a NAT64 (IPv4-embedding) IPv6',
  '6to4': 'a 6to4 (IPv4-embedding) IPv6',
  teredo: 'a Teredo (IPv4-embedding) IPv6',
};

export type HostResolver = (hostname: string) => Promise<string[]>;

/** Every address the system resolver gives for a host (an IP literal resolves to itself). */
export const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * The addresses a delivery to `url` may connect to: all of the host's addresses, each one public,
 * or a DeliveryTargetError. An insecure host is not checked (its addresses are returned as they are).
 */
export async function resolveWebhookTarget(
  url: URL,
  insecure: InsecureHosts,
  resolve: HostResolver,
): Promise<string[]> {
  const host = normaliseHost(url.hostname);
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch (error) {
    throw new DeliveryTargetError(`host ${host} does not resolve (${(error as Error).message})`);
  }
  if (addresses.length === 0) throw new DeliveryTargetError(`host ${host} does not resolve`);
  if (insecure.has(host)) return addresses;
  for (const address of addresses) {
    const reason = forbiddenAddressReason(address);
    if (reason !== undefined) {
      throw new DeliveryTargetError(
        `host ${host} resolves to ${address}, ${reason}; webhooks go to public addresses only`,
      );
    }
  }
  return addresses;
}

/** The target may not (or cannot) be called: at creation a 400, at delivery a failed attempt. */
export class DeliveryTargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeliveryTargetError';
  }
}
