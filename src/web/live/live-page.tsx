import { raw } from 'hono/html';
import { livingNow, type Tally, type Voter, type Wagon } from '../../model/tally.js';
import { outcomeLine } from '../../votal/votal-lines.js';
import type { Freshness } from '../freshness.js';
import { TimelineChart } from '../ui/chart.js';
import type { LiveData } from '../ui/game-data.js';
import { Layout, LocalTime } from '../ui/layout.js';
import { safeHref } from '../ui/safe-url.js';
import { formatInZone } from '../ui/time-zone.js';
import { changeText } from '../ui/timeline.js';

/**
 * The players' live tally page (`/g/:slug`): public, read-only. Everything inside
 * `#live` is also served alone as a fragment (`/g/:slug/fragment`) that live.js swaps in
 * when the server says the game changed.
 */

export function thresholdText(t: Tally): string {
  const alive = `${t.living} alive`;
  if (t.threshold.votes === null) return `${alive} — most votes at the deadline`;
  return t.threshold.kind === 'majority'
    ? `${alive} — majority ${t.threshold.votes}`
    : `${alive} — ${t.threshold.votes} to decide`;
}

function wagonState(w: Wagon): 'majority' | 'l1' | null {
  if (w.toThreshold === null) return null;
  if (w.toThreshold <= 0) return 'majority';
  return w.toThreshold === 1 ? 'l1' : null;
}

/** The Day's decision in words (the votal's own line); null while the Day is open. */
export function outcomeText(t: Tally): string | null {
  return t.outcome.status === 'open' ? null : outcomeLine(t);
}

/** "Bob (#12)" linking to the post of the vote. */
function VoterLink(props: { player: string; post: number; permalink: string | null; weight: number }) {
  const href = safeHref(props.permalink);
  const label = `${props.player}${props.weight !== 1 ? ` ×${props.weight}` : ''}`;
  return href ? (
    <a href={href} rel="nofollow noopener noreferrer">
      {label}
    </a>
  ) : (
    <span>{label}</span>
  );
}

/**
 * The wagons; `voterNote` adds a note after a voter (the GM's page: a name read loosely,
 * with its correction). The live page passes none: how a name was read is the GM's.
 */
