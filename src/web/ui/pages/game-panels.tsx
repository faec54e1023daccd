import type { AuditAction, AuditEntry } from '../../../model/audit.js';
import type { Draft, Publication } from '../../../model/draft.js';
import { gameRuleset } from '../../../game/game-ruleset.js';
import { playersNow } from '../../../game/players-now.js';
import { dayEndPreview } from '../../../tally/day-end-preview.js';
import { GameStatus, type Game } from '../../../model/game.js';
import { isLooseMatch, looseReading, untimedReason, type Tally, type Voter, type Wagon } from '../../../model/tally.js';
import type { StoredGmEvent } from '../../../store/events-repo.js';
import { describeEvent } from '../describe-event.js';
import type { GmNews } from '../../../game/gm-news.js';
import { GmNewsPanel } from '../gm-news.js';
import { CountOfferItems, countOffers } from '../gm-checks.js';
import type { GmChecks } from '../../../model/gm-count.js';
import { Csrf, LocalTime, PostButton } from '../layout.js';
import type { ReviewItem } from '../../../game/review-queue.js';
import { safeHref } from '../safe-url.js';

/** The panels of a game's page (game.tsx), each a part of the game the GM reads or acts on. */

/** Audit actions as the GM reads them: every action has its words (the type makes a new one say so). */
const ACTIVITY: Record<AuditAction, string> = {
  'game.create': 'Game created',
  'game.settings': 'Settings changed',
  'game.status': 'Game paused or resumed',
  'game.roster': 'Players changed',
  'game.nickname-drop': 'Known nickname dropped',
  'game.overrides': "The game's rules changed (the threshold the GM's own counts state)",
  'game.nicknames': "Known nicknames follow the site's book",
  'nickname.forget': "A nickname forgotten in the site's book",
  'game.ruleset': 'Ruleset changed',
  'game.engine': 'How the thread is read changed',
  'game.delete': 'Game deleted',
  'game.owner': 'Game owner set',
  'game.cohost-add': 'Co-host added',
  'game.cohost-remove': 'Co-host removed',
  'event.append': 'GM event recorded',
  'poll.read': 'Thread read',
  'poll.error': 'Reading the thread failed',
  'poll.recover': 'Reading the thread works again',
  'post.edit': 'A post was edited',
  'post.delete': 'A post was deleted',
  'post.restore': 'A deleted post is back',
  'tally.save': 'Count updated',
  'tally.decided': 'The Day was decided',
  'draft.create': 'Votal drafted',
  'draft.edit': 'Votal draft edited',
  'draft.approve': 'Votal approved',
  'draft.discard': 'Votal draft discarded',
  'draft.supersede': 'Votal draft replaced by a newer count',
  'draft.reasons': 'Votal drafted',
  'draft.error': 'Drafting the votal failed',
  'publication.start': 'Posting the votal',
  'publication.retry': 'Posting the votal again',
  'publication.takeover': 'Posting the votal (taken over from a stopped attempt)',
  'publication.attempt': 'Posting the votal',
  'publication.check': 'Checked whether the votal was posted',
  'publication.copy': 'Votal copied to post by hand',
  'publication.unavailable': 'Posting is not available for this forum',
  'publication.fail': 'Posting the votal failed',
  'publication.publish': 'Votal posted',
  'review.accept': 'Review item accepted',
  'review.dismiss': 'Review item dismissed',
  'news.dismiss': 'GM post proposal dismissed',
  'news.record': 'GM post proposal recorded',
  'check.mark': "A difference in the GM's own count marked",
  'check.lesson-accept': "A vote the GM's own count placed, counted (and its name learned)",
  'check.lesson-dismiss': "A lesson from the GM's own count declined",
  'check.threshold-dismiss': "The threshold the GM's own counts state declined",
  'check.death-record': "A death the GM's own count implies, recorded",
  'check.death-dismiss': "A death the GM's own count implies, declined",
  'webhook.send': 'Notification sent',
  'webhook.fail': 'Notification failed',
  'gm.login': 'GM signed in',
  'gm.login-failed': 'A sign-in failed',
  'gm.password-set': 'GM password set',
  'gm.invite': 'Co-host invited',
  'gm.invite-revoke': 'Co-host invite withdrawn',
  'gm.join': 'Co-host joined',
  'gm.revoke': 'GM access withdrawn',
  'generic.confirm': "Page 1 as the generic reader read it confirmed; the forum's layout is kept",
  'generic.recheck': 'Page 1 to be read generically again (the layout changed)',
  'generic.held':
    "The forum's kept layout was forgotten (another game on this forum had page 1 read again): page 1 waits for your check",
};
const activityText = (action: AuditAction): string => ACTIVITY[action];

