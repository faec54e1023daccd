import type {
  CheckAnswer,
  CheckDifference,
  CountLesson,
  DeathProposal,
  GmChecks,
  ThresholdProposal,
} from '../../model/gm-count.js';
import { MAX_COUNT_LINES } from '../../parse/gm-count.js';
import { AnswerButtons, DISMISS_ANSWER, type ItemAnswer } from './answer-buttons.js';
import { PostButton } from './layout.js';
import { safeHref } from './safe-url.js';

/** A difference's three answers. */
const DIFFERENCE_ANSWERS: readonly ItemAnswer[] = [
  { label: 'My slip', answer: 'slip' },
  { label: "Votal's error", answer: 'votal-error', class: 'secondary' },
  DISMISS_ANSWER,
];

const MARKED: Record<CheckAnswer, string> = {
  slip: 'Marked: my slip',
  'votal-error': "Marked: Votal's error",
  dismiss: 'Dismissed',
};

/** A post link (the forum's permalink where it is known). */
function PostLink(props: { post: number; permalink: string | null }) {
  const href = props.permalink ? safeHref(props.permalink) : null;
  return href ? <a href={href} rel="nofollow noopener noreferrer">{`#${props.post}`}</a> : `#${props.post}`;
}

/**
 * The GM's own vote counts checked against Votal's, on the GM's game page only: each
 * difference with the posts that decide it, and the GM's three answers. Nothing is posted
 * and the count does not change; "Votal's error" offers the correction of the deciding post
 * (the review path), which the GM makes or not.
 */
