import ipaddr from 'ipaddr.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * A set of IPv4/IPv6 addresses and CIDR ranges (partner allowlists, trusted proxies). IPv4-mapped
 * IPv6 forms (`::ffff:10.0.0.1`, what a dual-stack socket reports for IPv4 clients) are folded to
 * IPv4 on both sides, so `10.0.0.0/8` matches them.
 */
export class AddressList {
  private constructor(
    private readonly ranges: Range[],
    readonly entries: readonly string[],
  ) {}

  /** Throws naming the first entry that is neither an address nor a CIDR. */
  static parse(entries: readonly string[]): AddressList {
    return new AddressList(entries.map(parseRange), entries);
  }

  get isEmpty(): boolean {
    return this.ranges.length === 0;
  }

  contains(address: string): boolean {
    const parsed = parseAddress(address);
    if (parsed === undefined) return false;
    return this.ranges.some(([base, bits]) => base.kind() === parsed.kind() && parsed.match(base, bits));
  }
}

/** The address in canonical form, IPv4-mapped IPv6 folded to IPv4; undefined when not an address. */
export function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  // Zone ids (fe80::1%eth0) cannot be parsed by ipaddr.js and never identify a remote partner.
  const bare = address.trim().replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return undefined;
  return ipaddr.process(bare);
}

export function normaliseAddress(address: string): string {
  return parseAddress(address)?.toString() ?? address;
}

function parseRange(entry: string): Range {
  const text = entry.trim();
  if (text.includes('/')) {
    if (!ipaddr.isValidCIDR(text))
      throw new Error(`${JSON.stringify(entry)} is not an IP address or CIDR range`);
    const [base, bits] = ipaddr.parseCIDR(text);
    if (base.kind() === 'ipv6' && (base as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
      return [(base as ipaddr.IPv6).toIPv4Address(), bits - 96];
    }
    return [base, bits];
  }
  const address = parseAddress(text);
  if (address === undefined) throw new Error(`${JSON.stringify(entry)} is not an IP address or CIDR range`);
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}
