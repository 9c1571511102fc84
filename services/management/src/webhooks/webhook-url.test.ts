import { forbiddenAddressReason } from './webhook-url';

describe('forbiddenAddressReason', () => {
  it.each([
    ['8.8.8.8'],
    ['2606:4700:4700::1111'],
    // An IPv4-mapped address is the IPv4 address it carries: a public one may receive.
    ['::ffff:8.8.8.8'],
  ])('lets the public address %s receive', (address) => {
    expect(forbiddenAddressReason(address)).toBeUndefined();
  });

  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['10.0.0.1', 'a private address'],
    ['169.254.169.254', 'a link-local address'],
    ['100.64.0.1', 'a carrier-grade NAT address'],
    ['::1', 'a loopback address'],
    ['::', 'an unspecified address'],
    ['fe80::1', 'a link-local address'],
    ['fc00::1', 'a unique-local address'],
    ['fd00:ec2::254', 'a unique-local address'],
    ['fec0::1', 'a site-local address'],
    ['ff02::1', 'a multicast address'],
    ['2001:db8::1', 'a reserved address'],
    // IPv4-mapped: judged as the IPv4 address inside.
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['::ffff:10.0.0.1', 'a private address'],
    ['::ffff:169.254.169.254', 'a link-local address'],
    // IPv4-compatible (::/96), in both spellings: refused whatever it carries.
    ['::127.0.0.1', 'an IPv4-compatible IPv6 address'],
    ['::7f00:1', 'an IPv4-compatible IPv6 address'],
    ['::a00:1', 'an IPv4-compatible IPv6 address'],
    ['0:0:0:0:0:0:169.254.169.254', 'an IPv4-compatible IPv6 address'],
    ['::8.8.8.8', 'an IPv4-compatible IPv6 address'],
    // The other IPv4-embedding forms: refused whatever they carry.
    ['::ffff:0:7f00:1', 'an IPv4-translated IPv6 address'],
    ['64:ff9b::7f00:1', 'a NAT64 (IPv4-embedding) IPv6 address'],
    ['64:ff9b::808:808', 'a NAT64 (IPv4-embedding) IPv6 address'],
    ['64:ff9b:1::a00:1', 'a NAT64 (IPv4-embedding) IPv6 address'],
    ['2002:7f00:1::1', 'a 6to4 (IPv4-embedding) IPv6 address'],
    ['2002:a00:1::1', 'a 6to4 (IPv4-embedding) IPv6 address'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'a Teredo (IPv4-embedding) IPv6 address'],
  ])('refuses %s as %s', (address, reason) => {
    expect(forbiddenAddressReason(address)).toBe(reason);
  });

  it('names anything that is not an address', () => {
    expect(forbiddenAddressReason('example.com')).toBe('not an IP address');
  });
});