export function WagonsTable(props: { tally: Tally; id?: string; voterNote?: (v: Voter, w: Wagon) => unknown }) {
  const t = props.tally;
  const caption = `Votes on Day ${t.day} (${thresholdText(t)})`;
  if (t.wagons.length === 0) {
    return (
      <p id={props.id}>
        {t.notes?.includes('votes are published when the Day is decided')
          ? 'Votes are published when the Day is decided.'
          : 'No votes yet.'}
      </p>
    );
  }
  return (
    <table id={props.id} class="wagons">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Player</th>
          <th scope="col" class="num">
            Votes
          </th>
          <th scope="col">Voters</th>
        </tr>
      </thead>
      <tbody>
        {t.wagons.map((w) => {
          const state = wagonState(w);
          return (
            <tr class={state ?? undefined} data-target={w.target}>
              <th scope="row" class="target">
                {w.target}
                {state === 'l1' ? (
                  <span class="marker l1" title="One vote from the threshold">
                    L-1
                  </span>
                ) : null}
                {state === 'majority' ? (
                  <span class="marker majority">{t.threshold.kind === 'majority' ? 'Majority' : 'Reached'}</span>
                ) : null}
              </th>
              <td class="num">
                <strong>{w.total}</strong>
                <span class="muted">{` of ${t.living}`}</span>
                {w.penalty ? <div class="muted">{`incl. ${w.penalty} penalty`}</div> : null}
                {w.cancelled ? <div class="muted">{`${w.cancelled} vetoed`}</div> : null}
                {w.toThreshold !== null && w.toThreshold > 1 ? <div class="muted">{`L-${w.toThreshold}`}</div> : null}
              </td>
              <td>
                <ul class="voters" aria-label={`Voters for ${w.target}`}>
                  {w.voters.map((v) => (
                    <li>
                      <VoterLink player={v.player} post={v.post} permalink={v.permalink} weight={v.weight} />
                      {props.voterNote ? props.voterNote(v, w) : null}
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** The deadline with a live countdown; once the Day is decided (`ended`), the outcome instead: no clock runs past it. */
export function Deadline(props: { deadline: string | null; timeZone: string | null; ended?: string | null }) {
  if (props.ended) return <span class="day-over" data-day-over="">{`Day over. ${props.ended}`}</span>;
  if (!props.deadline) return <span class="muted">No deadline set</span>;
  return (
    <span>
      <span class="countdown" data-countdown={props.deadline} role="timer" aria-live="off">
        …
      </span>
      {' — '}
      <LocalTime iso={props.deadline} />
      {props.timeZone ? (
        <span class="muted">{` (game time: ${formatInZone(props.deadline, props.timeZone)})`}</span>
      ) : null}
    </span>
  );
}

/** "Not updated since ...: why" while the thread cannot be read; when the count was made otherwise. */
function FreshnessNote(props: { freshness: Freshness }) {
  const f = props.freshness;
  if (!f.stale) {
    return f.countedAt ? (
      <p id="freshness" class="muted">
        Counted <LocalTime iso={f.countedAt} />.
      </p>
    ) : null;
  }
  const tries =
    f.failedPolls === 1 ? 'the last read of the thread failed' : `the last ${f.failedPolls} reads of the thread failed`;
  return (
    <p id="freshness" class="notice stale" role="alert">
      <strong>
        {f.lastOkAt ? (
          <>
            Not updated since <LocalTime iso={f.lastOkAt} />
          </>
        ) : (
          'The thread has not been read yet'
        )}
      </strong>
      {`: ${tries}. This count may be behind the thread. Last error: ${f.error ?? 'unknown'}`}
      {f.errorAt ? (
        <>
          {' '}
          (<LocalTime iso={f.errorAt} />)
        </>
      ) : null}
    </p>
  );
}

/** Living players and those who died (the roster's slots no living name belongs to). */
function AliveAndDead(props: { alive: readonly string[]; dead: readonly string[] }) {
  return (
    <section class="panel" aria-labelledby="players-h">
      <h2 id="players-h">Players</h2>
      <h3>{`Alive (${props.alive.length})`}</h3>
      <p id="alive">{props.alive.join(', ') || 'Nobody.'}</p>
      <h3>{`Dead (${props.dead.length})`}</h3>
      <p id="dead">{props.dead.join(', ') || 'Nobody yet.'}</p>
    </section>
  );
}

/** What the live page shows besides the count itself. */
export interface LiveExtras {
  freshness: Freshness;
  dead: readonly string[];
  /** Changes whenever the rendered page would. */
  version: string;
}

/** The updatable part of the live page. */
export function LiveBody(props: { data: LiveData; slug: string; extras: LiveExtras }) {
  const { tally: t, timeline } = props.data;
  const { extras } = props;
  const outcome = outcomeText(t);
  const recent = timeline.changes.slice(-8).reverse();
  const announce = `Vote count updated: ${
    t.wagons
      .slice(0, 3)
      .map((w) => `${w.target} ${w.total}`)
      .join(', ') || 'no votes'
  }.`;
  return (
    <div
      id="live"
      data-version={extras.version}
      data-announce={announce}
      data-stale={extras.freshness.stale ? '1' : undefined}
      data-fragment={`/g/${props.slug}/fragment`}
      data-events={`/g/${props.slug}/events`}
    >
      <ul class="summary" aria-label="Summary">
        <li>
          Day <strong>{t.day}</strong>
        </li>
        <li>
          <strong>{t.living}</strong> alive
        </li>
        <li>
          {t.threshold.votes === null ? (
            <span>Plurality</span>
          ) : (
            <span>
              {t.threshold.kind === 'majority' ? 'Majority' : 'To decide'} <strong>{t.threshold.votes}</strong>
            </span>
          )}
        </li>
        {t.asOfPost !== null ? (
          <li>
            As of post <strong>{t.asOfPost}</strong>
          </li>
        ) : null}
      </ul>
      <FreshnessNote freshness={extras.freshness} />
      {props.data.game.engine === 'generic' ? (
        <p class="notice" role="note" data-generic>
          Votal reads this forum generically (no adapter knows its layout), with the layout the GM checked. Tell the GM
          if a post is missing or read wrong.
        </p>
      ) : null}
      <p>
        Deadline: <Deadline deadline={props.data.deadline} timeZone={props.data.timeZone} ended={outcome} />
      </p>
      {outcome ? (
        <p class="notice" role="status">
          <strong>{outcome}</strong>
        </p>
      ) : null}
      <div class="grid">
        <section class="panel" aria-labelledby="wagons-h">
          <h2 id="wagons-h">Wagons</h2>
          <WagonsTable tally={t} id="wagons" />
          <h3>Not voting ({t.notVoting.length})</h3>
          <p id="not-voting">{t.notVoting.length ? t.notVoting.join(', ') : 'Everybody has voted.'}</p>
          {t.abstaining?.length ? (
            <>
              <h3>Abstaining ({t.abstaining.length})</h3>
              <p>{t.abstaining.join(', ')}</p>
            </>
          ) : null}
          {t.penalties?.length ? (
            <>
              <h3>Penalty votes</h3>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Player</th>
                    <th scope="col" class="num">
                      Penalty votes
                    </th>
                    <th scope="col" class="num">
                      Today
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {t.penalties.map((p) => (
                    <tr>
                      <th scope="row">{p.player}</th>
                      <td class="num">{p.count}</td>
                      <td class="num">{p.today}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          ) : null}
          {t.sideVotes?.length ? (
            <>
              <h3>Side votes</h3>
              <ul>
                {t.sideVotes.map((s) => (
                  <li>{`${s.kind}${s.target ? ` ${s.target}` : ''}: ${s.total}${s.needs !== null ? ` of ${s.needs} needed` : ''}`}</li>
                ))}
              </ul>
            </>
          ) : null}
        </section>
        <section class="panel" aria-labelledby="changes-h">
          <h2 id="changes-h">Recent vote changes</h2>
          {recent.length === 0 ? (
            <p class="muted">None yet.</p>
          ) : (
            <ol class="changes" reversed>
              {recent.map((c) => {
                const href = safeHref(c.permalink);
                const text = changeText(c);
                return (
                  <li>
                    {href ? <a href={href} rel="nofollow noopener noreferrer">{`#${c.post}`}</a> : `#${c.post}`} {text}
                  </li>
                );
              })}
            </ol>
          )}
        </section>
      </div>
      <AliveAndDead alive={livingNow(t)} dead={extras.dead} />
      <section class="panel" aria-labelledby="timeline-h">
        <h2 id="timeline-h">Vote timeline</h2>
        <TimelineChart timeline={timeline} />
      </section>
      {t.notes?.length ? (
        <section class="panel">
          <h2>Notes</h2>
          <ul>
            {t.notes.map((n) => (
              <li>{n}</li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

/** How often the page reloads itself where no script runs (default). */
const NOSCRIPT_REFRESH_SECONDS = 30;

/** The whole live page around `body`, the `LiveBody` already rendered (once per version, shared by every request). */
export function LivePage(props: { data: LiveData; body: string; refreshSeconds?: number }) {
  const { data } = props;
  const refresh = props.refreshSeconds ?? NOSCRIPT_REFRESH_SECONDS;
  const thread = safeHref(data.game.threadUrl);
  return (
    <Layout
      title={`${data.title} — live vote count`}
      scripts={['live.js']}
      head={
        <noscript>
          <meta http-equiv="refresh" content={String(refresh)} />
        </noscript>
      }
    >
      <h1>{data.title}</h1>
      <p>
        <span id="live-status" class="status off">
          Connecting
        </span>{' '}
        <span id="read-progress" class="muted" hidden data-read-progress></span>{' '}
        {thread ? (
          <a href={thread} rel="nofollow noopener noreferrer">
            Game thread
          </a>
        ) : null}
      </p>
      <div id="announce" class="sr-only" role="status" aria-live="polite"></div>
      <noscript>
        <p class="muted">{`Without JavaScript this page reloads itself every ${refresh} seconds.`}</p>
      </noscript>
      {raw(props.body)}
      <footer class="foot">Counted by Votal. The GM's official vote count is the one posted in the thread.</footer>
    </Layout>
  );
}
