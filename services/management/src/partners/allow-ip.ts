import { ValidationError } from '@trackline/domain';
import ipaddr from 'ipaddr.js';

/**
 * Turns `203.0.113.7`, `203.0.113.0/24`, `2001:db8::1` or `2001:db8::/32` into canonical CIDR text
 * (a single address gets /32 or /128). Shorthand IPv4 forms that `inet_aton` accepts (`10.1`,
 * `0x0a.0.0.1`) and IPv6 zone ids are refused: an allowlist entry must mean exactly one thing.
 */
export function parseAllowIp(field: string, input: string): string {
  const value = input.trim();
  const [address, prefixText, ...rest] = value.split('/');
  if (address === undefined || rest.length > 0) throw new ValidationError(field, mustBe(input));
  const ip = parseAddress(field, address, input);
  const maxPrefix = ip.kind() === 'ipv4' ? 32 : 128;
  let prefix = maxPrefix;
  if (prefixText !== undefined) {
    if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > maxPrefix) {
      throw new ValidationError(field, `${input}: prefix length must be 0 to ${maxPrefix}`);
    }
    prefix = Number(prefixText);
  }
  const canonical = `${ip.toString()}/${prefix}`;
  const network =
    ip.kind() === 'ipv4'
      ? ipaddr.IPv4.networkAddressFromCIDR(canonical)
      : ipaddr.IPv6.networkAddressFromCIDR(canonical);
  if (network.toString() !== ip.toString()) {
    throw new ValidationError(
      field,
      `${input} has host bits set; did you mean ${network.toString()}/${prefix}?`,
    );
  }
  return canonical;
}

function parseAddress(field: string, address: string, input: string): ipaddr.IPv4 | ipaddr.IPv6 {
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) return ipaddr.IPv4.parse(address);
  if (address.includes(':') && ipaddr.IPv6.isValid(address)) {
    const ip = ipaddr.IPv6.parse(address);
    if (ip.zoneId === undefined) return ip;
  }
  throw new ValidationError(field, mustBe(input));
}

function mustBe(input: string): string {
  return `${input} is not an IPv4 or IPv6 address or CIDR`;
}