const STATUS_WORDS: Record<GameStatus, string> = {
  active: 'Game resumed',
  paused: 'Game paused',
  finished: 'Game finished',
  archived: 'Game archived',
};

/** `game.nicknames`: what the site's book brought and took away (src/game/book-roster.ts). */
function bookChange(d: Record<string, unknown>): string {
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const parts = [
    ...list(d.added).map((n) => `${n} learned in another game`),
    ...list(d.removed).map((n) => `${n} forgotten`),
  ];
  return parts.length > 0 ? `Known nicknames from the site's book: ${parts.join('; ')}` : ACTIVITY['game.nicknames'];
}

/** One audit entry as a sentence, with what changed where that is short (status, ruleset, players). */
export function activityLine(entry: Pick<AuditEntry, 'action' | 'detail'>): string {
  const d = entry.detail;
  const status = GameStatus.safeParse(d.status);
  if (entry.action === 'game.status' && status.success) return STATUS_WORDS[status.data];
  if (entry.action === 'game.ruleset' && typeof d.from === 'string' && typeof d.to === 'string')
    return `Ruleset changed from ${d.from} to ${d.to} (recounted)`;
  if (entry.action === 'game.engine' && (d.to === 'generic' || d.from === 'generic'))
    return d.to === 'generic'
      ? `Switched to Votal's generic reader (the ${typeof d.from === 'string' ? d.from : 'engine'} layout was not found)`
      : `Switched back to the ${typeof d.to === 'string' ? d.to : 'engine'} adapter`;
  if (entry.action === 'game.roster' && Array.isArray(d.players)) return `Players changed: ${d.players.join(', ')}`;
  if (entry.action === 'game.nickname-drop' && typeof d.nickname === 'string' && typeof d.player === 'string')
    return `Known nickname "${d.nickname}" dropped for ${d.player} (this game only)`;
  if (entry.action === 'game.nicknames') return bookChange(d);
  if (entry.action === 'poll.read') return `Thread read: ${readCounts(d)}`;
  if (entry.action === 'draft.reasons' && Array.isArray(d.reasons)) {
    const why = d.reasons.flatMap((r) => (r && typeof r === 'object' && typeof r.text === 'string' ? [r.text] : []));
    if (why.length) return `Votal drafted: ${why.join('; ')}`;
  }
  if (entry.action.startsWith('game.') && typeof d.gm === 'string' && Object.hasOwn(ACTIVITY, entry.action)) {
    return `${ACTIVITY[entry.action]}: ${d.gm}`; // who became owner or co-host
  }
  return activityText(entry.action);
}

