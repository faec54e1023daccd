import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { createGame } from '../../../app/games.js';
import { EngineId } from '../../../model/engine.js';
import { parsePlayerList } from '../../../model/roster.js';
import { MAX_ROSTER_LINES } from '../../../parse/opening-roster.js';
import type { RuleProposal } from '../../../parse/opening-rules.js';
import { ruleText } from '../../../parse/stated-threshold.js';
import { refusalOf } from '../../errors.js';
import { inspectThread, type ThreadFacts } from '../inspect-thread.js';
import { Csrf, GmNav, Layout, Notice } from '../layout.js';
import { isTimeZone, localToUtc } from '../time-zone.js';
import { TimeZoneField } from '../time-zone-field.js';
import {
  field,
  pageDeps,
  rulesetChoices,
  ZONES,
  type DashboardDeps,
  type PageDeps,
  type RulesetChoice,
  type UiEnv,
} from '../dashboard.js';

/** A new game: the thread first (engine, title, GM, players proposed), then the game's form. */

export interface NewGameForm {
  url: string;
  engine: string;
  title: string;
  gm: string;
  ruleset: string;
  players: string;
  day: string;
  startPost: string;
  deadline: string;
  timeZone: string;
  pollSeconds: string;
  /** The rules read from the opening posts (JSON of `RuleProposal[]`), carried between the steps. */
  rules: string;
  /** Which of them the GM accepts ("deadline", "tie", "threshold"). */
  accepted: string[];
}

/** What the form carries back: proposals as `inspectThread` made them, bounded. */
const CarriedRules = z
  .array(
    z.strictObject({
      rule: z.enum(['deadline', 'tie', 'threshold']),
      overrides: z.record(z.string(), z.unknown()),
      sentence: z.string().max(600),
    }),
  )
  .max(3);

function carriedRules(json: string): RuleProposal[] {
  try {
    const parsed = CarriedRules.safeParse(JSON.parse(json || '[]'));
    return parsed.success ? (parsed.data as RuleProposal[]) : [];
  } catch {
    return [];
  }
}

/** A proposal in the form's words: what the game will do if the GM accepts it. */
function ruleWords(p: RuleProposal): string {
  const short = p.overrides.shortOfThreshold;
  if (short === 'no-elimination') return 'At the deadline with no one at majority, nobody is eliminated.';
  if (short === 'plurality') return 'At the deadline with no one at majority, the plurality leader is eliminated.';
  if (short === 'gm') return 'At the deadline with no one at majority, the GM decides.';
  const ties = p.overrides.ties;
  if (ties?.then === 'none') return 'A tie eliminates nobody.';
  if (ties?.breakers?.[0] === 'first-to-reach') return 'A tie goes to the wagon that reached its count first.';
  if (ties?.breakers?.[0] === 'last-to-lead') return 'A tie goes to the player who most recently led alone.';
  const threshold = p.overrides.threshold;
  if (threshold) return `A lynch takes ${ruleText(threshold)}.`;
  return 'A rule of the opening posts.';
}

/** The rules read from the opening posts, each with its sentence; none applies unless ticked. */
function OpeningRules(props: { rules: RuleProposal[]; accepted: string[]; json: string }) {
  if (props.rules.length === 0) return null;
  return (
    <fieldset class="box" aria-describedby="rules-hint">
      <legend>Rules read from the opening posts</legend>
      <input type="hidden" name="rules" value={props.json} />
      <p class="hint" id="rules-hint">
        Votal read these in the GM's posts. Tick each that is the game's rule: it is laid over the ruleset for this
        game. Unticked, the ruleset's own rule applies.
      </p>
      {props.rules.map((r) => (
        <>
          <label class="check">
            <input type="checkbox" name={`accept-${r.rule}`} value="1" checked={props.accepted.includes(r.rule)} />{' '}
            {ruleWords(r)}
          </label>
          <blockquote>{r.sentence}</blockquote>
        </>
      ))}
    </fieldset>
  );
}

/** Step 1: the thread's address (and its engine, when the address does not tell). */
function ThreadStep(props: { csrf: string; form: Partial<NewGameForm> }) {
  const f = props.form;
  return (
    <section class="panel" aria-labelledby="step1-h">
      <h2 id="step1-h">1. The thread</h2>
      <form method="post" action="/gm/new/inspect">
        <Csrf token={props.csrf} />
        <label for="url">Thread URL</label>
        <input
          id="url"
          name="url"
          type="url"
          required
          value={f.url ?? ''}
          placeholder="https://forum.example/threads/mafia-42.123/"
        />
        <label for="engine1">Forum engine</label>
        <select id="engine1" name="engine">
          <option value="">Detect it</option>
          {EngineId.options.map((e) => (
            <option value={e} selected={f.engine === e}>
              {e}
            </option>
          ))}
        </select>
        <div class="actions">
          <button type="submit">Read the thread</button>
        </div>
      </form>
    </section>
  );
}

