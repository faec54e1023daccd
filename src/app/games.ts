import { z } from 'zod';
import { sealPublish } from '../config/publish-settings.js';
import { MissingSecretKeyError } from '../config/secrets.js';
import { PrivateHostError } from '../fetch/errors.js';
import { assertPublicUrl } from '../fetch/private-host.js';
import { gameRuleset } from '../game/game-ruleset.js';
import { EngineId } from '../model/engine.js';
import { GmEvent, positionedNow } from '../model/event.js';
import { GameStatus, Slug, type Game } from '../model/game.js';
import {
  DaySetting,
  DraftSettings,
  GmNames,
  PublishInput,
  TimeZone,
  type GameSettingsInput,
  type SettingsChange,
} from '../model/game-settings.js';
import { MAX_PLAYERS, parsePlayerList, rosterTooLarge, Slot, type Roster } from '../model/roster.js';
import { cookieJarFromExport } from '../publish/cookie-jar.js';
import { listRulesets, loadRuleset } from '../rules/load-ruleset.js';
import { compileTemplate, TemplateError } from '../votal/template.js';
import { adapterOf, engineFromUrl } from '../../scrapers/identify.js';
import { storeOn } from '../store/open-store.js';
import { kickPoll, recountAfter, type CommandDeps, type Recount } from './deps.js';
import { Conflict, Invalid, NotFound, parseInput } from './errors.js';
import { learnTyped, rosterWithBook } from './nicknames.js';

/** Games: add one, change it (settings, players, ruleset, title, deadline, status), delete it. */

const PlayerInput = z.union([
  z.string().trim().min(1, { message: 'a player name cannot be empty' }),
  z.strictObject({
    name: z.string().trim().min(1),
    aliases: z.array(z.string().trim().min(1)).optional(),
    formerNames: z.array(z.string().trim().min(1)).optional(),
    alive: z.boolean().optional(),
  }),
]);

/** Players as the GM gives them: names ("Ann (A, Annie)" lists aliases), or slots. */
export const Players = z
  .array(PlayerInput, { error: 'must be a list of player names' })
  .min(1, { message: 'must name at least one player' })
  .max(MAX_PLAYERS, { message: `a game has ${MAX_PLAYERS} players at most` });
export type Players = z.infer<typeof Players>;

const PollInterval = z.number().int().min(10).max(86_400);

export const NewGameInput = z.strictObject({
  url: z
    .string({ error: 'required: the URL of the game thread' })
    .trim()
    .min(1, { message: 'required: the URL of the game thread' }),
  ruleset: z
    .string({ error: () => `required: a ruleset name (${listRulesets().join(', ')})` })
    .trim()
    .min(1),
  players: Players,
  engine: z.string().optional(),
  slug: Slug.optional(),
  pollIntervalSeconds: PollInterval.optional(),
  webhookUrl: z.string().nullable().optional(),
  publish: z.unknown().optional(),
  drafts: z.unknown().optional(),
  day: z.unknown().optional(),
  title: z.string().trim().min(1).max(200).optional(),
  votalTitle: z.string().min(1).max(200).optional(),
  timeZone: TimeZone.optional(),
  gm: GmNames.optional(),
  /**
   * Ruleset fields laid over the ruleset for this game (the rules the GM accepted on the
   * new-game form, read from the opening posts: the deadline and tie rules).
   */
  rulesetOverrides: z.record(z.string(), z.unknown()).optional(),
});
export type NewGameInput = z.input<typeof NewGameInput>;

/** What the GM does to a game's status; `unarchive` brings an archived game back, paused. */
export const StatusAction = z.enum(['pause', 'resume', 'finish', 'archive', 'unarchive']);
export type StatusAction = z.infer<typeof StatusAction>;
const STATUS_AFTER: Record<StatusAction, GameStatus> = {
  pause: 'paused',
  resume: 'active',
  finish: 'finished',
  archive: 'archived',
  unarchive: 'paused',
};

