import type { Child } from 'hono/jsx';
import { EngineId } from '../../model/engine.js';
import type { Tally } from '../../model/tally.js';
import type { AuditAction, AuditEntry } from '../../model/audit.js';
import type { Draft, Publication } from '../../model/draft.js';
import type { GmNews } from '../../game/gm-news.js';
import { playersNow } from '../../game/players-now.js';
import type { Roster } from '../../model/roster.js';
import type { StoredGmEvent } from '../../store/events-repo.js';
import { GameStatus, type Game } from '../../model/game.js';
import { staleCount } from '../../game/stale-count.js';
import { lateText, type PollLateness } from '../../jobs/schedule.js';
import type { PollState } from '../../store/polls-repo.js';
import { Csrf, Layout, LocalTime, PostButton } from './layout.js';
import { Deadline, WagonsTable, outcomeText, thresholdText } from './live-page.js';
import { MarkupPreview } from './markup-preview.js';
import type { ReviewItem } from './review.js';
import { describeEvent } from './describe-event.js';
import { GmNewsPanel } from './gm-news.js';
import { safeHref } from './safe-url.js';
import { utcToLocalInput } from './time-zone.js';

/** The GM dashboard's pages. Every form posts to /gm/... with the session's CSRF token. */

export function GmNav(props: { csrf: string }) {
  return (
    <>
      <a href="/gm">Games</a>
      <a href="/gm/new">New game</a>
      <PostButton action="/gm/logout" csrf={props.csrf} label="Sign out" class="secondary" />
    </>
  );
}

export function Notice(props: { message?: string | null; error?: string | null }) {
  return (
    <>
      {props.message ? <p class="notice" id="flash" role="status">{props.message}</p> : null}
      {props.error ? <p class="notice error" id="flash-error" role="alert">{props.error}</p> : null}
    </>
  );
}

export function LoginPage(props: { pre: string; next: string; error?: string | null; hasPassword: boolean; canSetUp: boolean }) {
  return (
    <Layout title="Sign in — Votal">
      <section class="panel" aria-labelledby="login-h">
        <h1 id="login-h">GM sign-in</h1>
        <Notice error={props.error ?? null} />
        <form method="post" action="/gm/login">
          <input type="hidden" name="_pre" value={props.pre} />
          <input type="hidden" name="next" value={props.next} />
          <label for="gm-name">Your GM name (empty: the instance admin)</label>
          <input id="gm-name" name="name" type="text" autocomplete="username" maxlength={40} />
          <label for="secret">
            {props.hasPassword ? 'Password (the admin: the admin password or token)' : 'Password (the admin: the admin token)'}
          </label>
          <input id="secret" name="secret" type="password" autocomplete="current-password" required autofocus />
          <div class="actions"><button type="submit">Sign in</button></div>
        </form>
        {!props.hasPassword && props.canSetUp ? (
          <p class="hint">First run? <a href="/gm/setup">Set a password</a> (you need the admin token once).</p>
        ) : null}
      </section>
    </Layout>
  );
}

export function SetupPage(props: { pre: string; error?: string | null; done?: boolean }) {
  return (
    <Layout title="Set a password — Votal">
      <section class="panel" aria-labelledby="setup-h">
        <h1 id="setup-h">Set the GM password</h1>
        <Notice error={props.error ?? null} />
        <p>The admin token is in <code>VOTAL_ADMIN_TOKEN</code>, or in the file <code>votal serve</code> printed at start-up.</p>
        <form method="post" action="/gm/setup">
          <input type="hidden" name="_pre" value={props.pre} />
          <label for="token">Admin token</label>
          <input id="token" name="token" type="password" autocomplete="off" required />
          <label for="password">New password</label>
          <input id="password" name="password" type="password" autocomplete="new-password" minlength={10} required />
          <p class="hint">At least 10 characters.</p>
          <label for="confirm">New password again</label>
          <input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength={10} required />
          <div class="actions"><button type="submit">Set password</button></div>
        </form>
      </section>
    </Layout>
  );
}

/** Audit actions as the GM reads them; an action not listed shows its code. */
const ACTIVITY: Partial<Record<AuditAction, string>> = {
  'game.create': 'Game created',
  'game.settings': 'Settings changed',
  'game.status': 'Game paused or resumed',
  'game.roster': 'Players changed',
  'event.append': 'GM event recorded',
  'tally.save': 'Count updated',
  'poll.error': 'Reading the thread failed',
  'post.edit': 'A post was edited',
  'post.delete': 'A post was deleted',
  'draft.create': 'Votal drafted',
  'draft.edit': 'Votal draft edited',
  'draft.approve': 'Votal approved',
  'draft.discard': 'Votal draft discarded',
  'draft.supersede': 'Votal draft replaced by a newer count',
  'publication.publish': 'Votal posted',
  'publication.fail': 'Posting the votal failed',
  'review.accept': 'Review item accepted',
  'news.dismiss': "GM post proposal dismissed",
  'game.ruleset': 'Ruleset changed',
  'game.delete': 'Game deleted',
  'game.owner': 'Game owner set',
  'game.cohost-add': 'Co-host added',
  'game.cohost-remove': 'Co-host removed',
};
export const activityText = (action: AuditAction): string => ACTIVITY[action] ?? action;

