import { Hono, type Context } from 'hono';
import type { Child } from 'hono/jsx';
import { updateGame, type GameChange } from '../../../app/games.js';
import { draftSettingsOf } from '../../../game/draft-step.js';
import { GameStatus, type Game } from '../../../model/game.js';
import { parsePlayerList, type Roster } from '../../../model/roster.js';
import { refusalOf } from '../../errors.js';
import { titleOf } from '../game-data.js';
import { gameGmsPanel } from '../gms-page.js';
import { recountWords } from '../flash.js';
import { deletesGame } from '../../gm-access.js';
import { Csrf, GmNav, Layout, Notice, PostButton } from '../layout.js';
import { localToUtc, utcToLocalInput } from '../time-zone.js';
import { TimeZoneField } from '../time-zone-field.js';
import { TimeZone } from '../../../model/game-settings.js';
import {
  field,
  gameOf,
  notFound,
  pageDeps,
  rulesetChoices,
  ZONES,
  type DashboardDeps,
  type PageDeps,
  type RulesetChoice,
  type UiEnv,
} from '../dashboard.js';

/** A game's settings (`/gm/games/:id/settings`): the game, polling, Day clock, drafts, webhook, forum login; archive. */

/** A roster as the new-game form writes it: one "Name (alias, alias)" a line. */
function rosterText(roster: Roster): string {
  return roster.map((s) => (s.aliases.length ? `${s.name} (${s.aliases.join(', ')})` : s.name)).join('\n');
}

interface SettingsPageProps {
  csrf: string;
  game: Game;
  title: string;
  zones: string[];
  publishMethod: string;
  secretKey: boolean;
  message?: string | null;
  error?: string | null;
  rulesets: RulesetChoice[];
  /** The game's GMs: owner and co-hosts (gms-page.tsx). */
  gms?: Child;
  /** Whether this GM may delete the game (its owner or the admin); a co-host is not offered the link. */
  canDelete?: boolean;
}

