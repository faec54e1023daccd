import type { GmNews } from '../../game/gm-news.js';
import type { GmProposal } from '../../parse/gm-posts.js';
import { describeEvent } from './describe-event.js';
import { AnswerButtons, DISMISS_ANSWER, type ItemAnswer } from './answer-buttons.js';
import { safeHref } from './safe-url.js';

const CAUSES: Record<string, string> = {
  lynch: 'lynch',
  'night-kill': 'night kill',
  'day-kill': 'day kill',
  modkill: 'mod-kill',
  kill: 'death, kind not said',
};

/** A proposal's answers: recorded, it becomes its event. */
const PROPOSAL_ANSWERS: readonly ItemAnswer[] = [{ label: 'Record', answer: 'record' }, DISMISS_ANSWER];

/** What a proposal says beside its event: the kind of death and its Night or Day, a Night's number, a group. */
function proposalNotes(p: GmProposal): string[] {
  const notes: string[] = [];
  const when = p.phase ? `${p.phase.kind === 'night' ? 'Night' : 'Day'} ${p.phase.number}` : null;
  if (p.cause) notes.push(when ? `${CAUSES[p.cause]}, ${when}` : CAUSES[p.cause]!);
  else if (p.event.kind === 'day-end' && when) notes.push(`${when} starts`);
  if (p.flip) notes.push(`flipped ${p.flip}`);
  if (p.group) notes.push(`playing as a group: ${p.group}`);
  for (const r of p.readAs ?? []) notes.push(`"${r.written}" read as ${r.as} (${r.match})`);
  return notes;
}

/**
 * What the GM's posts announced and the game does not hold yet: one click records it,
 * another dismisses it. Sentences shaped like news that Votal could not read are listed
 * with the reason, so nothing the GM wrote is passed over silently.
 */
export function GmNewsPanel(props: { gameId: number; news: GmNews; csrf: string }) {
  const { proposals, unread, gms } = props.news;
  if (proposals.length === 0 && unread.length === 0) return null;
  const answer = `/gm/games/${props.gameId}/news`;
  return (
    <section class="panel" aria-labelledby="news-h" id="news">
      <h2 id="news-h">{`From the GM's posts (${proposals.length + unread.length})`}</h2>
      <p class="muted">{`Read in the posts of ${gms.join(', ')}. Nothing is applied until you record it.`}</p>
      <ul class="queue">
        {proposals.map((p) => {
          const href = p.permalink ? safeHref(p.permalink) : null;
          return (
            <li>
              <strong>{describeEvent(p.event)}</strong>
              {proposalNotes(p).length > 0 ? ` (${proposalNotes(p).join('; ')})` : ''}
              <div class="muted">
                {href ? <a href={href} rel="nofollow noopener noreferrer">{`Post ${p.post}`}</a> : `Post ${p.post}`}:{' '}
                <q>{p.sentence}</q>
              </div>
              <div class="actions">
                <AnswerButtons action={answer} csrf={props.csrf} itemKey={p.key} answers={PROPOSAL_ANSWERS} />
              </div>
            </li>
          );
        })}
        {unread.map((u) => {
          const href = u.permalink ? safeHref(u.permalink) : null;
          return (
            <li>
              <strong>Not read:</strong> {u.reason}
              <div class="muted">
                {href ? <a href={href} rel="nofollow noopener noreferrer">{`Post ${u.post}`}</a> : `Post ${u.post}`}:{' '}
                <q>{u.sentence}</q>
              </div>
              <div class="actions">
                <AnswerButtons action={answer} csrf={props.csrf} itemKey={u.key} answers={[DISMISS_ANSWER]} />
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