const STATUS_WORDS: Record<GameStatus, string> = { active: 'Game resumed', paused: 'Game paused', finished: 'Game finished', archived: 'Game archived' };

/** One audit entry as a sentence, with what changed where that is short (status, ruleset, players). */
export function activityLine(entry: Pick<AuditEntry, 'action' | 'detail'>): string {
  const d = entry.detail;
  const status = GameStatus.safeParse(d.status);
  if (entry.action === 'game.status' && status.success) return STATUS_WORDS[status.data];
  if (entry.action === 'game.ruleset' && typeof d.from === 'string' && typeof d.to === 'string') return `Ruleset changed from ${d.from} to ${d.to} (recounted)`;
  if (entry.action === 'game.roster' && Array.isArray(d.players)) return `Players changed: ${d.players.join(', ')}`;
  if (entry.action.startsWith('game.') && typeof d.gm === 'string' && Object.hasOwn(ACTIVITY, entry.action)) {
    return `${ACTIVITY[entry.action]}: ${d.gm}`; // who became owner or co-host
  }
  return activityText(entry.action);
}

/** A roster as the new-game form writes it: one "Name (alias, alias)" a line. */
export function rosterText(roster: Roster): string {
  return roster.map((s) => (s.aliases.length ? `${s.name} (${s.aliases.join(', ')})` : s.name)).join('\n');
}

export interface GameSummary {
  game: Game;
  title: string;
  tally: Tally | null;
  poll: PollState;
  pending: number;
  /** The count's flags the GM has not answered yet. */
  toReview: number;
  deadline: string | null;
  /** Whether its polls keep their schedule (jobs/schedule.ts). */
  lateness: PollLateness;
}

