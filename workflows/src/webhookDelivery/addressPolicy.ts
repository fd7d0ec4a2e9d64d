/**
 * Which addresses may receive webhooks: public unicast only, so a merchant-supplied URL cannot make
 * the service call into its own network (SSRF). IPv6 forms that embed an IPv4 address are judged by it.
 */
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

function ipv4From(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/** The IPv4 address an IPv6 address stands for, when it is one of the translation or tunnel forms. */
function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 | 'ipv4Compatible' | undefined {
  const p = ip.parts;
  const at = (i: number) => p[i] ?? 0;
  switch (ip.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return ipv4From(at(6), at(7));
    case 'rfc6052':
      // Only the well-known 64:ff9b::/96 carries the address in its last 32 bits; 64:ff9b:1::/48 is local use.
      return at(1) === 0xff9b && at(2) === 0 && at(3) === 0 && at(4) === 0 && at(5) === 0
        ? ipv4From(at(6), at(7))
        : undefined;
    case '6to4':
      return ipv4From(at(1), at(2));
    default:
      // ::a.b.c.d (deprecated IPv4-compatible form); `::` and `::1` have ranges of their own.
      return ip.range() === 'unicast' && p.slice(0, 6).every((part) => part === 0)
        ? 'ipv4Compatible'
        : undefined;
  }
}

/**
 * Why an IP address may not receive webhooks (its range, e.g. `loopback`, `private`,
 * `carrierGradeNat`, `uniqueLocal`), or undefined for a public unicast address. Anything that does
 * not parse as an address is refused too.
 */
export function forbiddenAddressReason(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'invalid';
  let ip: Address = ipaddr.parse(address);
  if (ip.kind() === 'ipv6') {
    const embedded = embeddedIPv4(ip as ipaddr.IPv6);
    if (embedded === 'ipv4Compatible') return embedded;
    if (embedded) ip = embedded;
  }
  const range = ip.range();
  return range === 'unicast' ? undefined : range;
}

/**
 * Whether a URL's host is refused without a DNS lookup: a literal IP outside public unicast, or a
 * `localhost` name (RFC 6761 reserves it for loopback). Other names are checked when resolved.
 */
export function isForbiddenWebhookHost(hostname: string): boolean {
  const host = hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return ipaddr.isValid(host) ? forbiddenAddressReason(host) !== undefined : false;
}
