import type { EngineId } from '../model/engine.js';
import { EngineId as EngineIdSchema } from '../model/engine.js';
import type { GmEvent } from '../model/event.js';
import type { Roster } from '../model/roster.js';
import type { Tally } from '../model/tally.js';
import { FetchError } from '../fetch/errors.js';
import { assertPublicUrl } from '../fetch/private-host.js';
import { postEvents } from '../parse/post-events.js';
import { loadEvents } from '../rules/load-events.js';
import { loadRuleset } from '../rules/load-ruleset.js';
import type { Ruleset } from '../rules/ruleset.js';
import { CookieFileError } from '../site/cookie-file.js';
import { SiteProfileError } from '../site/load-site-profiles.js';
import { openSiteReading } from '../site/site-reading.js';
import { foldGame, type PostHistory } from '../game/fold-game.js';
import { foldWithOwnDeaths } from '../game/reading-events.js';
import type { Post } from '../model/post.js';
import { rosterAt } from '../tally/slot-names.js';
import { readThread, type PageSource, type ThreadRead } from '../thread/read-thread.js';
import { renderBbcode } from '../votal/render-bbcode.js';
import { renderText } from '../votal/render-text.js';
import { CliError, EXIT } from './exit-codes.js';
import { forumFailure } from './forum-failure.js';
import { rosterFromOptions } from './players.js';
import { checkEventNames, posterNotes, refuseUnknownEventNames } from './roster-checks.js';
import type { ProgressLine } from './progress.js';

export interface CountOptions {
  ruleset: string;
  players?: string;
  playersFile?: string;
  engine?: string;
  day?: number;
  fromPost?: number;
  toPost?: number;
  events?: string;
  format: 'text' | 'json' | 'bbcode';
  /** Site profile files or folders (`--site-profile`, repeatable). */
  siteProfile?: string[];
  /** Logged-in session for the thread's site (`--cookies`). */
  cookies?: string;
  /** Keep what was read; a re-count fetches only from the last page seen (`--cache-dir`). */
  cacheDir?: string;
  /** Allow the Chromium fallback for pages that draw posts with JavaScript (`--browser`). */
  browser?: boolean;
  /** `public` hides what only the GM may see (hidden vote weights); default `gm`. */
  view?: 'gm' | 'public';
  /** Give every number its explanation (the posts and events behind it). */
  explain?: boolean;
  /** The count as it stood at this time (ISO 8601). */
  atTime?: string;
  /** The Day's deadline (ISO 8601): the ruleset's clock rules (deadline, Hammer checks) apply. */
  deadline?: string;
  /** The GM and co-hosts' forum names (`--hosts`); default: the thread's opening poster. */
  hosts?: string;
  /** A GM event naming no player is a note, not an error (`--allow-unknown`). */
  allowUnknown?: boolean;
  /** Progress on stderr (pages read of known, pause, time left, retries); absent with `--quiet`. */
  progress?: ProgressLine | undefined;
}

export interface CountResult {
  tally: Tally;
  output: string;
  /** Things the user should know that are not the count (shown on stderr). */
  notes: string[];
}

/** `votal count`: fetch, parse, tally, print. No database. */
export async function runCount(url: string, opts: CountOptions, source?: PageSource): Promise<CountResult> {
  const engine = parseEngine(opts.engine);
  const ruleset = loadWithContext(() => loadRuleset(opts.ruleset));
  const gmEvents: GmEvent[] = opts.events ? loadWithContext(() => loadEvents(opts.events!)) : [];
  const notes: string[] = [];
  // GM events naming no player and bad times are the user's to fix (exit 2), before any forum is asked.
  const checkEvents = eventsChecker(gmEvents, ruleset, opts, notes);
  const listed = rosterFromOptions(opts);
  if (listed) checkEvents(listed);
  checkTimes(opts);
  const thread = await readCounted(url, opts, engine, notes, source);
  // Never silent: no adapter knows this forum, so the GM checks what the generic reader found.
  if (thread.engine === 'generic') notes.push(genericNote(thread));
  const inDay = thread.posts.filter(
    (p) =>
      (opts.fromPost === undefined || p.number >= opts.fromPost) &&
      (opts.toPost === undefined || p.number <= opts.toPost),
  );
  const roster = listed ?? playersFromPosters(thread);
  if (!listed) {
    notes.push(
      `no --players given: counting the ${roster.length} people who posted after the opening post (${roster.map((s) => s.name).join(', ')})`,
    );
  }
  if (opts.day !== undefined && !gmEvents.some((e) => e.kind === 'day-start')) {
    gmEvents.push({ kind: 'day-start', day: opts.day, at: Math.max(0, (opts.fromPost ?? 1) - 1) });
  }
  const hosts = hostsOf(opts, thread);
  if (!listed) checkEvents(roster);
  if (opts.players !== undefined || opts.playersFile !== undefined)
    notes.push(
      ...posterNotes(
        inDay.map((p) => p.author),
        roster,
        hosts,
        gmEvents,
        ruleset.names,
      ),
    );
  const tally = await countDay({ posts: inDay, roster, gmEvents, ruleset, engine: thread.engine, hosts }, opts);
  return { tally, output: format(tally, opts.format), notes };
}