export function DashboardPage(props: {
  csrf: string; games: GameSummary[]; message?: string | null;
  /** Showing the archived games instead of the others; `archived` counts them. */
  showArchived?: boolean; archived?: number;
  /** The signed-in GM: the admin gets the link to the GMs' page. */
  gm?: { name: string; admin: boolean };
}) {
  const archived = props.archived ?? 0;
  return (
    <Layout title="Games — Votal" nav={<GmNav csrf={props.csrf} />} scripts={['gm.js']}>
      <h1>{props.showArchived ? 'Archived games' : 'Games'}</h1>
      {props.gm ? (
        <p class="muted" id="signed-in">
          {`Signed in as ${props.gm.name}`}
          {props.gm.admin ? <> · <a href="/gm/gms">Game masters and invites</a></> : null}
        </p>
      ) : null}
      <Notice message={props.message ?? null} />
      {props.showArchived ? <p><a href="/gm">← Current games</a></p>
        : archived ? <p><a href="/gm?archived=1">{`Archived games (${archived})`}</a></p> : null}
      <section class="panel">
        {props.games.length === 0 ? (props.showArchived ? <p>No archived games.</p> : <p>No games yet. <a href="/gm/new">Watch a game thread</a>.</p>) : (
          <table>
            <caption>Watched threads</caption>
            <thead><tr><th scope="col">Game</th><th scope="col">Status</th><th scope="col" class="hide-narrow">Count</th><th scope="col">To review</th><th scope="col" class="hide-narrow">Deadline</th><th scope="col">Drafts</th></tr></thead>
            <tbody>
              {props.games.map((g) => (
                <tr>
                  <th scope="row"><a href={`/gm/games/${g.game.id}`}>{g.title}</a><div class="muted">{g.game.ruleset} · <a href={`/g/${g.game.slug}`}>live page</a></div></th>
                  <td>
                    {g.game.status}
                    <div class="muted">{g.poll.lastOkAt ? <>read <LocalTime iso={g.poll.lastOkAt} /></> : 'not read yet'}</div>
                    {g.poll.lastError ? <div class="muted">{`Last poll failed: ${g.poll.lastError}`}</div> : null}
                    {g.lateness.late ? <div class="late">{`Poll late by ${lateText(g.lateness.overdueMs)}`}</div> : null}
                  </td>
                  <td class="hide-narrow">{g.tally ? `Day ${g.tally.day}: ${g.tally.wagons.slice(0, 2).map((w) => `${w.target} ${w.total}`).join(', ') || 'no votes'}` : 'not counted yet'}</td>
                  <td>{g.toReview ? <a class="chip" href={`/gm/games/${g.game.id}#review`}>{`${g.toReview} open`}</a> : '—'}</td>
                  <td class="hide-narrow">{g.deadline ? <LocalTime iso={g.deadline} /> : '—'}</td>
                  <td>{g.pending ? <span class="chip">{`${g.pending} to approve`}</span> : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </Layout>
  );
}

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
}

/** A ruleset as the new-game form offers it. */
export interface RulesetChoice {
  name: string;
  title: string | null;
  source: string | null;
}

export function NewGamePage(props: {
  csrf: string; form: Partial<NewGameForm>; rulesets: RulesetChoice[]; inspected: boolean; error?: string | null; notes?: string[];
  zones: string[];
}) {
  const f = props.form;
  return (
    <Layout title="New game — Votal" nav={<GmNav csrf={props.csrf} />} scripts={['gm.js']}>
      <h1>Watch a game thread</h1>
      <Notice error={props.error ?? null} />
      <section class="panel" aria-labelledby="step1-h">
        <h2 id="step1-h">1. The thread</h2>
        <form method="post" action="/gm/new/inspect">
          <Csrf token={props.csrf} />
          <label for="url">Thread URL</label>
          <input id="url" name="url" type="url" required value={f.url ?? ''} placeholder="https://forum.example/threads/mafia-42.123/" />
          <label for="engine1">Forum engine</label>
          <select id="engine1" name="engine">
            <option value="">Detect it</option>
            {EngineId.options.map((e) => <option value={e} selected={f.engine === e}>{e}</option>)}
          </select>
          <div class="actions"><button type="submit">Read the thread</button></div>
        </form>
      </section>
      {props.inspected ? (
        <section class="panel" aria-labelledby="step2-h">
          <h2 id="step2-h">2. The game</h2>
          {props.notes?.length ? <ul class="muted">{props.notes.map((n) => <li>{n}</li>)}</ul> : null}
          <form method="post" action="/gm/games">
            <Csrf token={props.csrf} />
            <input type="hidden" name="url" value={f.url ?? ''} />
            <div class="row">
              <div>
                <label for="engine">Forum engine</label>
                <select id="engine" name="engine" required>
                  {EngineId.options.map((e) => <option value={e} selected={f.engine === e}>{e}</option>)}
                </select>
              </div>
              <div>
                <label for="ruleset">Ruleset</label>
                <select id="ruleset" name="ruleset" required aria-describedby="rulesets-help">
                  <option value="" selected={!f.ruleset} disabled>Choose the game's rules…</option>
                  {props.rulesets.map((r) => <option value={r.name} selected={f.ruleset === r.name}>{r.title ? `${r.title} (${r.name})` : r.name}</option>)}
                </select>
              </div>
            </div>
            <details class="box" id="rulesets-help">
              <summary>What each ruleset is</summary>
              <dl>{props.rulesets.map((r) => <><dt>{r.title ? `${r.title} (${r.name})` : r.name}</dt><dd>{r.source ?? 'No source given.'}</dd></>)}</dl>
            </details>
            <div class="row">
              <div><label for="title">Title</label><input id="title" name="title" type="text" value={f.title ?? ''} /></div>
              <div><label for="gm">GM</label><input id="gm" name="gm" type="text" value={f.gm ?? ''} /></div>
            </div>
            <label for="players">Players</label>
            <textarea id="players" name="players" required aria-describedby="players-hint">{f.players ?? ''}</textarea>
            <p class="hint" id="players-hint">One a line (or comma-separated); "Name (alias, alias)" adds nicknames. Proposed from the opening post or the posters: check it.</p>
            <div class="row">
              <div><label for="day">Day</label><input id="day" name="day" type="number" min="1" value={f.day ?? '1'} /></div>
              <div><label for="startPost">Day starts after post</label><input id="startPost" name="startPost" type="number" min="0" value={f.startPost ?? '1'} /></div>
              <div><label for="pollSeconds">Poll every (seconds)</label><input id="pollSeconds" name="pollSeconds" type="number" min="30" value={f.pollSeconds ?? '300'} /></div>
            </div>
            <div class="row">
              <div><label for="deadline">Deadline (in the time zone below)</label><input id="deadline" name="deadline" type="datetime-local" value={f.deadline ?? ''} /></div>
              <div>
                <label for="timeZone">Time zone</label>
                <input id="timeZone" name="timeZone" type="text" list="zones" value={f.timeZone ?? 'UTC'} />
                <datalist id="zones">{props.zones.map((z) => <option value={z} />)}</datalist>
              </div>
            </div>
            <div class="actions"><button type="submit">Start watching</button></div>
          </form>
        </section>
      ) : null}
    </Layout>
  );
}

function ReviewQueue(props: { items: ReviewItem[]; gameId: number; csrf: string }) {
  const open = props.items.filter((i) => i.resolved === null);
  const done = props.items.filter((i) => i.resolved !== null);
  const Item = (p: { item: ReviewItem }) => {
    const it = p.item;
    const href = safeHref(it.permalink);
    const action = `/gm/games/${props.gameId}/review`;
    const base = { post: String(it.post), key: it.key };
    return (
      <li id={`review-${it.key.replace(/[^a-z0-9-]/gi, '-')}`} data-review={it.key}>
        <div>
          <span class="kind">{it.title}</span>{' — '}
          {href ? <a href={href} rel="nofollow noopener noreferrer">{`post #${it.post}`}</a> : `post #${it.post}`}
          {it.player ? ` by ${it.player}` : ''}
        </div>
        <div><span class="raw">{it.detail}</span></div>
        {it.candidates.length ? <div class="muted">Could be: {it.candidates.join(' or ')}</div> : null}
        {it.diff ? (
          <figure class="diff" aria-label="Changes between the two versions">
            {it.diff.map((d) => (d.op === 'same' ? d.text : d.op === 'del' ? <del>{d.text}</del> : <ins>{d.text}</ins>))}
          </figure>
        ) : null}
        {it.resolved ? <p class="resolved">{it.resolved}</p> : (
          <div class="actions">
            {it.candidates.map((c) => (
              <PostButton action={action} csrf={props.csrf} label={`Vote for ${c}`} fields={{ ...base, action: 'correct', target: c }} />
            ))}
            {it.pick.length ? (
              <form method="post" action={action} class="inline">
                <Csrf token={props.csrf} />
                <input type="hidden" name="post" value={String(it.post)} />
                <input type="hidden" name="key" value={it.key} />
                <input type="hidden" name="action" value="correct" />
                <input type="hidden" name="pick" value="1" />
                <label class="sr-only" for={`pick-${it.post}`}>{`Player meant in post ${it.post}`}</label>
                {/* No player is chosen for the GM: one careless click must not record a vote. */}
                <select id={`pick-${it.post}`} name="target" required>
                  <option value="" selected disabled>Choose a player…</option>
                  {it.pick.map((n) => <option value={n}>{n}</option>)}
                </select>{' '}
                <button type="submit" class="secondary">Pick</button>
              </form>
            ) : null}
            {it.choices.map((ch) => (
              <PostButton action={action} csrf={props.csrf} label={ch.label} class={ch.target === null && ch.action === 'correct' ? 'danger' : 'secondary'}
                fields={{ ...base, action: ch.action, ...(ch.target !== null ? { target: ch.target } : {}) }} />
            ))}
          </div>
        )}
      </li>
    );
  };
  return (
    <section class="panel" aria-labelledby="review-h" id="review">
      <h2 id="review-h">Review queue {open.length ? <span class="chip">{`${open.length} open`}</span> : null}</h2>
      {open.length === 0 ? <p class="muted">Nothing to review.</p> : <ul class="queue">{open.map((i) => <Item item={i} />)}</ul>}
      {done.length ? (
        <details class="box"><summary>{`Settled (${done.length})`}</summary><ul class="queue">{done.map((i) => <Item item={i} />)}</ul></details>
      ) : null}
    </section>
  );
}

function EventsPanel(props: { game: Game; tally: Tally | null; events: StoredGmEvent[]; csrf: string }) {
  const players = props.game.roster.map((s) => s.name);
  const action = `/gm/games/${props.game.id}/events`;
  const PlayerSelect = (p: { id: string; name: string; label: string; extra?: string[] }) => (
    <div>
      <label for={p.id}>{p.label}</label>
      <select id={p.id} name={p.name}>{[...(p.extra ?? []), ...players].map((n) => <option value={n}>{n}</option>)}</select>
    </div>
  );
  const AtField = (p: { id: string }) => (
    <div><label for={p.id}>After post</label><input id={p.id} name="at" type="number" min="0" value={String(props.tally?.asOfPost ?? 0)} /></div>
  );
  // Every event form posts to the same place with the CSRF token and, unless it asks, one fixed kind.
  const EventForm = (p: { kind?: string; submit?: string; children?: unknown }) => (
    <form method="post" action={action}>
      <Csrf token={props.csrf} />
      {p.kind ? <input type="hidden" name="kind" value={p.kind} /> : null}
      {p.children}
      <div class="actions"><button type="submit">{p.submit ?? 'Record'}</button></div>
    </form>
  );
  return (
    <section class="panel" aria-labelledby="events-h">
      <h2 id="events-h">GM events</h2>
      <details class="box">
        <summary>Kill, revive, modkill</summary>
        <EventForm>
          <div class="row">
            <div><label for="life-kind">Event</label><select id="life-kind" name="kind"><option value="kill">kill</option><option value="revive">revive</option><option value="modkill">modkill</option></select></div>
            <PlayerSelect id="life-player" name="player" label="Player" />
            <AtField id="life-at" />
          </div>
        </EventForm>
      </details>
      <details class="box">
        <summary>Replacement</summary>
        <EventForm kind="replace">
          <div class="row">
            <PlayerSelect id="rep-player" name="player" label="Player leaving" />
            <div><label for="rep-by">Replaced by</label><input id="rep-by" name="by" type="text" required /></div>
            <AtField id="rep-at" />
          </div>
        </EventForm>
      </details>
      <details class="box">
        <summary>Vote weight</summary>
        <EventForm kind="weight">
          <div class="row">
            <PlayerSelect id="w-player" name="player" label="Player" />
            <div><label for="w-weight">Weight</label><input id="w-weight" name="weight" type="number" step="0.5" value="2" /></div>
            <AtField id="w-at" />
          </div>
          <label class="check"><input type="checkbox" name="hidden" value="1" /> Hidden from players</label>
        </EventForm>
      </details>
      <details class="box">
        <summary>Manual vote (hidden-vote games)</summary>
        <EventForm kind="vote">
          <div class="row">
            <PlayerSelect id="v-player" name="player" label="Voter" />
            <PlayerSelect id="v-target" name="target" label="Votes for" extra={['(unvote)']} />
            <AtField id="v-at" />
          </div>
          <label class="check"><input type="checkbox" name="hidden" value="1" /> Voter not published</label>
        </EventForm>
      </details>
      <details class="box">
        <summary>Judge or tie decision</summary>
        <EventForm kind="decide">
          <label for="d-elim">Eliminated (comma-separated; empty: nobody)</label>
          <input id="d-elim" name="eliminated" type="text" value={(props.tally?.outcome.leaders ?? []).join(', ')} />
          <AtField id="d-at" />
        </EventForm>
      </details>
      <details class="box">
        <summary>End the Day / start the next</summary>
        <EventForm kind="day-end" submit="End the Day">
          <AtField id="de-at" />
        </EventForm>
        <EventForm kind="day-start" submit="Start the Day">
          <div class="row">
            <div><label for="ds-day">Day</label><input id="ds-day" name="day" type="number" min="1" value={String((props.tally?.day ?? 0) + 1)} /></div>
            <AtField id="ds-at" />
          </div>
        </EventForm>
      </details>
      <h3>Recorded</h3>
      {props.events.length === 0 ? <p class="muted">None yet.</p> : (
        <ol class="changes">{props.events.map((e) => <li>{describeEvent(e.event)} <span class="muted">— {e.createdBy}, <LocalTime iso={e.createdAt} /></span></li>)}</ol>
      )}
    </section>
  );
}

function DraftsPanel(props: { game: Game; drafts: Draft[]; publications: Map<number, Publication>; csrf: string }) {
  const pending = props.drafts.filter((d) => d.status === 'pending' || d.status === 'approved');
  const published = props.drafts.filter((d) => d.status === 'published');
  return (
    <section class="panel" aria-labelledby="drafts-h">
      <h2 id="drafts-h">Votal drafts</h2>
      <PostButton action={`/gm/games/${props.game.id}/drafts`} csrf={props.csrf} label="Draft a votal from the current count" class="secondary" />
      {pending.length === 0 ? <p class="muted">No draft waiting.</p> : (
        <ul class="games">
          {pending.map((d) => (
            <li>
              <a href={`/gm/drafts/${d.id}`}>{`Draft #${d.id}`}</a> <span class="chip">{d.status}</span>{' '}
              <span class="muted"><LocalTime iso={d.createdAt} /> by {d.createdBy}</span>
              {props.publications.get(d.id)?.lastError ? <div class="notice error">{props.publications.get(d.id)!.lastError}</div> : null}
            </li>
          ))}
        </ul>
      )}
      <h3>Published</h3>
      {published.length === 0 ? <p class="muted">Nothing published yet.</p> : (
        <ul class="games">
          {published.map((d) => {
            const pub = props.publications.get(d.id);
            const href = safeHref(pub?.remoteUrl ?? null);
            return (
              <li>
                <a href={`/gm/drafts/${d.id}`}>{`Votal #${d.id}`}</a>{' '}
                {pub?.publishedAt ? <span class="muted"><LocalTime iso={pub.publishedAt} /></span> : null}{' '}
                {href ? <a href={href} rel="nofollow noopener noreferrer">on the forum</a> : pub?.method === 'copy' ? <span class="muted">(copied)</span> : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

export function GamePage(props: {
  csrf: string; game: Game; title: string; tally: Tally | null; tallyAt: string | null; poll: PollState; review: ReviewItem[];
  events: StoredGmEvent[]; drafts: Draft[]; publications: Map<number, Publication>; deadline: string | null;
  message?: string | null; error?: string | null; audit: AuditEntry[]; news: GmNews;
}) {
  const g = props.game;
  const t = props.tally;
  const thread = safeHref(g.threadUrl);
  return (
    <Layout title={`${props.title} — Votal`} nav={<GmNav csrf={props.csrf} />} scripts={['gm.js']}>
      <h1>{props.title}</h1>
      <p class="notice" hidden data-watch={`/g/${g.slug}/events`} role="status">
        The game changed since this page was loaded. <a href={`/gm/games/${g.id}`}>Reload</a>
      </p>
      <Notice message={props.message ?? null} error={props.error ?? null} />
      <p>
        {thread ? <a href={thread} rel="nofollow noopener noreferrer">Thread</a> : null}
        {' · '}<a href={`/g/${g.slug}`}>Live page</a>
        {' · '}<a href={`/gm/games/${g.id}/settings`}>Settings</a>
        {' · '}<span class="chip">{g.status}</span>{' '}<span class="chip">{g.ruleset}</span>{' '}<span class="chip">{g.engine ?? 'engine unknown'}</span>
      </p>
      <div class="actions">
        <PostButton action={`/gm/games/${g.id}/poll`} csrf={props.csrf} label="Poll now" />
        <span class="muted">
          {props.poll.lastOkAt ? <>Last read <LocalTime iso={props.poll.lastOkAt} /></> : 'Not read yet'}
          {props.poll.lastError ? ` — last poll failed: ${props.poll.lastError}` : ''}
        </span>
      </div>
      {staleCount(props.poll)?.reason === 'login-required'
        ? <p class="notice error" role="alert" data-stale="login-required">{staleCount(props.poll)!.message}</p>
        : null}
      <div class="grid">
        <div>
          <section class="panel" aria-labelledby="tally-h">
            <h2 id="tally-h">Current count</h2>
            {t ? (
              <>
                <p>{`Day ${t.day} · ${thresholdText(t)}`}{t.asOfPost !== null ? ` · as of post ${t.asOfPost}` : ''}{props.tallyAt ? <> · counted <LocalTime iso={props.tallyAt} /></> : null}</p>
                <p>Deadline: <Deadline deadline={props.deadline} timeZone={g.settings.timeZone ?? null} ended={outcomeText(t)} /></p>
                <WagonsTable tally={t} id="gm-wagons" />
                <p><strong>Not voting ({t.notVoting.length}):</strong> {t.notVoting.join(', ') || '—'}</p>
                {t.outcome.status !== 'open' ? <p class="notice"><strong>{`Outcome: ${t.outcome.status}`}</strong>{t.outcome.eliminated.length ? ` — ${t.outcome.eliminated.join(', ')}` : ''}</p> : null}
                {t.notes?.length ? <ul class="muted">{t.notes.map((n) => <li>{n}</li>)}</ul> : null}
              </>
            ) : <p class="muted">Not counted yet: the first poll is on its way.</p>}
          </section>
          <ReviewQueue items={props.review} gameId={g.id} csrf={props.csrf} />
          <DraftsPanel game={g} drafts={props.drafts} publications={props.publications} csrf={props.csrf} />
        </div>
        <div>
          <GmNewsPanel gameId={g.id} news={props.news} csrf={props.csrf} />
          <EventsPanel game={g} tally={t} events={props.events} csrf={props.csrf} />
          <PlayersPanel game={g} tally={t} events={props.events} />
          <section class="panel" aria-labelledby="audit-h">
            <h2 id="audit-h">Recent activity</h2>
            <ol class="changes">{props.audit.slice(0, 12).map((a) => <li>{activityLine(a)} <span class="muted">— {a.actor}, <LocalTime iso={a.at} /></span></li>)}</ol>
          </section>
        </div>
      </div>
    </Layout>
  );
}

/** Who is alive and who is dead as the count knows it (kills, revives, replacements, rule deaths). */
function PlayersPanel(props: { game: Game; tally: Tally | null; events: StoredGmEvent[] }) {
  const players = playersNow(props.game.roster, props.events.map((e) => e.event), props.tally);
  const alive = players.filter((p) => p.alive);
  const dead = players.filter((p) => !p.alive);
  const chip = (p: (typeof players)[number]) => (
    <li><span class="chip">{p.name}</span>{p.formerNames.length ? <span class="muted">{` (replaced ${p.formerNames.join(', ')})`}</span> : null}</li>
  );
  return (
    <section class="panel" aria-labelledby="players-h">
      <h2 id="players-h">Players</h2>
      <h3 id="alive-h">{`Alive (${alive.length})`}</h3>
      <ul class="voters" aria-labelledby="alive-h">{alive.map(chip)}</ul>
      <h3 id="dead-h">{`Dead (${dead.length})`}</h3>
      {dead.length ? <ul class="voters" aria-labelledby="dead-h">{dead.map(chip)}</ul> : <p class="muted">Nobody yet.</p>}
      <p><a href={`/gm/games/${props.game.id}/settings#players`}>Edit players</a></p>
    </section>
  );
}

export function DraftPage(props: {
  csrf: string; game: Game; title: string; draft: Draft; publication: Publication | null; canPost: boolean; message?: string | null; error?: string | null;
  /** Approved for copying: the text to paste (the votal as drafted, no marker). */
  copyText: string | null;
  /** A pending draft made from an older count: what changed since (then approving asks to confirm). */
  staleChanges?: string[] | null;
}) {
  const d = props.draft;
  const editable = d.status === 'pending';
  const remote = safeHref(props.publication?.remoteUrl ?? null);
  return (
    <Layout title={`Draft #${d.id} — ${props.title}`} nav={<GmNav csrf={props.csrf} />} scripts={['gm.js']}>
      <p><a href={`/gm/games/${props.game.id}`}>{`← ${props.title}`}</a></p>
      <h1>{`Votal draft #${d.id}`} <span class="chip">{d.status}</span></h1>
      <Notice message={props.message ?? null} error={props.error ?? null} />
      {d.supersededBy !== null ? <p class="notice" role="status">Replaced by <a href={`/gm/drafts/${d.supersededBy}`}>{`draft #${d.supersededBy}`}</a>.</p> : null}
      {props.publication?.lastError ? <p class="notice error" role="alert">{`Publishing failed: ${props.publication.lastError}`}</p> : null}
      {remote ? <p class="notice" role="status">Published: <a href={remote} rel="nofollow noopener noreferrer">the post on the forum</a></p> : null}
      <div class="grid">
        <section class="panel" aria-labelledby="preview-h">
          <h2 id="preview-h">Preview</h2>
          <div class="forum-post">
            <div class="author"><div class="avatar" aria-hidden="true">GM</div>{typeof props.game.settings.gm === 'string' ? props.game.settings.gm : props.game.settings.gm?.join(', ') ?? 'GM'}</div>
            <MarkupPreview source={d.body} dialect={d.dialect} />
          </div>
        </section>
        <section class="panel" aria-labelledby="raw-h">
          <h2 id="raw-h">{`Markup (${d.dialect})`}</h2>
          {props.copyText !== null ? (
            <>
              <p>Paste this into the thread as it is; Votal finds your post by its words (a line of your own or your signature around it is fine):</p>
              <label for="copy-text" class="sr-only">Votal to paste</label>
              <textarea id="copy-text" readonly rows={16}>{props.copyText}</textarea>
              <div class="actions"><button type="button" data-copy="copy-text">Copy</button></div>
            </>
          ) : editable ? (
            <form method="post" action={`/gm/drafts/${d.id}/approve`} id="draft-form">
              <Csrf token={props.csrf} />
              <label for="body" class="sr-only">Draft markup</label>
              <textarea id="body" name="body" rows={16}>{d.body}</textarea>
              {props.staleChanges ? (
                <div class="notice error" role="alert" id="stale-warning">
                  <p>This draft was made from an older count. Since then:</p>
                  <ul>{props.staleChanges.map((line) => <li>{line}</li>)}</ul>
                  <p>Approve it anyway only if it should be posted as it is; otherwise draft again from the current count.</p>
                </div>
              ) : null}
              <div class="actions">
                {props.staleChanges
                  ? <button type="submit" name="confirm" value="1">{props.canPost ? 'Approve anyway and publish' : 'Approve anyway'}</button>
                  : <button type="submit">{props.canPost ? 'Approve and publish' : 'Approve (then copy it into the thread)'}</button>}
                <button type="submit" class="secondary" formaction={`/gm/drafts/${d.id}/preview`}>Preview the edit</button>
                <button type="submit" class="secondary" formaction={`/gm/drafts/${d.id}/edit`}>Save edit as a new draft</button>
                <button type="button" class="secondary" data-copy="body">Copy</button>
              </div>
              {!props.canPost ? <p class="hint">No forum login is set for this game (Settings): approve, paste it into the thread, then confirm below.</p> : null}
            </form>
          ) : (
            <>
              <pre class="raw" id="raw-body">{d.body}</pre>
              <div class="actions"><button type="button" class="secondary" data-copy="raw-body">Copy</button></div>
            </>
          )}
        </section>
      </div>
      {d.status === 'discarded' || d.status === 'superseded' ? (
        <p class="muted" id="draft-closed">{d.status === 'discarded' ? 'This draft was discarded: nothing was posted.' : 'This draft was replaced by a newer one: nothing was posted.'}</p>
      ) : null}
      {editable || (props.publication && props.publication.status !== 'published' && props.publication.method === 'copy') ? (
      <section class="panel" id="draft-actions">
        <div class="actions">
          {editable && props.staleChanges ? (
            <PostButton action={`/gm/games/${props.game.id}/drafts`} csrf={props.csrf} label="Draft again from the current count" class="secondary" />
          ) : null}
          {editable ? <PostButton action={`/gm/drafts/${d.id}/discard`} csrf={props.csrf} label="Discard this draft" class="danger" /> : null}
          {props.publication && props.publication.status !== 'published' && props.publication.method === 'copy' ? (
            <form method="post" action={`/gm/drafts/${d.id}/published`} class="inline">
              <Csrf token={props.csrf} />
              <label for="posted-url" class="sr-only">Address of the post (optional)</label>
              <input id="posted-url" name="url" type="url" placeholder="Link to the post (optional)" />{' '}
              <button type="submit" class="secondary">I have posted it</button>
            </form>
          ) : null}
        </div>
      </section>
      ) : null}
    </Layout>
  );
}

export function SettingsPage(props: {
  csrf: string; game: Game; title: string; zones: string[]; publishMethod: string; secretKey: boolean; message?: string | null; error?: string | null;
  rulesets: RulesetChoice[];
  /** The game's GMs: owner and co-hosts (gms-page.tsx). */
  gms?: Child;
}) {
  const g = props.game;
  const s = g.settings as Record<string, unknown>;
  const drafts = (typeof s.drafts === 'object' && s.drafts !== null ? s.drafts : {}) as Record<string, unknown>;
  const day = (typeof s.day === 'object' && s.day !== null ? s.day : {}) as Record<string, unknown>;
  const zone = typeof s.timeZone === 'string' ? s.timeZone : 'UTC';
  const checked = (v: unknown, dflt: boolean): boolean => (typeof v === 'boolean' ? v : dflt);
  return (
    <Layout title={`Settings — ${props.title}`} nav={<GmNav csrf={props.csrf} />} scripts={['gm.js']}>
      <p><a href={`/gm/games/${g.id}`}>{`← ${props.title}`}</a></p>
      <h1>Settings</h1>
      <Notice message={props.message ?? null} error={props.error ?? null} />
      <form method="post" action={`/gm/games/${g.id}/settings`} class="panel">
        <Csrf token={props.csrf} />
        <h2>Game</h2>
        <label for="title">Title (on the dashboard and the live page; empty: the thread's title)</label>
        <input id="title" name="title" type="text" maxlength={200} value={typeof s.title === 'string' ? s.title : ''} />
        <label for="ruleset">Ruleset (changing it counts the whole game again under the new rules)</label>
        <select id="ruleset" name="ruleset">
          {props.rulesets.map((r) => <option value={r.name} selected={g.ruleset === r.name}>{r.title ? `${r.title} (${r.name})` : r.name}</option>)}
        </select>
        <label for="players">Players: one a line, nicknames in brackets, e.g. "Dave (Dee, D)"; changing them counts the game again</label>
        <textarea id="players" name="players" rows={Math.min(20, Math.max(4, g.roster.length + 1))}>{rosterText(g.roster)}</textarea>
        <p class="hint">Replacements, kills and revives are GM events on the game page: they keep the slot's history.</p>
        <h2>Polling</h2>
        <div class="row">
          <div><label for="pollSeconds">Poll every (seconds)</label><input id="pollSeconds" name="pollSeconds" type="number" min="30" value={String(g.pollIntervalSeconds)} /></div>
          <div>
            <label for="status">Status</label>
            <select id="status" name="status">{GameStatus.options.map((v) => <option value={v} selected={g.status === v}>{v}</option>)}</select>
          </div>
        </div>
        <h2>Day clock</h2>
        <div class="row">
          <div><label for="dayNumber">Day</label><input id="dayNumber" name="dayNumber" type="number" min="1" value={String(day.number ?? 1)} /></div>
          <div><label for="deadline">Deadline</label><input id="deadline" name="deadline" type="datetime-local" value={typeof day.deadline === 'string' ? utcToLocalInput(day.deadline, zone) : ''} /></div>
          <div>
            <label for="timeZone">Time zone</label>
            <input id="timeZone" name="timeZone" type="text" list="zones" value={zone} />
            <datalist id="zones">{props.zones.map((z) => <option value={z} />)}</datalist>
          </div>
        </div>
        <h2>Draft triggers</h2>
        <p class="hint">When Votal drafts a votal for you to approve.</p>
        <div class="row">
          <div><label for="everyNVotes">After this many vote changes (empty: never)</label><input id="everyNVotes" name="everyNVotes" type="number" min="1" value={drafts.everyNVotes === null ? '' : String(drafts.everyNVotes ?? 5)} /></div>
          <div><label for="everyHours">After this many hours (empty: never)</label><input id="everyHours" name="everyHours" type="number" min="0.5" step="0.5" value={drafts.everyHours === null ? '' : String(drafts.everyHours ?? 12)} /></div>
        </div>
        <label class="check"><input type="checkbox" name="onLMinus1" value="1" checked={checked(drafts.onLMinus1, true)} /> When a wagon is one vote short (L-1)</label>
        <label class="check"><input type="checkbox" name="onMajority" value="1" checked={checked(drafts.onMajority, true)} /> When a wagon reaches the threshold</label>
        <label class="check"><input type="checkbox" name="onDeadline" value="1" checked={checked(drafts.onDeadline, true)} /> When the Day ends</label>
        <label for="requestKeywords">Words players write to ask for a count (comma-separated)</label>
        <input id="requestKeywords" name="requestKeywords" type="text" value={Array.isArray(drafts.requestKeywords) ? drafts.requestKeywords.join(', ') : '##votecount, ##vc'} />
        <h2>Webhook</h2>
        <label for="webhookUrl">Webhook URL (called when a draft waits or the Day is decided)</label>
        <input id="webhookUrl" name="webhookUrl" type="url" value={typeof s.webhookUrl === 'string' ? s.webhookUrl : ''} />
        <h2>Forum login (publishing)</h2>
        <p class="hint">{`Now: ${props.publishMethod}. Credentials are stored encrypted and never shown again.`}{props.secretKey ? '' : ' Storing credentials needs VOTAL_SECRET_KEY on the server.'}</p>
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
          <div><label for="apiUser">API user</label><input id="apiUser" name="apiUser" type="text" autocomplete="off" /></div>
          <div><label for="apiKey">API key</label><input id="apiKey" name="apiKey" type="password" autocomplete="off" /></div>
        </div>
        <div class="actions"><button type="submit">Save settings</button></div>
      </form>
      {props.gms ?? null}
      <section class="panel" aria-labelledby="end-h">
        <h2 id="end-h">Archive or delete</h2>
        {g.status === 'archived' ? (
          <p>This game is archived: it is not read and is listed under archived games. <PostButton action={`/gm/games/${g.id}/archive`} csrf={props.csrf} label="Unarchive (paused)" fields={{ archive: '0' }} class="secondary" /></p>
        ) : (
          <p>Archiving stops reading the thread and moves the game off the main list; everything is kept. <PostButton action={`/gm/games/${g.id}/archive`} csrf={props.csrf} label="Archive this game" fields={{ archive: '1' }} class="secondary" /></p>
        )}
        <p>Deleting removes the game and all of its posts, counts, drafts and history for good. <a class="danger" href={`/gm/games/${g.id}/delete`}>Delete this game…</a></p>
      </section>
    </Layout>
  );
}

/** The confirmation step before a game is deleted: the GM types the game's short name. */
export function DeleteGamePage(props: { csrf: string; game: Game; title: string; error?: string | null }) {
  const g = props.game;
  return (
    <Layout title={`Delete ${props.title} — Votal`} nav={<GmNav csrf={props.csrf} />}>
      <p><a href={`/gm/games/${g.id}/settings`}>{`← Settings of ${props.title}`}</a></p>
      <h1>{`Delete “${props.title}”?`}</h1>
      <Notice error={props.error ?? null} />
      <form method="post" action={`/gm/games/${g.id}/delete`} class="panel">
        <Csrf token={props.csrf} />
        <p>{`This deletes the game “${props.title}” (${g.threadUrl}) and everything Votal keeps of it: posts and their edits, GM events, counts, drafts, published votals' records and the activity log. It cannot be undone. Archive it instead to keep it.`}</p>
        <label for="confirm">{`Type the game's short name, ${g.slug}, to confirm`}</label>
        <input id="confirm" name="confirm" type="text" autocomplete="off" required />
        <div class="actions"><button type="submit" class="danger">Delete this game and all its data</button></div>
      </form>
    </Layout>
  );
}

export function ErrorPage(props: { status: number; message: string; nav?: Child }) {
  return (
    <Layout title={`${props.status} — Votal`} nav={props.nav}>
      <h1>{props.status === 404 ? 'Not found' : props.status === 403 ? 'Refused' : 'Something went wrong'}</h1>
      <p>{props.message}</p>
    </Layout>
  );
}
