import type { GameNickname } from '../../app/nicknames.js';
import { PostButton } from './layout.js';

/**
 * The nicknames this game knows from earlier games on its site (the forum's nickname book):
 * each read as its player and shown as such in the count, never as exact. The GM drops one
 * for this game with one click (the book keeps it for other games).
 */
export function KnownNicknamesPanel(props: { gameId: number; nicknames: readonly GameNickname[]; csrf: string }) {
  if (props.nicknames.length === 0) return null;
  const action = `/gm/games/${props.gameId}/nicknames/drop`;
  return (
    <section class="panel" id="nicknames" aria-labelledby="nicknames-h">
      <h2 id="nicknames-h">{`Nicknames known from earlier games (${props.nicknames.length})`}</h2>
      <p class="muted">
        Votes written so are read as the player and shown in the count; a name another player's could be goes to review.
        The forum's whole book is on the <a href="/gm/nicknames">Nicknames</a> page.
      </p>
      <ul class="queue">
        {props.nicknames.map((n) => (
          <li data-nickname={`${n.player}:${n.nickname}`}>
            <div>{`"${n.nickname}" → ${n.player} (nickname from game '${n.from}')`}</div>
            <div class="actions">
              <PostButton
                action={action}
                csrf={props.csrf}
                label="Drop for this game"
                class="secondary"
                fields={{ player: n.player, nickname: n.nickname }}
              />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
