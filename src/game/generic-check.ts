import { readGenerically } from '../../scrapers/generic-profile.js';
import { generic } from '../../scrapers/generic.js';
import { DEFAULT_PROFILE, SiteProfile } from '../../scrapers/site-profile.js';
import type { PageRenderer } from '../browser/page-renderer.js';
import { plainText } from '../model/body.js';
import type { Game } from '../model/game.js';
import type { GenericCheck, GenericFinding, LearnedProfile } from '../model/generic-check.js';
import type { Repos } from '../store/open-store.js';
import { type PageSource, readPage } from '../thread/read-page.js';

/**
 * The generic reader's gate before a game is polled (issue #26). A game read generically
 * (engine `generic`) is polled only with selectors someone vouched for:
 *
 * - its host's learned profile (a GM confirmed a reading of that site): every poll reads
 *   with its plain selectors, so a layout change is a LayoutError naming the URL;
 * - a site profile file that gives `selectors` (written by hand or with
 *   `votal read --generic --write-profile`);
 * - else page 1 is read once for the GM's check and kept (`siteProfiles.saveCheck`), and the
 *   game waits: not polled until the GM confirms (src/app/generic.ts). A refusal of the
 *   reader is the poll's error, shown to the GM like any other.
 */

/** What a poll is held by, in the GM's words (the poll's `reason`, the dashboard's banner). */
const AWAITING_CHECK = "waiting for the GM's check of page 1 as the generic reader read it";

/** The part of the poll's deps the gate reads (PollDeps, structurally). */
export interface GateDeps {
  store: Pick<Repos, 'siteProfiles'>;
  source: PageSource;
  now: () => string;
  profileFor?: ((threadUrl: string) => SiteProfile | undefined) | undefined;
  renderer?: PageRenderer | undefined;
  siteFor?:
    | ((
        game: Game,
      ) => Promise<{ source: PageSource; profile?: SiteProfile | undefined; renderer?: PageRenderer | undefined }>)
    | undefined;
}

export type Gate<D> = { hold: string } | { hold: null; deps: D };

/** Whether the game may be polled, and the deps its poll reads with (the learned selectors put in). */
export async function genericGate<D extends GateDeps>(deps: D, game: Game): Promise<Gate<D>> {
  if (game.engine !== 'generic') return { hold: null, deps };
  const host = hostOf(game.threadUrl);
  const [learned, check] = await Promise.all([
    deps.store.siteProfiles.learned(host),
    deps.store.siteProfiles.check(game.id),
  ]);
  if (check && check.confirmedAt === null) return { hold: AWAITING_CHECK };
  if (learned) return { hold: null, deps: withLearned(deps, learned) };
  const site = await siteOf(deps, game);
  if (site.profile.selectors) return { hold: null, deps };
  const finding = await readForCheck(site, game.threadUrl, deps.now());
  await deps.store.siteProfiles.saveCheck(game.id, host, finding, new Date(deps.now()));
  return { hold: AWAITING_CHECK };
}

export function hostOf(url: string): string {
  return new URL(url).hostname.toLowerCase();
}

/** How many characters of a sample post's text the GM is shown. */
const SAMPLE_CHARS = 160;

/**
 * Page 1 read generically, as the GM checks it: how many posts by how many authors, three
 * of them spread over the page, and the site profile a confirmation stores.
 */
async function readForCheck(
  site: { source: PageSource; profile: SiteProfile; renderer?: PageRenderer | undefined },
  threadUrl: string,
  now: string,
): Promise<GenericFinding> {
  const first = generic.pageUrl(generic.threadRef(new URL(threadUrl)), 1, null);
  const outcome = await readPage(
    { source: site.source, adapter: generic, profile: site.profile, renderer: site.renderer },
    first,
  );
  if (outcome.kind !== 'read') throw new Error(`page 1 asked for without validators came back unchanged: ${first}`);
  const url = outcome.doc.finalUrl;
  const read = readGenerically(outcome.doc.body, { url, profile: site.profile, now });
  const posts = read.reading.page.posts;
  const samples = read.confirm.check.map((n) => {
    const post = posts.find((p) => p.number === n)!;
    const text = plainText(post.body).replace(/\s+/g, ' ').trim();
    return {
      number: post.number,
      author: post.author,
      postedAt: post.postedAt,
      permalink: post.permalink,
      start: text.length > SAMPLE_CHARS ? `${text.slice(0, SAMPLE_CHARS - 1)}…` : text,
    };
  });
  return {
    pageUrl: url,
    page: read.reading.page.page,
    posts: posts.length,
    authors: new Set(posts.map((p) => p.author)).size,
    score: read.reading.finding.score,
    message: read.confirm.message,
    samples,
    notes: read.reading.notes,
    profile: { ...read.profile },
    yaml: read.yaml,
  };
}

