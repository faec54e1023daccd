import { lookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { BlockList, isIP } from 'node:net';
import type { Dispatcher } from 'undici-types';
import { NetworkError, PrivateHostError, UnsupportedUrlError } from './errors.js';

/**
 * SSRF guard. `votal serve` fetches URLs that users paste, so a thread URL must not
 * reach the machine itself or the private network behind it. One address policy
 * (`isPrivateAddress`), applied twice: to the URL before a request is queued (a clear
 * early error), and again at connect time to the address the socket really connects to
 * (`guardedDispatcher`'s lookup), so a DNS answer that changes in between (rebinding)
 * cannot pass.
 */

/** Resolves a hostname to all its addresses. Injectable so tests need no DNS. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

const resolveWithDns: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** IPv4 ranges that are not on the public internet (IANA special-purpose registry). */
const NOT_PUBLIC_V4 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", includes the unspecified 0.0.0.0
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, includes broadcast
] as const) {
  NOT_PUBLIC_V4.addSubnet(net, prefix, 'ipv4');
}

/** IPv6 ranges refused whole, whatever they carry. */
const NOT_PUBLIC_V6 = new BlockList();
for (const [net, prefix] of [
  ['::', 96], // unspecified, loopback and IPv4-compatible (::7f00:1, deprecated)
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT)
  ['64:ff9b:1::', 48], // NAT64 for local use
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo (a tunnel that carries an IPv4 address)
  ['2001:2::', 48], // benchmarking
  ['2001:10::', 28], // ORCHID (deprecated)
  ['2001:20::', 28], // ORCHIDv2
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (deprecated; carries an IPv4 address)
  ['3fff::', 20], // documentation
  ['5f00::', 16], // segment routing SIDs
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  NOT_PUBLIC_V6.addSubnet(net, prefix, 'ipv6');
}

/** IPv6 ranges that carry an IPv4 address in their last 32 bits: judged by that address. */
const CARRIES_V4 = new BlockList();
CARRIES_V4.addSubnet('::ffff:0:0', 96, 'ipv6'); // IPv4-mapped
CARRIES_V4.addSubnet('64:ff9b::', 96, 'ipv6'); // NAT64 well-known prefix

/** True when the address (IPv4 or IPv6 literal) is loopback, private or otherwise not public. */
export function isPrivateAddress(address: string): boolean {
  // A zone id (fe80::1%eth0) names an interface: only link-local addresses have one.
  const bare = address.replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return NOT_PUBLIC_V4.check(bare, 'ipv4');
  if (family !== 6) return false;
  const words = expandIpv6(bare);
  if (!words) return true; // isIP accepted it but we cannot read it: refuse rather than guess
  const canonical = words.map((w) => w.toString(16)).join(':');
  if (CARRIES_V4.check(canonical, 'ipv6')) return NOT_PUBLIC_V4.check(lastV4(words), 'ipv4');
  return NOT_PUBLIC_V6.check(canonical, 'ipv6');
}

/** The IPv4 address in the last 32 bits of an IPv6 address's words. */
function lastV4(words: readonly number[]): string {
  const [hi = 0, lo = 0] = words.slice(6);
  return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
}

/**
 * Narrower than "not public": the networks a site's own machines sit on (loopback,
 * RFC 1918, carrier-grade NAT, link-local, unique-local). A reverse proxy in front of
 * Votal is on one of these; a documentation or reserved address is not a proxy of ours.
 */