export function GmChecksPanel(props: { gameId: number; checks: GmChecks; players: readonly string[]; csrf: string }) {
  // A count cut at the reader's bound is shown even without differences: it was not all compared.
  const counts = props.checks.counts.filter((c) => c.differences.length > 0 || c.linesNotRead > 0);
  const agreeing = props.checks.counts.length - counts.length;
  if (props.checks.counts.length === 0) return null;
  const action = `/gm/games/${props.gameId}/checks`;
  const open = counts.reduce((n, c) => n + c.differences.filter((d) => d.answer === null).length, 0);
  const Difference = (p: { d: CheckDifference }) => {
    const d = p.d;
    // The correction the GM's count implies for the deciding post: a vote for the GM's target, or none.
    const first = d.posts[0];
    const target =
      d.gm && props.players.includes(d.gm) ? d.gm : d.gm === 'not voting' || d.gm === 'nowhere' ? null : undefined;
    return (
      <li data-check={d.key}>
        <div>{d.text}</div>
        {d.posts.length ? (
          <div class="muted">
            Deciding post{d.posts.length === 1 ? '' : 's'}:{' '}
            {d.posts.map((x, i) => (
              <>
                {i ? ', ' : ''}
                <PostLink post={x.post} permalink={x.permalink} />
              </>
            ))}
          </div>
        ) : null}
        {d.answer ? <p class="resolved">{MARKED[d.answer]}</p> : null}
        <div class="actions">
          {d.answer === null ? (
            <AnswerButtons action={action} csrf={props.csrf} itemKey={d.key} answers={DIFFERENCE_ANSWERS} />
          ) : d.answer === 'votal-error' && first && target !== undefined ? (
            <PostButton
              action={`/gm/games/${props.gameId}/review`}
              csrf={props.csrf}
              label={
                target ? `Count post #${first.post} as a vote for ${target}` : `Ignore the vote in post #${first.post}`
              }
              class="danger"
              fields={{
                post: String(first.post),
                key: `check:${d.key}`,
                action: 'correct',
                ...(target ? { target } : {}),
              }}
            />
          ) : null}
        </div>
      </li>
    );
  };
  return (
    <section class="panel" aria-labelledby="checks-h" id="checks">
      <h2 id="checks-h">{`Your vote counts, checked (${open})`}</h2>
      <p class="muted">
        {`${props.checks.counts.length} of your count${props.checks.counts.length === 1 ? '' : 's'} compared with Votal's; ${agreeing} agree${agreeing === 1 ? 's' : ''}.`}
        {props.checks.ownVotals.length
          ? ` Votal's own votals you posted (not checked): ${props.checks.ownVotals.map((n) => `#${n}`).join(', ')}.`
          : ''}{' '}
        Only you see this; nothing is posted and the count does not change.
      </p>
      <Lessons gameId={props.gameId} lessons={props.checks.lessons} csrf={props.csrf} />
      <ThresholdOffer gameId={props.gameId} proposal={props.checks.thresholdProposal ?? null} csrf={props.csrf} />
      <DeathOffers gameId={props.gameId} proposals={props.checks.deathProposals ?? []} csrf={props.csrf} />
      {counts.map((c) => (
        <div>
          <h3>
            Count at <PostLink post={c.post} permalink={c.permalink} />
            {` — compared with Votal's as at #${c.comparedTo}${c.earlier ? ` (${c.earlier} before the ${c.basis === 'named' ? 'post it names' : 'post before it'})` : ''}`}
          </h3>
          {c.linesNotRead ? (
            <p class="notice error" role="alert">
              {`Only the first ${MAX_COUNT_LINES} lines of this post were read: ${c.linesNotRead} more ${c.linesNotRead === 1 ? 'line was' : 'lines were'} not, and a wagon written there is not compared.`}
            </p>
          ) : null}
          <ul class="queue">
            {c.differences.map((d) => (
              <Difference d={d} />
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}

function acceptLabel(l: CountLesson): string {
  if (l.kind === 'author') return `${l.poster} replaces ${l.slot}`;
  return l.alias ? `Count it for ${l.wagon}, and learn "${l.alias}"` : `Count it for ${l.wagon}`;
}

/** What the GM's counts taught about votes Votal could not read: each counted (and its name learned) with one click. */
function Lessons(props: { gameId: number; lessons: readonly CountLesson[]; csrf: string }) {
  if (props.lessons.length === 0) return null;
  const action = `/gm/games/${props.gameId}/checks/lessons`;
  return (
    <div id="lessons">
      <h3>{`Votes your counts read that Votal could not (${props.lessons.length})`}</h3>
      <ul class="queue">
        {props.lessons.map((l) => (
          <li data-lesson={l.key}>
            <div>{l.text}</div>
            <div class="muted">
              {l.kind === 'name' ? `"${l.raw}" — ` : `${l.poster}'s vote: `}
              <PostLink post={l.post} permalink={l.permalink} />
              {', your count: '}
              <PostLink post={l.countPost} permalink={l.countPermalink} />
            </div>
            <div class="actions">
              <AnswerButtons
                action={action}
                csrf={props.csrf}
                itemKey={l.key}
                answers={[{ label: acceptLabel(l), answer: 'accept' }, DISMISS_ANSWER]}
              />
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The threshold the GM's counts state, set for the game with one click (the ruleset overrides), or dismissed. */
function ThresholdOffer(props: { gameId: number; proposal: ThresholdProposal | null; csrf: string }) {
  const p = props.proposal;
  if (!p) return null;
  return (
    <div class="notice" id="threshold-proposal" data-threshold-proposal={p.key}>
      <p>{p.text}</p>
      <p class="muted">{`The game's ruleset overrides it sets: ${JSON.stringify(p.overrides)}`}</p>
      <div class="actions">
        <AnswerButtons
          action={`/gm/games/${props.gameId}/checks/threshold`}
          csrf={props.csrf}
          itemKey={p.key}
          answers={[{ label: "Set the game's threshold so", answer: 'accept' }, DISMISS_ANSWER]}
        />
      </div>
    </div>
  );
}

/** Deaths the counts' alive counts imply: one player, recorded with one click; several, a note to dismiss. */
function DeathOffers(props: { gameId: number; proposals: readonly DeathProposal[]; csrf: string }) {
  if (props.proposals.length === 0) return null;
  return (
    <div id="death-proposals">
      <h3>{`Deaths your counts imply (${props.proposals.length})`}</h3>
      <ul class="queue">
        {props.proposals.map((p) => (
          <li data-death-proposal={p.key}>
            <div>{p.text}</div>
            <div class="muted">
              {'Your count'}
              {p.posts.length === 1 ? ': ' : 's: '}
              <PostLink post={p.countPost} permalink={p.permalink} />
              {p.posts.length > 1
                ? `, ${p.posts
                    .slice(1)
                    .map((n) => `#${n}`)
                    .join(', ')}`
                : ''}
            </div>
            <div class="actions">
              <AnswerButtons
                action={`/gm/games/${props.gameId}/checks/deaths`}
                csrf={props.csrf}
                itemKey={p.key}
                answers={
                  p.player
                    ? [{ label: `Record ${p.player}'s death (after #${p.at})`, answer: 'record' }, DISMISS_ANSWER]
                    : [DISMISS_ANSWER]
                }
              />
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * What the GM's counts teach and propose, as items of the GM's one queue (the review queue
 * panel; app/queue.ts lists the same): each with the answers of its place in the checks
 * panel, posting to the same routes.
 */
export function CountOfferItems(props: { gameId: number; checks: GmChecks; csrf: string }) {
  const base = `/gm/games/${props.gameId}/checks`;
  const t = props.checks.thresholdProposal ?? null;
  const Item = (p: { kind: string; data: string; text: string; action: string; answers: readonly ItemAnswer[] }) => (
    <li data-count-offer={p.data}>
      <div>
        <span class="kind">{p.kind}</span>
        {' — '}
        <a href="#checks">your vote counts</a>
      </div>
      <div>{p.text}</div>
      <div class="actions">
        <AnswerButtons action={p.action} csrf={props.csrf} itemKey={p.data} answers={p.answers} />
      </div>
    </li>
  );
  return (
    <>
      {props.checks.lessons.map((l) => (
        <Item
          kind="A vote your count read"
          data={l.key}
          text={l.text}
          action={`${base}/lessons`}
          answers={[{ label: acceptLabel(l), answer: 'accept' }, DISMISS_ANSWER]}
        />
      ))}
      {t ? (
        <Item
          kind="The threshold your counts state"
          data={t.key}
          text={t.text}
          action={`${base}/threshold`}
          answers={[{ label: "Set the game's threshold so", answer: 'accept' }, DISMISS_ANSWER]}
        />
      ) : null}
      {(props.checks.deathProposals ?? []).map((p) => (
        <Item
          kind="A death your count implies"
          data={p.key}
          text={p.text}
          action={`${base}/deaths`}
          answers={
            p.player
              ? [{ label: `Record ${p.player}'s death (after #${p.at})`, answer: 'record' }, DISMISS_ANSWER]
              : [DISMISS_ANSWER]
          }
        />
      ))}
    </>
  );
}

/** How many items `CountOfferItems` lists. */
export function countOffers(checks: GmChecks): number {
  return checks.lessons.length + (checks.thresholdProposal ? 1 : 0) + (checks.deathProposals ?? []).length;
}
