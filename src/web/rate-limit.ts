import { BlockList, isIP } from 'node:net';
import type { Context, MiddlewareHandler } from 'hono';
import { isPrivateNetworkAddress } from '../fetch/private-host.js';

/**
 * A token bucket per client IP, in process memory, for the public routes: `capacity`
 * requests at once, refilled at `perSecond`. Enough to keep one client from hammering
 * the live page; not a defence against a distributed flood (a reverse proxy's job).
 */
export interface RateLimitOptions {
  capacity?: number;
  perSecond?: number;
  /** The clock, ms (tests). */
  now?: () => number;
  /** Buckets kept at most (the idlest are dropped first). Default 10 000. */
  maxClients?: number;
  /** The client's key; default: the socket's remote address. */
  keyOf?: (c: Context) => string;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class TokenBuckets {
  readonly #buckets = new Map<string, Bucket>();
  readonly #capacity: number;
  readonly #perMs: number;
  readonly #now: () => number;
  readonly #max: number;

  constructor(opts: RateLimitOptions = {}) {
    this.#capacity = opts.capacity ?? 60;
    this.#perMs = (opts.perSecond ?? 2) / 1000;
    this.#now = opts.now ?? Date.now;
    this.#max = opts.maxClients ?? 10_000;
  }

  /** The ms until `key` has a token (0: it has one now), without taking it. */
  waitFor(key: string): number {
    const bucket = this.#buckets.get(key);
    if (!bucket) return 0;
    const tokens = Math.min(this.#capacity, bucket.tokens + (this.#now() - bucket.at) * this.#perMs);
    return tokens >= 1 ? 0 : Math.ceil((1 - tokens) / this.#perMs);
  }

  /** Takes one token; returns 0 when allowed, else the ms until one is free. */
  take(key: string): number {
    const now = this.#now();
    let bucket = this.#buckets.get(key);
    if (bucket) {
      bucket.tokens = Math.min(this.#capacity, bucket.tokens + (now - bucket.at) * this.#perMs);
      bucket.at = now;
      this.#buckets.delete(key); // re-insert: Map order = least recently used first
    } else {
      bucket = { tokens: this.#capacity, at: now };
      if (this.#buckets.size >= this.#max) {
        const oldest = this.#buckets.keys().next();
        if (!oldest.done) this.#buckets.delete(oldest.value);
      }
    }
    this.#buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - bucket.tokens) / this.#perMs);
  }
}

/** The remote address of the connection (node-server), else "unknown" (app.request in tests). */
export function clientIp(c: Context): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? 'unknown';
}

/**
 * Which hops are our own reverse proxies (`VOTAL_TRUST_PROXY`): `false` trusts none (the
 * socket's address is the client), `private` trusts loopback and private addresses, a
 * list trusts those addresses and CIDR ranges.
 */
export type TrustProxy = false | 'private' | readonly string[];

/** Hops of X-Forwarded-For read at most (from the right): a forged header cannot make us walk it all. */
const MAX_HOPS = 20;

/** Tells trusted proxy addresses. */
function proxyTrust(trust: TrustProxy): (address: string) => boolean {
  if (trust === false) return () => false;
  if (trust === 'private') return (a) => isPrivateNetworkAddress(a);
  const list = new BlockList();
  for (const entry of trust) {
    const [address, bits] = entry.split('/');
    const family = isIP(address ?? '');
    if (family === 0) throw new TypeError(`VOTAL_TRUST_PROXY: "${entry}" is not an IP address or CIDR range`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(address!, type);
    else list.addSubnet(address!, Number(bits), type);
  }
  return (a) => {
    const family = isIP(a);
    return family !== 0 && list.check(a, family === 4 ? 'ipv4' : 'ipv6');
  };
}

/** `::ffff:10.0.0.1` is the IPv4 address 10.0.0.1. */
const plain = (address: string): string => address.trim().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');

/**
 * The client's address: the socket's, unless that is a trusted proxy; then the rightmost
 * X-Forwarded-For hop that is not a trusted proxy (hops further left are the client's
 * own say, and can be forged).
 */
export function clientAddressOf(trust: TrustProxy): (c: Context) => string {
  const trusted = proxyTrust(trust);
  if (trust === false) return clientIp;
  return (c) => {
    let address = plain(clientIp(c));
    if (!trusted(address)) return address;
    const hops = (c.req.header('x-forwarded-for') ?? '').split(',').slice(-MAX_HOPS);
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = plain(hops[i]!);
      if (hop === '') continue;
      address = hop.slice(0, 64);
      if (!trusted(address)) return address;
    }
    return address;
  };
}

export function rateLimit(opts: RateLimitOptions = {}): MiddlewareHandler {
  const buckets = new TokenBuckets(opts);
  const keyOf = opts.keyOf ?? clientIp;
  return async (c, next) => {
    const waitMs = buckets.take(keyOf(c));
    if (waitMs > 0) {
      c.header('Retry-After', String(Math.max(1, Math.ceil(waitMs / 1000))));
      return c.json({ error: 'too many requests; slow down' }, 429);
    }
    await next();
  };
}