export const GameChange = z.strictObject({
  status: GameStatus.optional(),
  /** `archive`: not polled, off the dashboard's main list, everything kept; `unarchive`: back, paused. */
  action: StatusAction.optional(),
  ruleset: z.string().trim().min(1).optional(),
  /** The game's name on the dashboard and the live page (the thread's title otherwise). */
  title: z.string().trim().min(1).max(200).nullable().optional(),
  /** The Day's deadline (ISO 8601 with an offset); null: no deadline. */
  deadline: z.iso.datetime({ offset: true }).nullable().optional(),
  pollIntervalSeconds: PollInterval.optional(),
  players: Players.optional(),
  drafts: z.unknown().optional(),
  webhookUrl: z.string().nullable().optional(),
  publish: z.unknown().optional(),
  day: z.unknown().optional(),
  votalTitle: z.string().min(1).max(200).nullable().optional(),
  timeZone: TimeZone.nullable().optional(),
  votalTemplate: z.string().min(1).nullable().optional(),
  /** The GM's forum name, or the names of co-hosts: whose posts are read for news. */
  gm: GmNames.nullable().optional(),
});
export type GameChange = z.input<typeof GameChange>;

/**
 * Adds a game and asks for its first poll. Whoever creates a game owns it (`owner`, a GM's id;
 * a game made with the bearer admin token has none). The game and its owner are written in one
 * transaction with the GM's opening `events` (a game that starts mid-thread: its day-start), before
 * its first poll is asked for: a crash between them would leave a game only the admin sees, and a
 * first poll before them would count posts the Day does not hold.
 */
export async function createGame(
  deps: CommandDeps,
  actor: string,
  given: NewGameInput,
  { owner, events = [] }: { owner?: number; events?: readonly unknown[] } = {},
): Promise<Game> {
  const input = parseInput(NewGameInput, given);
  const opening = events.map((e, i) => positionedNow(parseInput(GmEvent, e, ['events', i]), deps.clock.now()));
  const url = await checkUrl(input.url, 'url', deps.allowPrivateHosts);
  const engine = pickEngine(input.engine, url);
  const ruleset = checkRuleset(input.ruleset);
  const rulesetOverrides = checkOverrides(ruleset, input.rulesetOverrides ?? {});
  const typed = rosterOf(input.players, 'players');
  const settings = await settingsFrom(deps, input, url.href);
  const named = { title: input.title, votalTitle: input.votalTitle, timeZone: input.timeZone, gm: input.gm };
  Object.assign(settings.values, Object.fromEntries(Object.entries(named).filter(([, v]) => v !== undefined)));
  const key = threadKeyFor(url, engine);
  const game = await deps.store.sql.transaction(async (tx) => {
    const on = storeOn(tx);
    // The site's nicknames for these players, known from earlier games (the nickname book).
    const roster = await rosterWithBook(on, { id: null, threadUrl: url.href }, typed);
    const created = await on.games.create(
      {
        threadUrl: url.href,
        engine,
        ruleset,
        rulesetOverrides,
        roster,
        ...(input.slug ? { slug: input.slug } : {}),
        ...(input.pollIntervalSeconds ? { pollIntervalSeconds: input.pollIntervalSeconds } : {}),
        nextPollAt: deps.clock.now(),
        settings: withoutNulls(settings.values),
      },
      actor,
      { sameThread: (other) => sameThreadKey(other) === key },
    );
    if (owner !== undefined) await on.gms.addToGame(created.id, owner, 'owner', actor, deps.clock.now());
    await learnTyped(on, created, typed, actor, deps.clock.now());
    for (const event of opening) await on.events.append(created.id, event, actor);
    return created;
  });
  deps.log?.info({ gameId: game.id, slug: game.slug, engine: game.engine }, 'game added');
  kickPoll(deps, game.id);
  return game;
}

export interface GameChanged {
  game: Game;
  /** Null when nothing that changes the count changed; else whether the recount finished, and if not why. */
  recount: Recount | null;
}

/**
 * Changes a game: settings, players, ruleset, title, deadline, status. Everything is
 * checked before anything is written (a bad field changes nothing). A change to the count
 * (players, ruleset, the Day's clock, the GM's forum names) waits, like a GM event, for the
 * poll that recounts.
 */