/** Checks the GM events' names against a roster: a name no player has is an error (exit 2), or a note with `--allow-unknown`. */
function eventsChecker(
  gmEvents: readonly GmEvent[],
  ruleset: Ruleset,
  opts: CountOptions,
  notes: string[],
): (players: Roster) => void {
  return (players) => {
    const problems = checkEventNames(gmEvents, players, ruleset.names, opts.events ?? '--events');
    if (opts.allowUnknown) notes.push(...problems);
    else refuseUnknownEventNames(problems);
  };
}

/** `--deadline` and `--at-time` are ISO 8601 times. */
function checkTimes(opts: CountOptions): void {
  for (const [flag, value] of [
    ['--deadline', opts.deadline],
    ['--at-time', opts.atTime],
  ] as const) {
    if (value !== undefined && Number.isNaN(Date.parse(value)))
      throw new CliError(`${flag} is not an ISO 8601 time: ${value}`);
  }
}

/** The thread at a public URL, read; a forum's failure or a bad site profile or cookie file is the CLI's error, with the notes so far. */
async function readCounted(
  url: string,
  opts: CountOptions,
  engine: EngineId | undefined,
  notes: string[],
  source: PageSource | undefined,
): Promise<ThreadRead> {
  try {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new CliError(`not a URL: ${url}`);
    }
    await assertPublicUrl(parsed.href);
    return await readWithSite(parsed.href, opts, engine, notes, source);
  } catch (e) {
    const told = notes.length
      ? `${(e as Error).message}\n${notes.map((n) => `note: ${n}`).join('\n')}`
      : (e as Error).message;
    if (e instanceof FetchError) throw forumFailure(e, told, engine, url);
    if (e instanceof SiteProfileError || e instanceof CookieFileError) throw new CliError(told, EXIT.input);
    throw e;
  }
}

function genericNote(thread: ThreadRead): string {
  const authors = new Set(thread.posts.map((p) => p.author)).size;
  return `read by the generic reader (no adapter knows this forum's layout): ${thread.posts.length} posts by ${authors} authors on ${thread.pageCount} page(s); check a few against the thread before trusting the count`;
}

/** What one Day's count is made of, once the thread is read and the roster known. */
interface DayCounted {
  posts: readonly Post[];
  roster: Roster;
  gmEvents: readonly GmEvent[];
  ruleset: Ruleset;
  engine: ThreadRead['engine'];
  hosts: readonly string[];
}

/** The one count of the posts, read with the count's own deaths, as the options ask (the Day, the clock, the view). */
async function countDay(day: DayCounted, opts: CountOptions): Promise<Tally> {
  const { roster, gmEvents, ruleset } = day;
  // `--deadline` is the deadline of the Day counted: `--day`, else the last Day the GM events start.
  const clockDays =
    opts.deadline === undefined ? [] : [{ day: opts.day ?? lastDayStarted(gmEvents), deadline: opts.deadline }];
  // The count is made now: checks and deadlines up to now (or `--at-time`) have passed.
  const now = opts.atTime ?? new Date().toISOString();
  const { folded } = await foldWithOwnDeaths(
    gmEvents,
    (events) => postHistoriesOf(day.posts, roster, events, ruleset),
    (posts) =>
      foldGame({
        ruleset,
        roster,
        engine: day.engine,
        posts,
        gmEvents,
        clockDays,
        now,
        ...(opts.toPost !== undefined ? { toPost: opts.toPost } : {}),
        ...(opts.day !== undefined ? { countDay: opts.day } : {}),
        ...(opts.atTime !== undefined ? { toTime: opts.atTime } : {}),
        view: opts.view ?? 'gm',
        explain: opts.explain ?? false,
        hosts: day.hosts,
      }),
    { maxRounds: roster.length + 2 },
  );
  return folded.tally;
}