/** The game itself: title, ruleset, players. */
function GameFields(props: { game: Game; rulesets: RulesetChoice[] }) {
  const g = props.game;
  return (
    <>
      <h2>Game</h2>
      <label for="title">Title (on the dashboard and the live page; empty: the thread's title)</label>
      <input id="title" name="title" type="text" maxlength={200} value={g.settings.title ?? ''} />
      <label for="ruleset">Ruleset (changing it counts the whole game again under the new rules)</label>
      <select id="ruleset" name="ruleset">
        {props.rulesets.map((r) => (
          <option value={r.name} selected={g.ruleset === r.name}>
            {r.title ? `${r.title} (${r.name})` : r.name}
          </option>
        ))}
      </select>
      <label for="players">
        Players: one a line, nicknames in brackets, e.g. "Dave (Dee, D)"; changing them counts the game again
      </label>
      <textarea id="players" name="players" rows={Math.min(20, Math.max(4, g.roster.length + 1))}>
        {rosterText(g.roster)}
      </textarea>
      <p class="hint">Replacements, kills and revives are GM events on the game page: they keep the slot's history.</p>
    </>
  );
}

/** How often the thread is read, and the game's status. */
function PollingFields(props: { game: Game }) {
  const g = props.game;
  return (
    <>
      <h2>Polling</h2>
      <div class="row">
        <div>
          <label for="pollSeconds">Poll every (seconds)</label>
          <input id="pollSeconds" name="pollSeconds" type="number" min="30" value={String(g.pollIntervalSeconds)} />
        </div>
        <div>
          <label for="status">Status</label>
          <select id="status" name="status">
            {GameStatus.options.map((v) => (
              <option value={v} selected={g.status === v}>
                {v}
              </option>
            ))}
          </select>
        </div>
      </div>
    </>
  );
}

/** The Day, its deadline in the game's time zone, and the zone. */
function DayClockFields(props: { game: Game; zones: string[] }) {
  const s = props.game.settings;
  const zone = s.timeZone ?? 'UTC';
  return (
    <>
      <h2>Day clock</h2>
      <div class="row">
        <div>
          <label for="dayNumber">Day</label>
          <input id="dayNumber" name="dayNumber" type="number" min="1" value={String(s.day?.number ?? 1)} />
        </div>
        <div>
          <label for="deadline">Deadline</label>
          <input
            id="deadline"
            name="deadline"
            type="datetime-local"
            value={s.day?.deadline ? utcToLocalInput(s.day.deadline, zone) : ''}
          />
        </div>
        <TimeZoneField value={zone} zones={props.zones} />
      </div>
    </>
  );
}

/** When Votal drafts a votal: the triggers as the poller applies them (what the GM set over the defaults). */
function DraftTriggerFields(props: { game: Game }) {
  const drafts = draftSettingsOf(props.game.settings);
  return (
    <>
      <h2>Draft triggers</h2>
      <p class="hint">When Votal drafts a votal for you to approve.</p>
      <div class="row">
        <div>
          <label for="everyNVotes">After this many vote changes (empty: never)</label>
          <input
            id="everyNVotes"
            name="everyNVotes"
            type="number"
            min="1"
            value={drafts.everyNVotes === null ? '' : String(drafts.everyNVotes)}
          />
        </div>
        <div>
          <label for="everyHours">After this many hours (empty: never)</label>
          <input
            id="everyHours"
            name="everyHours"
            type="number"
            min="0.5"
            step="0.5"
            value={drafts.everyHours === null ? '' : String(drafts.everyHours)}
          />
        </div>
      </div>
      <label class="check">
        <input type="checkbox" name="onLMinus1" value="1" checked={drafts.onLMinus1} /> When a wagon is one vote short
        (L-1)
      </label>
      <label class="check">
        <input type="checkbox" name="onMajority" value="1" checked={drafts.onMajority} /> When a wagon reaches the
        threshold
      </label>
      <label class="check">
        <input type="checkbox" name="onDeadline" value="1" checked={drafts.onDeadline} /> When the Day ends
      </label>
      <label for="requestKeywords">Words players write to ask for a count (comma-separated)</label>
      <input id="requestKeywords" name="requestKeywords" type="text" value={drafts.requestKeywords.join(', ')} />
    </>
  );
}

/** How approved votals reach the thread; credentials are written, never shown. */
function ForumLoginFields(props: { publishMethod: string; secretKey: boolean }) {
  return (
    <>
      <h2>Forum login (publishing)</h2>
      <p class="hint">
        {`Now: ${props.publishMethod}. Credentials are stored encrypted and never shown again.`}
        {props.secretKey ? '' : ' Storing credentials needs VOTAL_SECRET_KEY on the server.'}
      </p>
      <label for="publishMethod">How approved votals reach the thread</label>
      <select id="publishMethod" name="publishMethod">
        <option value="">Keep as it is</option>
        <option value="copy">Copy and paste by hand</option>
        <option value="form">Reply form, with a logged-in session (cookies)</option>
        <option value="xenforo-api">XenForo API key</option>
        <option value="discourse-api">Discourse API key</option>
      </select>
      <label for="cookies">Cookies (Netscape cookies.txt or Playwright storage state), for the reply form</label>
      <textarea id="cookies" name="cookies" rows={4} autocomplete="off"></textarea>
      <div class="row">
        <div>
          <label for="apiUser">API user</label>
          <input id="apiUser" name="apiUser" type="text" autocomplete="off" />
        </div>
        <div>
          <label for="apiKey">API key</label>
          <input id="apiKey" name="apiKey" type="password" autocomplete="off" />
        </div>
      </div>
    </>
  );
}

/** Archive (or unarchive) the game; delete it, offered to its owner and the admin only. */
function ArchiveOrDelete(props: { csrf: string; game: Game; canDelete?: boolean | undefined }) {
  const g = props.game;
  return (
    <section class="panel" aria-labelledby="end-h">
      <h2 id="end-h">Archive or delete</h2>
      {g.status === 'archived' ? (
        <p>
          This game is archived: it is not read and is listed under archived games.{' '}
          <PostButton
            action={`/gm/games/${g.id}/archive`}
            csrf={props.csrf}
            label="Unarchive (paused)"
            fields={{ archive: '0' }}
            class="secondary"
          />
        </p>
      ) : (
        <p>
          Archiving stops reading the thread and moves the game off the main list; everything is kept.{' '}
          <PostButton
            action={`/gm/games/${g.id}/archive`}
            csrf={props.csrf}
            label="Archive this game"
            fields={{ archive: '1' }}
            class="secondary"
          />
        </p>
      )}
      {props.canDelete === false ? (
        <p>Only the owner of this game or the instance admin can delete it.</p>
      ) : (
        <p>
          Deleting removes the game and all of its posts, counts, drafts and history for good.{' '}
          <a class="danger" href={`/gm/games/${g.id}/delete`}>
            Delete this game…
          </a>
        </p>
      )}
    </section>
  );
}

function SettingsPage(props: SettingsPageProps) {
  const g = props.game;
  return (
    <Layout title={`Settings — ${props.title}`} nav={<GmNav csrf={props.csrf} />} scripts={['gm.js']}>
      <p>
        <a href={`/gm/games/${g.id}`}>{`← ${props.title}`}</a>
      </p>
      <h1>Settings</h1>
      <Notice message={props.message ?? null} error={props.error ?? null} />
      <form method="post" action={`/gm/games/${g.id}/settings`} class="panel">
        <Csrf token={props.csrf} />
        <GameFields game={g} rulesets={props.rulesets} />
        <PollingFields game={g} />
        <DayClockFields game={g} zones={props.zones} />
        <DraftTriggerFields game={g} />
        <h2>Webhook</h2>
        <label for="webhookUrl">Webhook URL (called when a draft waits or the Day is decided)</label>
        <input id="webhookUrl" name="webhookUrl" type="url" value={g.settings.webhookUrl ?? ''} />
        <ForumLoginFields publishMethod={props.publishMethod} secretKey={props.secretKey} />
        <div class="actions">
          <button type="submit">Save settings</button>
        </div>
      </form>
      {props.gms ?? null}
      <ArchiveOrDelete csrf={props.csrf} game={g} canDelete={props.canDelete} />
    </Layout>
  );
}

type Ctx = Context<UiEnv>;
type Form = Record<string, unknown>;
/** A part of the settings form read into the change it asks for, or the sentence that refuses it. */
type Part = GameChange | string;

/** How approved votals reach the thread now, in the GM's words. */
function publishMethod(game: Game): string {
  const m = game.settings.publish?.method;
  return m === 'form'
    ? 'reply form with a stored session'
    : m === 'xenforo-api'
      ? 'XenForo API'
      : m === 'discourse-api'
        ? 'Discourse API'
        : 'copy and paste';
}

/** `GET /gm/games/:id/settings`. */
async function showSettings(d: PageDeps, c: Ctx) {
  const game = await gameOf(d.store, c);
  if (!game) return notFound(c);
  const poll = await d.store.polls.get(game.id);
  const flash = d.flashOf(c);
  return c.html(
    <SettingsPage
      csrf={c.get('session').csrf}
      game={game}
      title={titleOf(game, poll)}
      zones={ZONES}
      publishMethod={publishMethod(game)}
      secretKey={d.env.secretKey !== undefined}
      message={flash.message ?? null}
      error={flash.error ?? null}
      rulesets={rulesetChoices()}
      gms={await gameGmsPanel(d.store.gms, c, game)}
      canDelete={await deletesGame(d.store.gms, c.get('gm'), game.id)}
    />,
  );
}

/** The game itself: title, ruleset, players (sent only when changed: the last two recount). */
function gamePart(form: Form, game: Game): Part {
  const patch: GameChange = {};
  const title = field(form, 'title');
  const currentTitle = game.settings.title ?? '';
  if ('title' in form && title !== currentTitle) patch.title = title || null;
  const ruleset = field(form, 'ruleset');
  if (ruleset && ruleset !== game.ruleset) patch.ruleset = ruleset;
  if (typeof form.players === 'string') {
    const roster = parsePlayerList(form.players);
    if (roster.length === 0) return 'Name at least one player.';
    if (rosterText(roster) !== rosterText(game.roster)) {
      // A slot that keeps its name keeps its history (former names from replacements).
      patch.players = roster.map((slot) => {
        const before = game.roster.find((s) => s.name.toLowerCase() === slot.name.toLowerCase());
        const former = before?.formerNames.length ? { formerNames: before.formerNames } : {};
        return { name: slot.name, aliases: slot.aliases, ...former };
      });
    }
  }
  return patch;
}

/** The poll interval and the status, each sent only when changed. */
function pollingPart(form: Form, game: Game): Part {
  const patch: GameChange = {};
  const poll = Number(field(form, 'pollSeconds'));
  if (Number.isInteger(poll) && poll > 0 && poll !== game.pollIntervalSeconds) patch.pollIntervalSeconds = poll;
  const status = GameStatus.safeParse(field(form, 'status'));
  if (field(form, 'status') && !status.success) return `"${field(form, 'status')}" is not a game status.`;
  if (status.success && status.data !== game.status) patch.status = status.data;
  return patch;
}

/** The draft triggers, always sent whole (an empty number: never). */
function draftsPart(form: Form): Part {
  const positive = (name: string): number | null => {
    const v = Number(field(form, name));
    return field(form, name) === '' || !Number.isFinite(v) || v <= 0 ? null : v;
  };
  const everyNVotes = positive('everyNVotes');
  return {
    drafts: {
      everyNVotes: everyNVotes === null ? null : Math.round(everyNVotes),
      everyHours: positive('everyHours'),
      onLMinus1: form.onLMinus1 === '1',
      onMajority: form.onMajority === '1',
      onDeadline: form.onDeadline === '1',
      requestKeywords: field(form, 'requestKeywords')
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean),
    },
  };
}