export async function updateGame(
  deps: CommandDeps,
  actor: string,
  id: number,
  given: GameChange,
): Promise<GameChanged> {
  const { store, clock } = deps;
  let game = await gameOr404(deps, id);
  const input = parseInput(GameChange, given);
  if (input.status && input.action) throw Invalid.field('action', 'give status or action, not both');
  const status = input.status ?? (input.action ? STATUS_AFTER[input.action] : undefined);
  if (input.action === 'unarchive' && game.status !== 'archived') {
    throw new Conflict(`game ${game.id} is ${game.status}, not archived`, { status: game.status });
  }
  if (input.day !== undefined && input.deadline !== undefined)
    throw Invalid.field('deadline', 'give day or deadline, not both');
  const roster = input.players ? rosterOf(input.players, 'players') : null;
  const ruleset = input.ruleset !== undefined ? checkRuleset(input.ruleset) : null;
  // A template is checked when set, not when the next votal is drawn up and fails.
  if (typeof input.votalTemplate === 'string') checkTemplate(input.votalTemplate);
  const settings = await settingsFrom(deps, input, game.threadUrl);
  const named = {
    votalTitle: input.votalTitle,
    timeZone: input.timeZone,
    votalTemplate: input.votalTemplate,
    gm: input.gm,
    title: input.title,
  };
  const set = Object.fromEntries(Object.entries(named).filter(([, v]) => v !== undefined));
  Object.assign(settings.values, set);
  Object.assign(settings.audit, set);
  if (input.deadline !== undefined)
    settings.values.day = settings.audit.day = dayWithDeadline(game, input.deadline, clock.now());
  // What changes the count: the roster, the ruleset, the Day's clock, who the hosts are.
  const hostsChange = input.gm !== undefined && JSON.stringify(input.gm) !== JSON.stringify(game.settings.gm ?? null);
  const recounts =
    roster !== null ||
    (ruleset !== null && ruleset !== game.ruleset) ||
    settings.values.day !== undefined ||
    hostsChange;
  // One transaction: a refusal on the way (a thread another game took) leaves the game as it was.
  const { changed, resumed } = await store.sql.transaction(async (tx) => {
    const repos = storeOn(tx);
    let changed = game;
    if (roster) {
      changed = await repos.games.setRoster(changed.id, await rosterWithBook(repos, changed, roster), actor);
      await learnTyped(repos, changed, roster, actor, clock.now());
    }
    if (ruleset !== null && ruleset !== changed.ruleset)
      changed = await repos.games.setRuleset(changed.id, ruleset, actor);
    if (Object.keys(settings.values).length > 0 || input.pollIntervalSeconds !== undefined) {
      const interval =
        input.pollIntervalSeconds !== undefined ? { pollIntervalSeconds: input.pollIntervalSeconds } : {};
      changed = await repos.games.updateSettings(changed.id, { settings: settings.values, ...interval }, actor, {
        ...settings.audit,
        ...interval,
      });
    }
    const resumed = status === 'active' && status !== changed.status;
    if (status && status !== changed.status) {
      // A finished game taken up again must not join another game on its thread.
      const key = sameThreadKey(changed);
      const check = changed.status === 'finished' ? { sameThread: (other: Game) => sameThreadKey(other) === key } : {};
      changed = await repos.games.setStatus(changed.id, status, actor, check);
      if (resumed) await repos.games.setNextPoll(changed.id, clock.now());
    }
    return { changed, resumed };
  });
  game = changed;
  // The poll is asked for once the change is committed (it reads the game as changed).
  if (resumed && !recounts) kickPoll(deps, game.id);
  if (!recounts) return { game, recount: null };
  // The fold takes the new roster / ruleset / clock / hosts at the next poll: wait for it.
  return { game, recount: await recountAfter(deps, game, 'change') };
}

