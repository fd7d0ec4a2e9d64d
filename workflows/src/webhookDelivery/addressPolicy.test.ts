import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './activities.ts';
import { forbiddenAddressReason, isForbiddenWebhookHost } from './addressPolicy.ts';

describe('forbiddenAddressReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.255', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456:789a::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['2001:db8::1', 'reserved'],
    ['2001::1', 'teredo'],
    ['100::1', 'discard'],
    ['64:ff9b:1::1', 'rfc6052'],
    // IPv6 spellings of private IPv4 addresses are judged by the IPv4 address.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:0:169.254.169.254', 'linkLocal'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['2002:c0a8:0101::1', 'private'],
    ['2002:7f00:1::', 'loopback'],
    ['::7f00:1', 'ipv4Compatible'],
    ['::808:808', 'ipv4Compatible'],
    // ipaddr.js reads the dotted `::a.b.c.d` spelling as IPv4-mapped.
    ['::127.0.0.1', 'loopback'],
    // Non-standard IPv4 spellings parse to the address they stand for.
    ['2130706433', 'loopback'],
    ['0x7f000001', 'loopback'],
    ['127.1', 'loopback'],
    ['not an address', 'invalid'],
    ['', 'invalid'],
  ])('refuses %s (%s)', (address, reason) => {
    expect(forbiddenAddressReason(address)).toBe(reason);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.1',
    '192.169.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:0808:0808::1',
  ])('allows the public address %s', (address) => {
    expect(forbiddenAddressReason(address)).toBeUndefined();
  });
});

describe('isForbiddenWebhookHost', () => {
  it.each([
    'localhost',
    'LOCALHOST',
    'localhost.',
    'api.localhost',
    '127.0.0.1',
    '[::1]',
    '::1',
    '[::ffff:7f00:1]',
    '10.1.2.3',
    '169.254.169.254',
    '[fd00::1]',
  ])('refuses %s', (host) => {
    expect(isForbiddenWebhookHost(host)).toBe(true);
  });

  it.each(['shop.example', '8.8.8.8', '[2606:4700:4700::1111]', 'localhost.example.com', 'mylocalhost'])(
    'leaves %s to the delivery-time check',
    (host) => {
      expect(isForbiddenWebhookHost(host)).toBe(false);
    },
  );

  it('judges hosts as the URL parser normalises them', () => {
    for (const url of [
      'http://2130706433/',
      'http://0x7f.1/',
      'http://[0:0:0:0:0:ffff:7f00:1]/',
      'http://127.000.0.1/',
    ]) {
      expect(isForbiddenWebhookHost(new URL(url).hostname), url).toBe(true);
    }
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-22T06:00:00Z');

  it('reads delta seconds and HTTP dates, capped at six hours', () => {
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sun, 22 Nov 2026 06:05:00 GMT', now)).toBe(300);
    expect(parseRetryAfter('Sun, 22 Nov 2026 05:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('999999', now)).toBe(21_600);
    expect(parseRetryAfter('Mon, 30 Nov 2026 06:00:00 GMT', now)).toBe(21_600);
  });

  it('ignores what it cannot read', () => {
    for (const value of [undefined, '', 'soon', '-5', '1.5']) {
      expect(parseRetryAfter(value, now), String(value)).toBeUndefined();
    }
  });
});