/** "3 new posts, 1 edited" from a poll's audit detail. */
function readCounts(d: Record<string, unknown>): string {
  const n = (k: string): number => (typeof d[k] === 'number' ? (d[k] as number) : 0);
  const parts = [
    n('added') ? `${n('added')} new post${n('added') === 1 ? '' : 's'}` : null,
    n('edited') ? `${n('edited')} edited` : null,
    n('deleted') ? `${n('deleted')} deleted` : null,
    n('restored') ? `${n('restored')} restored` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'nothing new';
}

/**
 * A review item's "count it for this player" form: a GM correction naming the player picked.
 * No player is chosen for the GM: one careless click must not record a vote.
 */
function PickForm(props: {
  action: string;
  csrf: string;
  post: number;
  itemKey: string;
  id: string;
  /** What the list is, for screen readers. */
  label: string;
  prompt: string;
  names: readonly string[];
  button: string;
}) {
  return (
    <form method="post" action={props.action} class="inline">
      <Csrf token={props.csrf} />
      <input type="hidden" name="post" value={String(props.post)} />
      <input type="hidden" name="key" value={props.itemKey} />
      <input type="hidden" name="action" value="correct" />
      <input type="hidden" name="pick" value="1" />
      <label class="sr-only" for={props.id}>
        {props.label}
      </label>
      <select id={props.id} name="target" required>
        <option value="" selected disabled>
          {props.prompt}
        </option>
        {props.names.map((n) => (
          <option value={n}>{n}</option>
        ))}
      </select>{' '}
      <button type="submit" class="secondary">
        {props.button}
      </button>
    </form>
  );
}

/**
 * A vote on the wagon list counted on a loose reading of a name ("Carl" for Carol, fuzzy):
 * marked, with the review item's own corrections beside it (ignore the vote, or count it
 * for the player meant): one click, the path the review queue takes.
 */
export function LooseMark(props: {
  voter: Voter;
  wagon: Wagon;
  day: number;
  review: readonly ReviewItem[];
  gameId: number;
  csrf: string;
}) {
  const v = props.voter;
  if (!isLooseMatch(v.match)) return null;
  // The review item of this reading (review-queue.ts `looseItems` keys it so).
  const key = `loose:${props.day}:${v.player}:${v.written ?? ''}:${props.wagon.target}`;
  const item = props.review.find((i) => i.key === key);
  const action = `/gm/games/${props.gameId}/review`;
  const base = { post: String(v.post), key };
  // A nickname from another game of the forum (the site's book) decided this vote: said so, with the game.
  const byBook = v.match === 'nickname';
  return (
    <span class="loose" data-loose={v.player}>
      <span
        class="marker loose"
        title={byBook ? "Counted on a nickname from the site's book" : 'Counted on a loose reading of the name'}
      >
        {`${byBook ? 'read by a nickname' : 'read loosely'}: ${looseReading(v.written, v.match, v.from)}`}
      </span>
      {item?.resolved ? (
        <span class="muted">{` ${item.resolved}`}</span>
      ) : (
        <span class="actions">
          <PostButton
            action={action}
            csrf={props.csrf}
            label="Not meant: ignore"
            class="danger"
            fields={{ ...base, action: 'correct' }}
          />
          <PickForm
            action={action}
            csrf={props.csrf}
            post={v.post}
            itemKey={key}
            id={`loose-pick-${v.post}`}
            label={`Player ${v.player} meant in post ${v.post}`}
            prompt="Meant…"
            names={(item?.pick ?? []).filter((n) => n !== props.wagon.target)}
            button="Count for them"
          />
        </span>
      )}
    </span>
  );
}

/**
 * The GM's one queue (app/queue.ts): the review items and what the GM's own counts teach and
 * propose (`offers`, answered as in the checks panel), then what the GM's own posts
 * announced (the news part keeps its own anchor, `#news`). The chip counts them all.
 */
export function ReviewQueue(props: {
  items: ReviewItem[];
  news?: GmNews;
  offers?: GmChecks;
  gameId: number;
  csrf: string;
}) {
  const open = props.items.filter((i) => i.resolved === null);
  const others =
    (props.news ? props.news.proposals.length + props.news.unread.length : 0) +
    (props.offers ? countOffers(props.offers) : 0);
  const done = props.items.filter((i) => i.resolved !== null);
  const Item = (p: { item: ReviewItem }) => {
    const it = p.item;
    const href = safeHref(it.permalink);
    const action = `/gm/games/${props.gameId}/review`;
    const base = { post: String(it.post), key: it.key };
    return (
      <li id={`review-${it.key.replace(/[^a-z0-9-]/gi, '-')}`} data-review={it.key}>
        <div>
          <span class="kind">{it.title}</span>
          {' — '}
          {href ? <a href={href} rel="nofollow noopener noreferrer">{`post #${it.post}`}</a> : `post #${it.post}`}
          {it.player ? ` by ${it.player}` : ''}
        </div>
        <div>
          <span class="raw">{it.detail}</span>
        </div>
        {it.candidates.length ? <div class="muted">Could be: {it.candidates.join(' or ')}</div> : null}
        {it.diff ? (
          <figure class="diff" aria-label="Changes between the two versions">
            {it.diff.map((d) =>
              d.op === 'same' ? d.text : d.op === 'del' ? <del>{d.text}</del> : <ins>{d.text}</ins>,
            )}
          </figure>
        ) : null}
        {it.resolved ? (
          <p class="resolved">{it.resolved}</p>
        ) : (
          <div class="actions">
            {it.candidates.map((c) => (
              <PostButton
                action={action}
                csrf={props.csrf}
                label={`Vote for ${c}`}
                fields={{ ...base, action: 'correct', target: c }}
              />
            ))}
            {it.pick.length ? (
              <PickForm
                action={action}
                csrf={props.csrf}
                post={it.post}
                itemKey={it.key}
                id={`pick-${it.post}`}
                label={`Player meant in post ${it.post}`}
                prompt="Choose a player…"
                names={it.pick}
                button="Pick"
              />
            ) : null}
            {it.choices.map((ch) => (
              <PostButton
                action={action}
                csrf={props.csrf}
                label={ch.label}
                class={ch.target === null && ch.action === 'correct' ? 'danger' : 'secondary'}
                fields={{ ...base, action: ch.action, ...(ch.target !== null ? { target: ch.target } : {}) }}
              />
            ))}
          </div>
        )}
      </li>
    );
  };
  return (
    <section class="panel" aria-labelledby="review-h" id="review">
      <h2 id="review-h">
        Review queue {open.length + others ? <span class="chip">{`${open.length + others} open`}</span> : null}
      </h2>
      {open.length + others === 0 ? (
        <p class="muted">Nothing to review.</p>
      ) : (
        <ul class="queue">
          {open.map((i) => (
            <Item item={i} />
          ))}
          {props.offers ? <CountOfferItems gameId={props.gameId} checks={props.offers} csrf={props.csrf} /> : null}
        </ul>
      )}
      {done.length ? (
        <details class="box">
          <summary>{`Settled (${done.length})`}</summary>
          <ul class="queue">
            {done.map((i) => (
              <Item item={i} />
            ))}
          </ul>
        </details>
      ) : null}
      {props.news ? <GmNewsPanel gameId={props.gameId} news={props.news} csrf={props.csrf} /> : null}
    </section>
  );
}

/** What every event form of the panel shares: where it posts, the session's token, the players, the post read. */
interface EventForms {
  action: string;
  csrf: string;
  players: string[];
  /** The count's last post: an event is placed after it unless the GM says otherwise. */
  asOfPost: number;
}

function PlayerSelect(p: { f: EventForms; id: string; name: string; label: string; extra?: string[] }) {
  return (
    <div>
      <label for={p.id}>{p.label}</label>
      <select id={p.id} name={p.name}>
        {[...(p.extra ?? []), ...p.f.players].map((n) => (
          <option value={n}>{n}</option>
        ))}
      </select>
    </div>
  );
}

function AtField(p: { f: EventForms; id: string }) {
  return (
    <div>
      <label for={p.id}>After post</label>
      <input id={p.id} name="at" type="number" min="0" value={String(p.f.asOfPost)} />
    </div>
  );
}

/** Every event form posts to the same place with the CSRF token and, unless it asks, one fixed kind. */
function EventForm(p: { f: EventForms; kind?: string; submit?: string; children?: unknown }) {
  return (
    <form method="post" action={p.f.action}>
      <Csrf token={p.f.csrf} />
      {p.kind ? <input type="hidden" name="kind" value={p.kind} /> : null}
      {p.children}
      <div class="actions">
        <button type="submit">{p.submit ?? 'Record'}</button>
      </div>
    </form>
  );
}

function LifeEventForm({ f }: { f: EventForms }) {
  return (
    <details class="box">
      <summary>Kill, revive, modkill</summary>
      <EventForm f={f}>
        <div class="row">
          <div>
            <label for="life-kind">Event</label>
            <select id="life-kind" name="kind">
              <option value="kill">kill</option>
              <option value="revive">revive</option>
              <option value="modkill">modkill</option>
            </select>
          </div>
          <PlayerSelect f={f} id="life-player" name="player" label="Player" />
          <AtField f={f} id="life-at" />
        </div>
      </EventForm>
    </details>
  );
}

function ReplacementForm({ f }: { f: EventForms }) {
  return (
    <details class="box">
      <summary>Replacement</summary>
      <EventForm f={f} kind="replace">
        <div class="row">
          <PlayerSelect f={f} id="rep-player" name="player" label="Player leaving" />
          <div>
            <label for="rep-by">Replaced by</label>
            <input id="rep-by" name="by" type="text" required />
          </div>
          <AtField f={f} id="rep-at" />
        </div>
      </EventForm>
    </details>
  );
}

function WeightForm({ f }: { f: EventForms }) {
  return (
    <details class="box">
      <summary>Vote weight</summary>
      <EventForm f={f} kind="weight">
        <div class="row">
          <PlayerSelect f={f} id="w-player" name="player" label="Player" />
          <div>
            <label for="w-weight">Weight</label>
            <input id="w-weight" name="weight" type="number" step="0.5" value="2" />
          </div>
          <AtField f={f} id="w-at" />
        </div>
        <label class="check">
          <input type="checkbox" name="hidden" value="1" /> Hidden from players
        </label>
      </EventForm>
    </details>
  );
}

function ManualVoteForm({ f }: { f: EventForms }) {
  return (
    <details class="box">
      <summary>Manual vote (hidden-vote games)</summary>
      <EventForm f={f} kind="vote">
        <div class="row">
          <PlayerSelect f={f} id="v-player" name="player" label="Voter" />
          <PlayerSelect f={f} id="v-target" name="target" label="Votes for" extra={['(unvote)']} />
          <AtField f={f} id="v-at" />
        </div>
        <label class="check">
          <input type="checkbox" name="hidden" value="1" /> Voter not published
        </label>
      </EventForm>
    </details>
  );
}

/** The judge's or tie decision, offered with the count's leaders. */
function DecisionForm(props: { f: EventForms; tally: Tally | null }) {
  return (
    <details class="box">
      <summary>Judge or tie decision</summary>
      <EventForm f={props.f} kind="decide">
        <label for="d-elim">Eliminated (comma-separated; empty: nobody)</label>
        <input id="d-elim" name="eliminated" type="text" value={(props.tally?.outcome.leaders ?? []).join(', ')} />
        <AtField f={props.f} id="d-at" />
      </EventForm>
    </details>
  );
}

/** The Day ended (with what the ruleset would make of it now) or the next one started. */
function DayForms(props: { f: EventForms; game: Game; tally: Tally | null }) {
  const f = props.f;
  return (
    <details class="box">
      <summary>End the Day / start the next</summary>
      {props.tally ? (
        <p class="notice" id="day-end-preview">
          {`If the Day ends now: ${dayEndPreview(props.tally, gameRuleset(props.game))}`}
        </p>
      ) : null}
      <EventForm f={f} kind="day-end" submit="End the Day">
        <AtField f={f} id="de-at" />
      </EventForm>
      <EventForm f={f} kind="day-start" submit="Start the Day">
        <div class="row">
          <div>
            <label for="ds-day">Day</label>
            <input id="ds-day" name="day" type="number" min="1" value={String((props.tally?.day ?? 0) + 1)} />
          </div>
          <AtField f={f} id="ds-at" />
        </div>
      </EventForm>
    </details>
  );
}

/** The events the GM recorded, oldest first, with who and when. */
function RecordedEvents(props: { events: StoredGmEvent[] }) {
  if (props.events.length === 0) return <p class="muted">None yet.</p>;
  return (
    <ol class="changes">
      {props.events.map((e) => (
        <li>
          {describeEvent(e.event)}{' '}
          <span class="muted">
            — {e.createdBy}, <LocalTime iso={e.createdAt} />
          </span>
        </li>
      ))}
    </ol>
  );
}

export function EventsPanel(props: { game: Game; tally: Tally | null; events: StoredGmEvent[]; csrf: string }) {
  const f: EventForms = {
    action: `/gm/games/${props.game.id}/events`,
    csrf: props.csrf,
    players: props.game.roster.map((s) => s.name),
    asOfPost: props.tally?.asOfPost ?? 0,
  };
  return (
    <section class="panel" aria-labelledby="events-h">
      <h2 id="events-h">GM events</h2>
      <LifeEventForm f={f} />
      <ReplacementForm f={f} />
      <WeightForm f={f} />
      <ManualVoteForm f={f} />
      <DecisionForm f={f} tally={props.tally} />
      <DayForms f={f} game={props.game} tally={props.tally} />
      <h3>Recorded</h3>
      <RecordedEvents events={props.events} />
    </section>
  );
}

export function DraftsPanel(props: {
  game: Game;
  drafts: Draft[];
  publications: Map<number, Publication>;
  csrf: string;
}) {
  const pending = props.drafts.filter((d) => d.status === 'pending' || d.status === 'approved');
  const published = props.drafts.filter((d) => d.status === 'published');
  return (
    <section class="panel" aria-labelledby="drafts-h">
      <h2 id="drafts-h">Votal drafts</h2>
      <PostButton
        action={`/gm/games/${props.game.id}/drafts`}
        csrf={props.csrf}
        label="Draft a votal from the current count"
        class="secondary"
      />
      {pending.length === 0 ? (
        <p class="muted">No draft waiting.</p>
      ) : (
        <ul class="games">
          {pending.map((d) => (
            <li>
              <a href={`/gm/drafts/${d.id}`}>{`Draft #${d.id}`}</a> <span class="chip">{d.status}</span>{' '}
              <span class="muted">
                <LocalTime iso={d.createdAt} /> by {d.createdBy}
              </span>
              {props.publications.get(d.id)?.lastError ? (
                <div class="notice error">{props.publications.get(d.id)!.lastError}</div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <h3>Published</h3>
      {published.length === 0 ? (
        <p class="muted">Nothing published yet.</p>
      ) : (
        <ul class="games">
          {published.map((d) => {
            const pub = props.publications.get(d.id);
            const href = safeHref(pub?.remoteUrl ?? null);
            return (
              <li>
                <a href={`/gm/drafts/${d.id}`}>{`Votal #${d.id}`}</a>{' '}
                {pub?.publishedAt ? (
                  <span class="muted">
                    <LocalTime iso={pub.publishedAt} />
                  </span>
                ) : null}{' '}
                {href ? (
                  <a href={href} rel="nofollow noopener noreferrer">
                    on the forum
                  </a>
                ) : pub?.method === 'copy' ? (
                  <span class="muted">(copied)</span>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** Who is alive and who is dead as the count knows it (kills, revives, replacements, rule deaths). */
export function PlayersPanel(props: { game: Game; tally: Tally | null; events: StoredGmEvent[] }) {
  const players = playersNow(
    props.game.roster,
    props.events.map((e) => e.event),
    props.tally,
  );
  const alive = players.filter((p) => p.alive);
  const dead = players.filter((p) => !p.alive);
  const chip = (p: (typeof players)[number]) => (
    <li>
      <span class="chip">{p.name}</span>
      {p.formerNames.length ? <span class="muted">{` (replaced ${p.formerNames.join(', ')})`}</span> : null}
    </li>
  );
  return (
    <section class="panel" aria-labelledby="players-h">
      <h2 id="players-h">Players</h2>
      <h3 id="alive-h">{`Alive (${alive.length})`}</h3>
      <ul class="voters" aria-labelledby="alive-h">
        {alive.map(chip)}
      </ul>
      <h3 id="dead-h">{`Dead (${dead.length})`}</h3>
      {dead.length ? (
        <ul class="voters" aria-labelledby="dead-h">
          {dead.map(chip)}
        </ul>
      ) : (
        <p class="muted">Nobody yet.</p>
      )}
      <p>
        <a href={`/gm/games/${props.game.id}/settings#players`}>Edit players</a>
      </p>
    </section>
  );
}

/**
 * The posts that vote or act whose time could not be read, where clock rules could apply:
 * the GM checks each on the forum (before or after the deadline, the Hammer check?).
 */
export function UntimedNotice(props: { untimed: Tally['untimed'] }) {
  const list = props.untimed ?? [];
  if (!list.length) return null;
  return (
    <div class="notice error" role="alert" data-untimed>
      <p>
        <strong>{`Times not read (${list.length}):`}</strong> the clock cannot judge these posts; check each on the
        forum.
      </p>
      <ul>
        {list.map((u) => {
          const href = safeHref(u.permalink);
          return (
            <li data-untimed-post={String(u.post)}>
              {href ? <a href={href} rel="nofollow noopener noreferrer">{`#${u.post}`}</a> : `#${u.post}`}
              {` ${u.player}: ${untimedReason(u.post)}`}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