/** Deletes a game and all its data; `confirm` must be the game's slug (the GM meant this game). */
export async function deleteGame(
  deps: CommandDeps,
  actor: string,
  id: number,
  confirm: string | undefined,
): Promise<Game> {
  const game = await gameOr404(deps, id);
  if (confirm !== game.slug) {
    throw Invalid.field(
      'confirm',
      confirm === undefined
        ? `deleting game ${game.id} removes all of its posts, counts, drafts and history: confirm with ?confirm=${game.slug}`
        : `"${confirm}" is not this game's slug (${game.slug}); nothing was deleted`,
    );
  }
  // A poll in progress would write into the game as it goes: let it finish first.
  const poll = await deps.store.polls.get(game.id);
  if (
    poll.leaseOwner !== null &&
    poll.leaseUntil !== null &&
    Date.parse(poll.leaseUntil) > deps.clock.now().getTime()
  ) {
    throw new Conflict(`game ${game.id} is being read right now; nothing was deleted: try again in a moment`, {
      leaseUntil: poll.leaseUntil,
    });
  }
  await deps.store.games.remove(game.id, actor);
  deps.log?.info({ gameId: game.id, slug: game.slug }, 'game deleted');
  return game;
}

export async function gameOr404(deps: Pick<CommandDeps, 'store'>, id: number): Promise<Game> {
  const game = await deps.store.games.get(id);
  if (!game) throw new NotFound('game', id);
  return game;
}

// ------------------------------------------------------------------------------ checks

/** A votal template that will render: size, placeholders and sections. */
function checkTemplate(template: string): void {
  try {
    compileTemplate(template);
  } catch (error) {
    if (error instanceof TemplateError)
      throw Invalid.field('votalTemplate', error.message.replace(/^votal template: /, ''));
    throw error;
  }
}

/** Settings given as input, checked and (credentials) sealed; `audit` is what the audit log may keep. */
async function settingsFrom(
  deps: CommandDeps,
  input: { webhookUrl?: string | null | undefined; publish?: unknown; drafts?: unknown; day?: unknown },
  threadUrl: string,
): Promise<{ values: SettingsChange; audit: Record<string, unknown> }> {
  const values: SettingsChange = {};
  const audit: Record<string, unknown> = {};
  if (input.webhookUrl !== undefined) {
    if (input.webhookUrl === null || input.webhookUrl === '') {
      values.webhookUrl = audit.webhookUrl = null;
    } else {
      values.webhookUrl = (await checkUrl(input.webhookUrl, 'webhookUrl', deps.allowPrivateHosts)).href;
      audit.webhookUrl = '(set)';
    }
  }
  if (input.drafts !== undefined) {
    values.drafts = input.drafts === null ? null : parseInput(DraftSettings.partial(), input.drafts, ['drafts']);
    audit.drafts = values.drafts;
  }
  if (input.day !== undefined) {
    values.day = input.day === null ? null : parseInput(DaySetting, input.day, ['day']);
    audit.day = values.day;
  }
  if (input.publish !== undefined) {
    if (input.publish === null) {
      values.publish = null;
    } else {
      const publish = parseInput(PublishInput, input.publish, ['publish']);
      try {
        values.publish = await sealPublish(publish, threadUrl, deps.box, cookieJarFromExport);
      } catch (error) {
        if (error instanceof MissingSecretKeyError) throw Invalid.field('publish', (error as Error).message);
        throw Invalid.field(publish.method === 'form' ? 'publish.cookies' : 'publish', (error as Error).message);
      }
    }
    // Secrets never reach the audit log: only how the votal is posted.
    audit.publish = values.publish === null ? null : { method: values.publish.method };
  }
  return { values, audit };
}

/** The game's Day clock with a new deadline (null: no clock); the Day's number and start are kept. */
function dayWithDeadline(game: Game, deadline: string | null, now: Date): DaySetting | null {
  if (deadline === null) return null;
  const current = game.settings.day;
  const at = Date.parse(deadline);
  const start =
    current && Date.parse(current.start) < at
      ? current.start
      : new Date(Math.min(now.getTime(), at - 86_400_000)).toISOString();
  return { number: current?.number ?? 1, start, deadline: new Date(at).toISOString() };
}