function webhookPart(form: Form, game: Game): Part {
  const webhook = field(form, 'webhookUrl');
  const currentHook = game.settings.webhookUrl ?? '';
  return webhook !== currentHook ? { webhookUrl: webhook || null } : {};
}

/** The Day clock: a deadline read in the game's zone (unchanged, it is not sent: a new Day clock recounts). */
function dayPart(form: Form, game: Game, zone: string, now: () => Date): Part {
  const deadlineLocal = field(form, 'deadline');
  if (!deadlineLocal) {
    // The GM emptied the deadline: no Day clock.
    return game.settings.day && 'deadline' in form ? { deadline: null } : {};
  }
  const deadline = localToUtc(deadlineLocal, zone);
  if (!deadline) return 'The deadline is not a date and time.';
  const current = game.settings.day;
  const dayNumber = Number(field(form, 'dayNumber') || '1');
  const start = current && Date.parse(current.start) < Date.parse(deadline) ? current.start : now().toISOString();
  const number = Number.isInteger(dayNumber) && dayNumber > 0 ? dayNumber : 1;
  const same =
    current !== undefined && Date.parse(current.deadline) === Date.parse(deadline) && current.number === number;
  return same ? {} : { day: { number, start, deadline } };
}

/** How approved votals reach the thread, with the credentials that method takes (none chosen: kept as it is). */
function publishPart(form: Form): Part {
  const method = field(form, 'publishMethod');
  if (method === 'copy') return { publish: { method } };
  if (method === 'form') return { publish: { method, cookies: typeof form.cookies === 'string' ? form.cookies : '' } };
  if (method === 'xenforo-api') {
    const apiUser = field(form, 'apiUser') ? { apiUser: field(form, 'apiUser') } : {};
    return { publish: { method, apiKey: field(form, 'apiKey'), ...apiUser } };
  }
  if (method === 'discourse-api') {
    return { publish: { method, apiUsername: field(form, 'apiUser'), apiKey: field(form, 'apiKey') } };
  }
  return {};
}