async function siteOf(
  deps: GateDeps,
  game: Game,
): Promise<{ source: PageSource; profile: SiteProfile; renderer?: PageRenderer | undefined }> {
  const site = deps.siteFor ? await deps.siteFor(game) : null;
  return {
    source: site?.source ?? deps.source,
    profile: (site ? site.profile : deps.profileFor?.(game.threadUrl)) ?? DEFAULT_PROFILE,
    renderer: site ? site.renderer : deps.renderer,
  };
}

/**
 * The poll's deps with the host's learned selectors over the site's profile: a site profile
 * file keeps its time zone, pause and login; the selectors are the ones the GM confirmed.
 */
function withLearned<D extends GateDeps>(deps: D, learned: LearnedProfile): D {
  const taught = SiteProfile.parse(learned.profile);
  const over = (base: SiteProfile | undefined): SiteProfile =>
    SiteProfile.parse({
      ...(base && base.hosts.length > 0 ? base : taught),
      engine: 'generic',
      ...(taught.selectors ? { selectors: taught.selectors } : {}),
    });
  const siteFor = deps.siteFor;
  return {
    ...deps,
    profileFor: (url: string) => over(deps.profileFor?.(url)),
    siteFor: siteFor
      ? async (game: Game) => {
          const site = await siteFor(game);
          return { ...site, profile: over(site.profile) };
        }
      : undefined,
  };
}

/** Where a game read generically stands, for every surface that shows its count. */
export interface GenericStanding {
  /**
   * `unread`: page 1 not read for a check yet (the next poll reads it, unless a site profile
   * file gives the selectors); `waiting`: page 1 read, waiting for the GM's check (not
   * polled); `confirmed`: polled with the host's learned profile.
   */
  state: 'unread' | 'waiting' | 'confirmed';
  check: GenericCheck | null;
  learned: LearnedProfile | null;
  /** One line saying so, for the GM's page, the draft's page, the live page and the CLI. */
  note: string;
}

/**
 * Null for a game read by an engine's adapter. `forgotten`: the host's learned layout this
 * game was read with was forgotten when a GM had page 1 read again (the `generic.held` audit).
 */
export function genericStanding(
  game: Pick<Game, 'engine' | 'threadUrl'>,
  check: GenericCheck | null,
  learned: LearnedProfile | null,
  forgotten: { by: string; at: string } | null = null,
): GenericStanding | null {
  if (game.engine !== 'generic') return null;
  const host = hostOf(game.threadUrl);
  const reader = "read by Votal's generic reader (no adapter knows this forum's layout)";
  if (check && check.confirmedAt === null) {
    return { state: 'waiting', check, learned, note: `${reader}: ${check.finding.message}` };
  }
  if (learned) {
    return {
      state: 'confirmed',
      check,
      learned,
      note: `${reader} with the layout ${learned.confirmedBy} confirmed for ${host} on ${learned.confirmedAt.slice(0, 10)}`,
    };
  }
  if (check?.confirmedAt || forgotten) {
    // The game was read with the host's layout, since forgotten (a GM had page 1 read again).
    const whose = check?.confirmedAt
      ? `the layout ${check.confirmedBy} confirmed for ${host}`
      : `${host}'s kept layout`;
    const when = forgotten ? ` by ${forgotten.by} on ${forgotten.at.slice(0, 10)}` : '';
    return {
      state: 'unread',
      check,
      learned,
      note: `${reader}: ${whose} was forgotten${when} (the forum's layout changed): page 1 is read again for the GM to check before the game is polled`,
    };
  }
  return {
    state: 'unread',
    check,
    learned,
    note: `${reader}: page 1 is read first for the GM to check, unless a site profile file gives ${host}'s selectors`,
  };
}