/** The thread read the way its site's profile says (pause, cookies, browser, cache). */
async function readWithSite(
  url: string,
  opts: CountOptions,
  engine: EngineId | undefined,
  notes: string[],
  source: PageSource | undefined,
): Promise<ThreadRead> {
  const site = await openSiteReading({
    threadUrl: url,
    ...(opts.siteProfile ? { profileFiles: opts.siteProfile } : {}),
    ...(opts.cookies ? { cookiesFile: opts.cookies } : {}),
    ...(opts.cacheDir ? { cacheDir: opts.cacheDir } : {}),
    ...(opts.browser ? { browser: true } : {}),
    ...(source ? { source } : {}),
    ...(opts.progress ? { fetcher: { onRetry: (info) => opts.progress?.retry(info) } } : {}),
  });
  try {
    const read = await readThread(url, {
      source: site.source,
      profile: site.profile,
      ...(engine ? { engine } : {}),
      ...(site.cache ? { cache: site.cache } : {}),
      ...(site.renderer ? { renderer: site.renderer } : {}),
      onNote: (n) => site.notes.push(n),
      ...(opts.progress ? { onProgress: (p) => opts.progress?.page(p) } : {}),
    });
    if (site.cache) notes.push(describeRead(read));
    return read;
  } finally {
    notes.push(...site.notes);
    await site.close();
  }
}

function describeRead(read: ThreadRead): string {
  const { fromCache, unchanged, read: fresh } = read.summary;
  const pages = (ns: number[]) => (ns.length === 1 ? `page ${ns[0]}` : `pages ${ns[0]}-${ns.at(-1)}`);
  const parts = [
    fromCache.length ? `${pages(fromCache)} from the cache` : null,
    unchanged.length ? `${pages(unchanged)} unchanged` : null,
    fresh.length ? `${pages(fresh)} read` : null,
  ].filter(Boolean);
  return `${read.pageCount} page${read.pageCount === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

function format(tally: Tally, fmt: CountOptions['format']): string {
  if (fmt === 'json') return JSON.stringify(tally, null, 2) + '\n';
  // BBCode is the text posted to the players as it is: nothing meant for the GM alone.
  if (fmt === 'bbcode') return renderBbcode(tally, { audience: 'players' });
  return renderText(tally);
}

export function parseEngine(engine: string | undefined): EngineId | undefined {
  if (engine === undefined) return undefined;
  const r = EngineIdSchema.safeParse(engine);
  if (!r.success) throw new CliError(`unknown engine "${engine}" (known: ${EngineIdSchema.options.join(', ')})`);
  return r.data;
}

/** Ruleset and events errors already name file:line:column; they are the user's to fix. */
function loadWithContext<T>(load: () => T): T {
  try {
    return load();
  } catch (e) {
    throw new CliError((e as Error).message);
  }
}

/** The Day counted by default: the last one a GM event starts. */
function lastDayStarted(events: readonly GmEvent[]): number {
  return Math.max(1, ...events.flatMap((e) => (e.kind === 'day-start' ? [e.day] : [])));
}

/**
 * Each post as the one count takes it (the forum's current body; `votal count` keeps no
 * history), read with the roster the game knew at that post (replacements and deaths before it: the
 * GM's and the count's own, `readingEvents`).
 */
function postHistoriesOf(
  posts: readonly Post[],
  roster: Roster,
  gmEvents: readonly GmEvent[],
  ruleset: Ruleset,
): PostHistory[] {
  return posts.map((p) => {
    const [event] = postEvents([p], rosterAt(roster, gmEvents, { number: p.number, postedAt: p.postedAt }), ruleset);
    return {
      number: p.number,
      author: p.author,
      postedAt: p.postedAt,
      permalink: p.permalink,
      deleted: false,
      revisions: [{ reading: event!.reading, firstSeen: p.postedAt ?? EPOCH, edit: p.edit, text: '' }],
    };
  });
}

/** A post the forum gives no time is taken as seen from the start (it is never an edit here). */
const EPOCH = '1970-01-01T00:00:00.000Z';

/** The hosts: `--hosts`, else the thread's opening poster (who opened the game). */
function hostsOf(opts: CountOptions, thread: ThreadRead): string[] {
  if (opts.hosts !== undefined)
    return opts.hosts
      .split(',')
      .map((h) => h.trim())
      .filter((h) => h !== '');
  const opener = thread.posts[0]?.author;
  return opener ? [opener] : [];
}

/** Without a player list, everyone who posted after the opening post (usually the GM's). */
function playersFromPosters(thread: ThreadRead): Roster {
  const gm = thread.posts[0]?.author;
  const names = [...new Set(thread.posts.map((p) => p.author))].filter((n) => n && n !== gm);
  return names.map((name) => ({ name, aliases: [], formerNames: [], alive: true }));
}

export type { Ruleset };