/** The settings form read into one `updateGame` change, part by part in the form's order, or the first refusal. */
function settingsChange(form: Form, game: Game, now: () => Date): Part {
  const zone = field(form, 'timeZone') || 'UTC';
  const known = TimeZone.safeParse(zone);
  if (!known.success) return `Time zone: ${known.error.issues[0]!.message}.`;
  const patch: GameChange = { timeZone: zone };
  const parts = [
    () => gamePart(form, game),
    () => pollingPart(form, game),
    () => draftsPart(form),
    () => webhookPart(form, game),
    () => dayPart(form, game, zone, now),
    () => publishPart(form),
  ];
  for (const part of parts) {
    const read = part();
    if (typeof read === 'string') return read;
    Object.assign(patch, read);
  }
  return patch;
}

/** `POST /gm/games/:id/settings`: one `updateGame`, then the page again saying what recounts. */
async function saveSettings(d: PageDeps, c: Ctx) {
  const game = await gameOf(d.store, c);
  if (!game) return notFound(c);
  const to = `/gm/games/${game.id}/settings`;
  const patch = settingsChange(await c.req.parseBody(), game, d.now);
  if (typeof patch === 'string') return d.back(c, to, { error: patch });
  let changed: Awaited<ReturnType<typeof updateGame>>;
  try {
    changed = await updateGame(d.commands, c.get('actor'), game.id, patch);
  } catch (error) {
    return d.back(c, to, { error: refusalOf(error) });
  }
  return d.back(c, to, { message: `Settings saved.${recountWords(changed.recount)}` });
}

/** `POST /gm/games/:id/archive`: archive (off the list, not read) or unarchive (back, paused). */
async function archiveGame(d: PageDeps, c: Ctx) {
  const game = await gameOf(d.store, c);
  if (!game) return notFound(c);
  const archive = field(await c.req.parseBody(), 'archive') !== '0';
  try {
    await updateGame(d.commands, c.get('actor'), game.id, { action: archive ? 'archive' : 'unarchive' });
  } catch (error) {
    return d.back(c, `/gm/games/${game.id}/settings`, { error: refusalOf(error) });
  }
  return archive
    ? d.back(c, '/gm', { message: 'The game is archived: it is no longer read. Find it under archived games.' })
    : d.back(c, `/gm/games/${game.id}/settings`, {
        message: 'The game is back, paused: resume it to read the thread again.',
      });
}

/** The settings form (one command: updateGame) and archive / unarchive. */
export function settingsRoutes(deps: DashboardDeps): Hono<UiEnv> {
  const d = pageDeps(deps);
  const app = new Hono<UiEnv>();
  app.get('/gm/games/:id/settings', (c) => showSettings(d, c));
  app.post('/gm/games/:id/settings', (c) => saveSettings(d, c));
  app.post('/gm/games/:id/archive', (c) => archiveGame(d, c));
  return app;
}
