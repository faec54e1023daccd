import { z } from 'zod';

/**
 * Which hosts a site profile is for: `forum.example.com` (that host), `*.example.com`
 * (any host under example.com, not example.com itself), or with a port,
 * `127.0.0.1:8080` (that host and port only: local boards and test forums).
 */
export const HostPattern = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(\*\.)?[a-z0-9_.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/, {
    message: 'a host name ("forum.example.com"), "*.example.com" or "host:port"',
  });

export function hostMatches(pattern: string, url: URL): boolean {
  const p = pattern.toLowerCase();
  const host = /:\d+$/.test(p) ? url.host : url.hostname;
  if (!p.startsWith('*.')) return host === p;
  return host.endsWith(p.slice(1)) && host.length > p.length - 1;
}

/**
 * How closely a pattern names a host, to pick one profile when several match: an exact
 * host with a port, then an exact host, then the longest wildcard.
 */
export function hostSpecificity(pattern: string): number {
  if (pattern.startsWith('*.')) return pattern.length;
  return 10_000 + (/:\d+$/.test(pattern) ? 1_000 : 0) + pattern.length;
}