/** The engine and the ruleset pickers, side by side. */
function EngineAndRuleset(props: { form: Partial<NewGameForm>; rulesets: RulesetChoice[] }) {
  const f = props.form;
  return (
    <div class="row">
      <div>
        <label for="engine">Forum engine</label>
        <select id="engine" name="engine" required>
          {EngineId.options.map((e) => (
            <option value={e} selected={f.engine === e}>
              {e}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label for="ruleset">Ruleset</label>
        <select id="ruleset" name="ruleset" required aria-describedby="rulesets-help">
          <option value="" selected={!f.ruleset} disabled>
            Choose the game's rules…
          </option>
          {props.rulesets.map((r) => (
            <option value={r.name} selected={f.ruleset === r.name}>
              {r.title ? `${r.title} (${r.name})` : r.name}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

/** What each ruleset is: its source and what it does at the deadline. */
function RulesetsHelp(props: { rulesets: RulesetChoice[] }) {
  return (
    <details class="box" id="rulesets-help">
      <summary>What each ruleset is</summary>
      <dl>
        {props.rulesets.map((r) => (
          <>
            <dt>{r.title ? `${r.title} (${r.name})` : r.name}</dt>
            <dd>
              {r.source ?? 'No source given.'}
              {r.deadline ? <p class="hint">{r.deadline}</p> : null}
            </dd>
          </>
        ))}
      </dl>
    </details>
  );
}

/** The Day, where it starts, the poll interval, and the deadline in its time zone. */
function DayFields(props: { form: Partial<NewGameForm>; zones: string[] }) {
  const f = props.form;
  return (
    <>
      <div class="row">
        <div>
          <label for="day">Day</label>
          <input id="day" name="day" type="number" min="1" value={f.day ?? '1'} />
        </div>
        <div>
          <label for="startPost">Day starts after post</label>
          <input id="startPost" name="startPost" type="number" min="0" value={f.startPost ?? '1'} />
        </div>
        <div>
          <label for="pollSeconds">Poll every (seconds)</label>
          <input id="pollSeconds" name="pollSeconds" type="number" min="30" value={f.pollSeconds ?? '300'} />
        </div>
      </div>
      <div class="row">
        <div>
          <label for="deadline">Deadline (in the time zone below)</label>
          <input id="deadline" name="deadline" type="datetime-local" value={f.deadline ?? ''} />
        </div>
        <TimeZoneField value={f.timeZone ?? 'UTC'} zones={props.zones} />
      </div>
    </>
  );
}

/** Step 2: the game as the thread proposes it, for the GM to check and start. */
function GameStep(props: {
  csrf: string;
  form: Partial<NewGameForm>;
  rulesets: RulesetChoice[];
  notes?: string[] | undefined;
  zones: string[];
}) {
  const f = props.form;
  return (
    <section class="panel" aria-labelledby="step2-h">
      <h2 id="step2-h">2. The game</h2>
      {props.notes?.length ? (
        <ul class="muted">
          {props.notes.map((n) => (
            <li>{n}</li>
          ))}
        </ul>
      ) : null}
      <form method="post" action="/gm/games">
        <Csrf token={props.csrf} />
        <input type="hidden" name="url" value={f.url ?? ''} />
        <EngineAndRuleset form={f} rulesets={props.rulesets} />
        <RulesetsHelp rulesets={props.rulesets} />
        <div class="row">
          <div>
            <label for="title">Title</label>
            <input id="title" name="title" type="text" value={f.title ?? ''} />
          </div>
          <div>
            <label for="gm">GM</label>
            <input id="gm" name="gm" type="text" value={f.gm ?? ''} />
          </div>
        </div>
        <label for="players">Players</label>
        <textarea id="players" name="players" required aria-describedby="players-hint">
          {f.players ?? ''}
        </textarea>
        <p class="hint" id="players-hint">
          One a line (or comma-separated); "Name (alias, alias)" adds nicknames. Proposed from the opening post or the
          posters: check it.
        </p>
        <OpeningRules rules={carriedRules(f.rules ?? '')} accepted={f.accepted ?? []} json={f.rules ?? '[]'} />
        <DayFields form={f} zones={props.zones} />
        <div class="actions">
          <button type="submit">Start watching</button>
        </div>
      </form>
    </section>
  );
}

interface NewGamePageProps {
  csrf: string;
  form: Partial<NewGameForm>;
  rulesets: RulesetChoice[];
  inspected: boolean;
  error?: string | null;
  notes?: string[];
  zones: string[];
}

function NewGamePage(props: NewGamePageProps) {
  return (
    <Layout title="New game — Votal" nav={<GmNav csrf={props.csrf} />} scripts={['gm.js']}>
      <h1>Watch a game thread</h1>
      <Notice error={props.error ?? null} />
      <ThreadStep csrf={props.csrf} form={props.form} />
      {props.inspected ? (
        <GameStep
          csrf={props.csrf}
          form={props.form}
          rulesets={props.rulesets}
          notes={props.notes}
          zones={props.zones}
        />
      ) : null}
    </Layout>
  );
}

type Ctx = Context<UiEnv>;

/** The new-game page in the session's own words: the rulesets and zones every step offers. */
function renderNewGame(
  c: Ctx,
  page: Omit<NewGamePageProps, 'csrf' | 'rulesets' | 'zones'>,
  status?: 400,
): Response | Promise<Response> {
  const html = <NewGamePage csrf={c.get('session').csrf} rulesets={rulesetChoices()} zones={ZONES} {...page} />;
  return status === undefined ? c.html(html) : c.html(html, status);
}

/**
 * The API queues a recount (a poll) after a GM event; the page the GM lands on should show
 * it. When a poll was asked for since `since`, waits (at most `ms`) until one finished
 * after the request; when none was asked for (a paused game, a poller that only queues
 * elsewhere), returns at once.
 */
async function awaitPoll(store: PageDeps['store'], gameId: number, since: number, ms = 8_000): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    const p = await store.polls.get(gameId);
    const requested = p.pollRequestedAt === null ? null : Date.parse(p.pollRequestedAt);
    if (requested === null || requested < since - 2_000) return false;
    if (p.lastPolledAt && Date.parse(p.lastPolledAt) >= requested && p.leaseOwner === null) return true;
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `GET /gm/new`: step 1 alone. */
function showNewGame(d: PageDeps, c: Ctx) {
  const flash = d.flashOf(c);
  return renderNewGame(c, { form: {}, inspected: false, error: flash.error ?? null });
}

/** What the GM is told of the thread read: how many posts, where the players came from, what was not read. */
function inspectNotes(facts: ThreadFacts): string[] {
  return [
    `Read ${facts.posts} posts of a ${facts.engine} thread.`,
    facts.playersFrom === 'opening-post'
      ? 'Players: the list in the opening post.'
      : facts.playersFrom === 'posters'
        ? 'Players: everyone who posted after the opening post (remove anyone who is not playing).'
        : 'No players found: type the list.',
    ...(facts.openingLinesNotRead
      ? [
          `Only the first ${MAX_ROSTER_LINES} lines of the opening post were read for the player list; ${facts.openingLinesNotRead} more were not: check the list against the post.`,
        ]
      : []),
  ];
}

/** Step 2's form as the thread proposes it (no deadline: the GM gives one). */
function proposedForm(facts: ThreadFacts): Partial<NewGameForm> {
  return {
    url: facts.url,
    engine: facts.engine,
    title: facts.title ?? '',
    gm: facts.gm ?? '',
    ruleset: '',
    players: facts.players.join('\n'),
    day: '1',
    startPost: String(facts.startPost),
    timeZone: 'UTC',
    pollSeconds: '300',
    rules: JSON.stringify(facts.rules),
    accepted: [],
  };
}

/** `POST /gm/new/inspect`: reads the thread, then shows step 2 with what it proposes. */
async function inspectNewGame(d: PageDeps, c: Ctx) {
  const form = await c.req.parseBody();
  const url = field(form, 'url');
  const engine = EngineId.safeParse(field(form, 'engine'));
  try {
    const facts = await inspectThread(url, {
      allowPrivateHosts: d.env.allowPrivateHosts,
      ...(engine.success ? { engine: engine.data } : {}),
    });
    return renderNewGame(c, { inspected: true, notes: inspectNotes(facts), form: proposedForm(facts) });
  } catch (error) {
    return renderNewGame(
      c,
      {
        inspected: false,
        form: { url, engine: engine.success ? engine.data : '' },
        error: `Could not read that thread: ${(error as Error).message}`,
      },
      400,
    );
  }
}

/** Step 2's form as posted, defaults filled in. */
function newGameFormOf(form: Record<string, unknown>): NewGameForm {
  return {
    url: field(form, 'url'),
    engine: field(form, 'engine'),
    title: field(form, 'title'),
    gm: field(form, 'gm'),
    ruleset: field(form, 'ruleset'),
    players: typeof form.players === 'string' ? form.players : '',
    day: field(form, 'day') || '1',
    startPost: field(form, 'startPost') || '0',
    deadline: field(form, 'deadline'),
    timeZone: field(form, 'timeZone') || 'UTC',
    pollSeconds: field(form, 'pollSeconds') || '300',
    rules: field(form, 'rules'),
    accepted: ['deadline', 'tie', 'threshold'].filter((r) => field(form, `accept-${r}`) === '1'),
  };
}

/** The `createGame` command the form asks for: its input and the opening Day's event. */
interface NewGameCommand {
  input: Parameters<typeof createGame>[2];
  day: number;
  startPost: number;
}

/** The Day's clock from the deadline the GM gave (in their zone); a deadline already past starts the Day a day before it. */
function daySettingOf(
  f: NewGameForm,
  day: number,
  now: () => Date,
): { number: number; start: string; deadline: string } | undefined | string {
  if (!f.deadline) return undefined;
  const deadline = localToUtc(f.deadline, f.timeZone);
  if (!deadline) return 'The deadline is not a date and time.';
  const setting = { number: day, start: now().toISOString(), deadline };
  if (Date.parse(deadline) <= Date.parse(setting.start)) {
    setting.start = new Date(Date.parse(deadline) - 86_400_000).toISOString();
  }
  return setting;
}

/** The form checked into the command, or the sentence that tells the GM what to fix. */
function newGameCommand(f: NewGameForm, now: () => Date): NewGameCommand | string {
  const players = parsePlayerList(f.players).map((s) =>
    s.aliases.length ? { name: s.name, aliases: s.aliases } : s.name,
  );
  if (players.length === 0) return 'Name at least one player.';
  const day = Number(f.day);
  const startPost = Number(f.startPost);
  if (!Number.isInteger(day) || day < 1) return 'The Day is a whole number from 1.';
  if (!Number.isInteger(startPost) || startPost < 0) return 'The Day starts after a post number (0: the very start).';
  if (!isTimeZone(f.timeZone)) return `"${f.timeZone}" is not a time zone (try Europe/Berlin or America/New_York).`;
  const daySetting = daySettingOf(f, day, now);
  if (typeof daySetting === 'string') return daySetting;
  const pollSeconds = Number(f.pollSeconds);
  const accepted = carriedRules(f.rules).filter((r) => f.accepted.includes(r.rule));
  const rulesetOverrides = Object.assign({}, ...accepted.map((r) => r.overrides)) as Record<string, unknown>;
  const input = {
    url: f.url,
    ruleset: f.ruleset,
    players,
    ...(f.engine ? { engine: f.engine } : {}),
    ...(Number.isInteger(pollSeconds) && pollSeconds >= 10 ? { pollIntervalSeconds: pollSeconds } : {}),
    ...(daySetting ? { day: daySetting } : {}),
    timeZone: f.timeZone,
    ...(f.title ? { votalTitle: `${f.title} — vote count` } : {}),
    ...(f.gm.trim() ? { gm: f.gm.trim() } : {}),
    ...(accepted.length ? { rulesetOverrides } : {}),
  };
  return { input, day, startPost };
}

/** `POST /gm/games`: starts watching the game, then lands on its page once the first count is in (or soon). */
async function startGame(d: PageDeps, c: Ctx) {
  const f = newGameFormOf(await c.req.parseBody());
  const again = (error: string) => renderNewGame(c, { inspected: true, form: f, error }, 400);
  const command = newGameCommand(f, d.now);
  if (typeof command === 'string') return again(command);
  const { input, day, startPost } = command;
  let id: number;
  try {
    id = (
      await createGame(d.commands, c.get('actor'), input, {
        owner: c.get('gm')?.id,
        events: startPost > 0 || day > 1 ? [{ kind: 'day-start', day, at: startPost }] : [],
      })
    ).id;
  } catch (error) {
    return again(refusalOf(error));
  }
  await awaitPoll(d.store, id, 0);
  return d.back(c, `/gm/games/${id}`, { message: 'The game is watched: the first count is on its way.' });
}

/** `GET /gm/new`, `POST /gm/new/inspect` (read the thread), `POST /gm/games` (start watching). */
export function newGameRoutes(deps: DashboardDeps): Hono<UiEnv> {
  const d = pageDeps(deps);
  const app = new Hono<UiEnv>();
  app.get('/gm/new', (c) => showNewGame(d, c));
  app.post('/gm/new/inspect', (c) => inspectNewGame(d, c));
  app.post('/gm/games', (c) => startGame(d, c));
  return app;
}
