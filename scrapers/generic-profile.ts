import { stringify } from 'yaml';
import type { PageContext } from './adapter.js';
import { describe, type GenericReading, readGeneric } from './generic.js';
import { SiteProfile } from './site-profile.js';

/**
 * What a confirmed generic reading teaches, kept: the selectors it found become a site
 * profile for the host (engine `generic`), so later polls read with plain selectors and a
 * layout change is a LayoutError naming the URL, as for any adapter.
 */
export function profileFromReading(reading: GenericReading, url: string, base: SiteProfile): SiteProfile {
  const host = new URL(url).hostname;
  return SiteProfile.parse({
    ...base,
    hosts: base.hosts.length > 0 ? base.hosts : [host],
    engine: 'generic',
    selectors: reading.finding.selectors,
  });
}

/** The profile as the text of `sites/<host>.yaml`, with a comment saying where it came from. */
function profileYaml(profile: SiteProfile, url: string, reading: GenericReading): string {
  const { hosts, engine, timeZone, dateOrder, selectors } = profile;
  const lines = [
    `# Found by Votal's generic reader on ${url}`,
    `# (${describe(reading.finding).replace(/\n/g, ' ')}).`,
    '# Check the time zone and date order: the page does not say them.',
  ];
  return `${lines.join('\n')}\n${stringify({ name: hosts[0], hosts, engine, timeZone, dateOrder, selectors }, { lineWidth: 0 })}`;
}

/** What `votal read <url> --generic` shows: the reading, and the profile it would store. */
export interface GenericReadResult {
  reading: GenericReading;
  profile: SiteProfile;
  yaml: string;
  /** "Votal found 25 posts by 12 authors on page 1 — check three of them", and which three. */
  confirm: { message: string; check: number[] };
}

/**
 * Read one page generically and say what would be kept: the function the CLI wires as
 * `votal read <url> --generic`. Throws the reader's refusal (a LayoutError naming the URL).
 */
export function readGenerically(html: string, ctx: PageContext): GenericReadResult {
  const reading = readGeneric(html, ctx);
  const profile = profileFromReading(reading, ctx.url, ctx.profile);
  return { reading, profile, yaml: profileYaml(profile, ctx.url, reading), confirm: confirmation(reading) };
}

/** The GM's one check before a generically read game is polled: three posts spread over the page. */
export function confirmation(reading: GenericReading): { message: string; check: number[] } {
  const posts = reading.page.posts;
  const authors = new Set(posts.map((p) => p.author)).size;
  const picks = [...new Set([0, Math.floor((posts.length - 1) / 2), posts.length - 1])].map((i) => posts[i]!.number);
  const n = picks.length === 1 ? 'it' : picks.length === 2 ? 'both of them' : 'three of them';
  return {
    message: `Votal found ${posts.length} post${posts.length === 1 ? '' : 's'} by ${authors} author${authors === 1 ? '' : 's'} on page ${reading.page.page}: check ${n} (posts ${picks.join(', ')}) before the game is polled`,
    check: picks,
  };
}
