import { Hono } from 'hono';
import { deleteGame } from '../../../app/games.js';
import type { Game } from '../../../model/game.js';
import { refusalOf } from '../../errors.js';
import { titleOf } from '../game-data.js';
import { Csrf, GmNav, Layout, Notice } from '../layout.js';
import { field, gameOf, notFound, sessionFlash, type DashboardDeps, type UiEnv } from '../dashboard.js';

/** The confirmation step before a game is deleted: the GM types the game's short name. */
function DeleteGamePage(props: { csrf: string; game: Game; title: string; error?: string | null }) {
  const g = props.game;
  return (
    <Layout title={`Delete ${props.title} — Votal`} nav={<GmNav csrf={props.csrf} />}>
      <p>
        <a href={`/gm/games/${g.id}/settings`}>{`← Settings of ${props.title}`}</a>
      </p>
      <h1>{`Delete “${props.title}”?`}</h1>
      <Notice error={props.error ?? null} />
      <form method="post" action={`/gm/games/${g.id}/delete`} class="panel">
        <Csrf token={props.csrf} />
        <p>{`This deletes the game “${props.title}” (${g.threadUrl}) and everything Votal keeps of it: posts and their edits, GM events, counts, drafts, published votals' records and the activity log. It cannot be undone. Archive it instead to keep it.`}</p>
        <label for="confirm">{`Type the game's short name, ${g.slug}, to confirm`}</label>
        <input id="confirm" name="confirm" type="text" autocomplete="off" required />
        <div class="actions">
          <button type="submit" class="danger">
            Delete this game and all its data
          </button>
        </div>
      </form>
    </Layout>
  );
}

/** `GET/POST /gm/games/:id/delete`: the owner or the admin, after typing the game's slug. */
export function deleteGameRoutes(deps: DashboardDeps): Hono<UiEnv> {
  const { store, commands } = deps;
  const { flashOf, back } = sessionFlash(deps.flashes);
  const app = new Hono<UiEnv>();

  app.get('/gm/games/:id/delete', async (c) => {
    const game = await gameOf(store, c);
    if (!game) return notFound(c);
    const poll = await store.polls.get(game.id);
    const flash = flashOf(c);
    const title = titleOf(game, poll);
    const csrf = c.get('session').csrf;
    return c.html(<DeleteGamePage csrf={csrf} game={game} title={title} error={flash.error ?? null} />);
  });

  app.post('/gm/games/:id/delete', async (c) => {
    const game = await gameOf(store, c);
    if (!game) return notFound(c);
    const title = titleOf(game, await store.polls.get(game.id));
    const form = await c.req.parseBody();
    const confirm = field(form, 'confirm');
    if (confirm !== game.slug) {
      return back(c, `/gm/games/${game.id}/delete`, { error: `Nothing was deleted: type ${game.slug} to confirm.` });
    }
    try {
      await deleteGame(commands, c.get('actor'), game.id, confirm);
    } catch (error) {
      return back(c, `/gm/games/${game.id}/delete`, { error: refusalOf(error) });
    }
    return back(c, '/gm', { message: `“${title}” and all its data were deleted.` });
  });

  return app;
}