/** A new game's settings: a null (remove) means nothing there. */
function withoutNulls(change: SettingsChange): GameSettingsInput {
  return Object.fromEntries(Object.entries(change).filter(([, v]) => v !== null));
}

async function checkUrl(raw: string, field: string, allowPrivate: boolean): Promise<URL> {
  if (!URL.canParse(raw)) throw Invalid.field(field, 'not a URL');
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw Invalid.field(field, 'must be an http or https URL');
  if (url.username || url.password) throw Invalid.field(field, 'must not contain a user name or password');
  try {
    return await assertPublicUrl(url, { allowPrivate });
  } catch (error) {
    const message = (error as Error).message.replace(/\s*\([^)]*\)$/, '');
    throw Invalid.field(
      field,
      error instanceof PrivateHostError
        ? `${message}: private and loopback addresses are refused (set VOTAL_ALLOW_PRIVATE_HOSTS=1 for a local forum)`
        : message,
    );
  }
}

/**
 * One game per thread: the thread's canonical URL, as its engine's adapter gives page 1
 * (no page, post anchor or session id), with no fragment or trailing slash. URL parsing
 * already put scheme and host in lower case and dropped a default port.
 */
function threadKeyFor(url: URL, engine: EngineId | null): string {
  let canonical = url;
  if (engine) {
    try {
      canonical = new URL(adapterOf(engine).threadRef(url).url);
    } catch {
      // The adapter cannot read this URL: compare it as given.
    }
  }
  return `${canonical.protocol}//${canonical.host}${canonical.pathname.replace(/\/+$/, '')}${canonical.search}`;
}

/** A stored game's thread key (its URL as stored, read with its engine). */
function sameThreadKey(game: Game): string | null {
  return URL.canParse(game.threadUrl) ? threadKeyFor(new URL(game.threadUrl), game.engine) : null;
}

function pickEngine(given: string | undefined, url: URL): EngineId | null {
  if (given !== undefined) {
    const parsed = EngineId.safeParse(given);
    if (!parsed.success)
      throw Invalid.field('engine', `unknown engine "${given}" (known: ${EngineId.options.join(', ')})`);
    try {
      adapterOf(parsed.data).threadRef(url);
    } catch (error) {
      throw Invalid.field('url', `not a ${parsed.data} thread URL: ${(error as Error).message}`);
    }
    return parsed.data;
  }
  // Unknown from the URL: the first poll tells it from the page's fingerprints.
  return engineFromUrl(url);
}

function checkRuleset(name: string): string {
  const names = listRulesets();
  if (!names.includes(name)) throw Invalid.field('ruleset', `unknown ruleset "${name}" (known: ${names.join(', ')})`);
  try {
    loadRuleset(name);
  } catch (error) {
    throw Invalid.field('ruleset', (error as Error).message);
  }
  return name;
}

/** Overrides that leave a valid ruleset, or Invalid naming what is wrong. */
function checkOverrides(ruleset: string, rulesetOverrides: Record<string, unknown>): Record<string, unknown> {
  try {
    gameRuleset({ ruleset, rulesetOverrides });
  } catch (error) {
    throw Invalid.field('rulesetOverrides', (error as Error).message);
  }
  return rulesetOverrides;
}

function rosterOf(players: Players, field: string): Roster {
  const roster: Roster = [];
  players.forEach((p, i) => {
    const slots = typeof p === 'string' ? parsePlayerList(p) : [Slot.parse(p)];
    if (slots.length === 0) throw Invalid.field(`${field}.${i}`, 'a player name cannot be empty');
    roster.push(...slots);
  });
  // One entry may list many ("A, B, C"): the cap is on the players, not the entries.
  const tooMany = rosterTooLarge(roster.length);
  if (tooMany) throw Invalid.field(field, tooMany);
  const seen = new Map<string, number>();
  roster.forEach((slot, i) => {
    for (const name of [slot.name, ...slot.aliases]) {
      const key = name.toLowerCase();
      const other = seen.get(key);
      if (other !== undefined && other !== i) throw Invalid.field(field, `"${name}" is listed twice`);
      seen.set(key, i);
    }
  });
  return roster;
}