const PRIVATE_NET_V4 = new BlockList();
for (const [net, prefix] of [
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  PRIVATE_NET_V4.addSubnet(net, prefix, 'ipv4');
}
const PRIVATE_NET_V6 = new BlockList();
PRIVATE_NET_V6.addAddress('::1', 'ipv6');
PRIVATE_NET_V6.addSubnet('fc00::', 7, 'ipv6');
PRIVATE_NET_V6.addSubnet('fe80::', 10, 'ipv6');

export function isPrivateNetworkAddress(address: string): boolean {
  const bare = address.replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return PRIVATE_NET_V4.check(bare, 'ipv4');
  if (family !== 6) return false;
  const words = expandIpv6(bare);
  if (!words) return false;
  const canonical = words.map((w) => w.toString(16)).join(':');
  // An IPv4-mapped socket address (::ffff:10.0.0.2) is the IPv4 one.
  if (canonical.startsWith('0:0:0:0:0:ffff:')) return PRIVATE_NET_V4.check(lastV4(words), 'ipv4');
  return PRIVATE_NET_V6.check(canonical, 'ipv6');
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
  const words = [...left, ...Array<number>(fill).fill(0), ...right];
  return words.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffff) ? words : null;
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

/** Raised inside the socket's lookup when a name resolves to a refused address. */
export class PrivateAddressAtConnect extends Error {
  readonly code = 'EVOTALPRIVATE';
  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    super(`${hostname} resolves to ${address} at connect time`);
    this.name = 'PrivateAddressAtConnect';
  }
}

export interface GuardOptions {
  /** Allow private and loopback hosts (tests, a local fake forum). */
  allowPrivate?: boolean | undefined;
  resolve?: ResolveHost | undefined;
  /** Connecting (lookup and handshake) may take this long; undici's own default is 10 s. */
  connectTimeoutMs?: number | undefined;
}

/**
 * A `lookup` for sockets (net/tls `connect`): resolves the name, and refuses when any
 * answer is not public, so the address checked is the address connected to.
 */
export function guardedLookup(opts: GuardOptions = {}): LookupFunction {
  const resolve = opts.resolve ?? resolveWithDns;
  const allowPrivate = opts.allowPrivate ?? process.env.VOTAL_ALLOW_PRIVATE_HOSTS === '1';
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (answers) => {
        const bad = allowPrivate ? undefined : answers.find(isPrivateAddress);
        if (bad !== undefined) return callback(new PrivateAddressAtConnect(hostname, bad), '', 0);
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const found = answers
          .map((address) => ({ address, family: isIP(address) }))
          .filter((a) => a.family !== 0 && (wanted === 0 || a.family === wanted));
        const first = found[0];
        if (!first) {
          const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
          return callback(error, '', 0);
        }
        if (options.all) (callback as unknown as (e: null, all: typeof found) => void)(null, found);
        else callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
}

/** Node's fetch takes undici's `dispatcher` in its init; the DOM typing does not name it. */
export type GuardedRequestInit = RequestInit & { dispatcher: Dispatcher };

type AgentClass = new (options: { connect: { lookup: LookupFunction; timeout?: number } }) => Dispatcher;
let agentClass: AgentClass | undefined;

/**
 * An HTTP dispatcher for Node's global fetch whose every connection goes through
 * `guardedLookup`. Node 20 bundles undici without exporting it; its global dispatcher
 * (created when fetch is first used) is an instance of undici's Agent, so its class is
 * taken from there rather than adding undici as a second copy.
 */
export async function guardedDispatcher(opts: GuardOptions = {}): Promise<Dispatcher> {
  if (!agentClass) {
    const key = Symbol.for('undici.globalDispatcher.1');
    const holder = globalThis as unknown as Record<symbol, { constructor?: AgentClass } | undefined>;
    if (!holder[key]) await fetch('data:,').catch(() => undefined); // loads Node's undici
    const found = holder[key]?.constructor;
    if (typeof found !== 'function' || found.name !== 'Agent') {
      throw new Error("cannot guard connections: Node's fetch has no undici Agent to build on");
    }
    agentClass = found;
  }
  return new agentClass({
    connect: {
      lookup: guardedLookup(opts),
      ...(opts.connectTimeoutMs !== undefined ? { timeout: opts.connectTimeoutMs } : {}),
    },
  });
}

/** The refusal at connect time inside whatever fetch threw, if that is what it was. */
export function refusedAtConnect(error: unknown): PrivateAddressAtConnect | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof PrivateAddressAtConnect) return e;
  }
  return undefined;
}
