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
 * them), carrier-grade NAT, unique-local, multicast, reserved and unspecified ranges are refused;
 * an IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
 */
export function forbiddenAddressReason(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  return `${RANGE_NAMES[range] ?? `a ${range}`} address`;
}

// ipaddr.js's range names, as an operator would say them.
const RANGE_NAMES: Record<string, string> = {
  private: 'a private',
  loopback: 'a loopback',
  linkLocal: 'a link-local',
  uniqueLocal: 'a unique-local',
  carrierGradeNat: 'a carrier-grade NAT',
  unspecified: 'an unspecified',
  broadcast: 'a broadcast',
  multicast: 'a multicast',
  reserved: 'a reserved',
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
