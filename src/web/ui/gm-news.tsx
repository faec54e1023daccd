import type { GmEvent } from '../../model/event.js';
import type { GmNews } from '../../game/gm-news.js';
import { describeEvent } from './describe-event.js';
import { PostButton } from './layout.js';
import { safeHref } from './safe-url.js';

/** The form fields that record a proposed event through the GM events form. */
function eventFields(e: GmEvent): Record<string, string> {
  const f: Record<string, string> = { kind: e.kind };
  if ('at' in e && e.at !== undefined) f['at'] = String(e.at);
  if ('player' in e && typeof e.player === 'string') f['player'] = e.player;
  if (e.kind === 'replace') f['by'] = e.by;
  if (e.kind === 'day-start') f['day'] = String(e.day);
  if (e.kind === 'deadline') {
    f['time'] = e.time;
    if (e.day !== undefined) f['day'] = String(e.day);
  }
  return f;
}

/**
 * What the GM's posts announced and the game does not hold yet: one click records it,
 * another dismisses it. Sentences shaped like news that Votal could not read are listed
 * with the reason, so nothing the GM wrote is passed over silently.
 */
export function GmNewsPanel(props: { gameId: number; news: GmNews; csrf: string }) {
  const { proposals, unread, gms } = props.news;
  if (proposals.length === 0 && unread.length === 0) return null;
  const events = `/gm/games/${props.gameId}/events`;
  const dismiss = `/gm/games/${props.gameId}/news`;
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
              {p.flip ? ` (flipped ${p.flip})` : ''}
              <div class="muted">
                {href ? <a href={href} rel="nofollow noopener noreferrer">{`Post ${p.post}`}</a> : `Post ${p.post}`}:{' '}
                <q>{p.sentence}</q>
              </div>
              <div class="actions">
                <PostButton action={events} csrf={props.csrf} label="Record" fields={eventFields(p.event)} />
                <PostButton
                  action={dismiss}
                  csrf={props.csrf}
                  label="Dismiss"
                  class="secondary"
                  fields={{ key: p.key }}
                />
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
                <PostButton
                  action={dismiss}
                  csrf={props.csrf}
                  label="Dismiss"
                  class="secondary"
                  fields={{ key: u.key }}
                />
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
