import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { NetworkError, PrivateHostError, UnsupportedUrlError } from './errors.js';

/**
 * SSRF guard. `votal serve` fetches URLs that users paste, so a thread URL must not
 * reach the machine itself or the private network behind it. Checked for every
 * request, redirects included.
 *
 * Limit: the check resolves the name, then fetch resolves it again; a DNS answer that
 * changes in between (rebinding) is not caught. Closing that needs a custom dispatcher.
 */

/** Resolves a hostname to all its addresses. Injectable so tests need no DNS. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

export const resolveWithDns: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** Addresses that are not on the public internet. */
const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", includes the unspecified 0.0.0.0
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, includes broadcast
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');
}
// IPv4-mapped IPv6 (::ffff:10.0.0.1) is matched against the IPv4 rules by BlockList.
// NAT64 and 6to4 embed an IPv4 address in other places; check the embedded one.
const EMBEDS_IPV4 = [
  { range: subnet('64:ff9b::', 96), at: 96 }, // NAT64: last 32 bits
  { range: subnet('2002::', 16), at: 16 }, // 6to4: bits 16..47
];

function subnet(prefix: string, bits: number): BlockList {
  const list = new BlockList();
  list.addSubnet(prefix, bits, 'ipv6');
  return list;
}

/** True when the address (IPv4 or IPv6 literal) is loopback, private or otherwise not public. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return NOT_PUBLIC.check(address, 'ipv4');
  if (family !== 6) return false;
  if (NOT_PUBLIC.check(address, 'ipv6')) return true;
  for (const { range, at } of EMBEDS_IPV4) {
    if (range.check(address, 'ipv6')) {
      const embedded = embeddedIpv4(address, at);
      if (embedded && NOT_PUBLIC.check(embedded, 'ipv4')) return true;
    }
  }
  return false;
}

/** The IPv4 address stored at bit offset `at` of an IPv6 address. */
function embeddedIpv4(address: string, at: number): string | null {
  const words = expandIpv6(address);
  if (!words) return null;
  const hi = words[at / 16];
  const lo = words[at / 16 + 1];
  if (hi === undefined || lo === undefined) return null;
  return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
}

/** Eight 16-bit words of an IPv6 literal (handles `::` and a dotted IPv4 tail). */
function expandIpv6(address: string): number[] | null {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a, b, c, d] = dotted[1].split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part ? part.split(':').map((w) => parseInt(w, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const fill = 8 - left.length - right.length;
  if (fill < 0 || (tail === undefined && fill !== 0)) return null;
  return [...left, ...Array<number>(fill).fill(0), ...right];
}

export interface AssertPublicUrlOptions {
  /** Allow private and loopback hosts (tests, a local fake forum). */
  allowPrivate?: boolean;
  resolve?: ResolveHost;
}

/**
 * Throws unless `url` is http(s) and its host, and every address its name resolves to,
 * is public. `allowPrivate` defaults to `VOTAL_ALLOW_PRIVATE_HOSTS=1`.
 */
export async function assertPublicUrl(url: string | URL, opts: AssertPublicUrlOptions = {}): Promise<URL> {
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    throw new UnsupportedUrlError(String(url), 'not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UnsupportedUrlError(parsed, `only http and https are fetched, not ${parsed.protocol}`);
  }
  const allowPrivate = opts.allowPrivate ?? process.env.VOTAL_ALLOW_PRIVATE_HOSTS === '1';
  if (allowPrivate) return parsed;

  // WHATWG URL already normalised odd IPv4 forms (http://2130706433/ -> 127.0.0.1).
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host)) {
    if (isPrivateAddress(host)) throw new PrivateHostError(parsed, `${host} is not a public address`);
    return parsed;
  }

  const resolve = opts.resolve ?? resolveWithDns;
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'lookup failed';
    // EAI_AGAIN is a temporary resolver failure; ENOTFOUND will not fix itself soon.
    throw new NetworkError(parsed, `cannot resolve ${host} (${code})`, {
      retryable: code === 'EAI_AGAIN',
      cause: error,
    });
  }
  const bad = addresses.find(isPrivateAddress);
  if (bad !== undefined) {
    throw new PrivateHostError(parsed, `${host} resolves to ${bad}`);
  }
  if (addresses.length === 0) {
    throw new NetworkError(parsed, `cannot resolve ${host} (no addresses)`, { retryable: false });
  }
  return parsed;
}
