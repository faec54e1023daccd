import { Hono } from 'hono';
import { forgetNickname, forumBooks, type BookPage, type SiteBook } from '../../../app/forum-book.js';
import { refusalOf } from '../../errors.js';
import { bookReaderOf } from '../../gm-access.js';
import { field, sessionFlash, type DashboardDeps, type UiEnv } from '../dashboard.js';
import type { Flash } from '../flash.js';
import { GmNav, Layout, LocalTime, Notice, PostButton } from '../layout.js';

/**
 * `/gm/nicknames`: the forum's nickname book, each site the GM runs a game on (every site for
 * the admin): every nickname with the game it came from and the games that read it now, and
 * "Forget" (src/app/forum-book.ts): gone from the book for every game of the forum, audited,
 * and the games that read it are counted again. Another GM's nickname is shown without theirs
 * to forget; a game's own page drops it for that game.
 */

function NicknameRow(props: { site: string; page: BookPage; csrf: string }) {
  const n = props.page;
  const from = n.fromGame !== null ? <a href={`/gm/games/${n.fromGame}`}>{n.fromTitle}</a> : n.fromTitle;
  return (
    <tr data-nickname={`${n.forumName}:${n.nickname}`}>
      <th scope="row">{`"${n.nickname}" → ${n.forumName}`}</th>
      <td>
        {from}
        {n.learnedBy ? ` (by ${n.learnedBy}, ` : ' ('}
        <LocalTime iso={n.learnedAt} />)
      </td>
      <td>
        {n.readIn.length === 0
          ? 'no game reads it now'
          : n.readIn.map((g, i) => (
              <>
                {i > 0 ? ', ' : ''}
                <a href={`/gm/games/${g.id}`}>{g.title}</a>
              </>
            ))}
      </td>
      <td>
        {n.forgettable ? (
          <PostButton
            action="/gm/nicknames/forget"
            csrf={props.csrf}
            label="Forget"
            class="danger"
            title="Gone from the book for every game of this forum; the games that read it are counted again"
            fields={{ site: props.site, forumName: n.forumName, nickname: n.nickname }}
          />
        ) : (
          <span class="muted">another GM's: drop it on your game's page</span>
        )}
      </td>
    </tr>
  );
}

function SiteSection(props: { book: SiteBook; csrf: string }) {
  const { site, nicknames } = props.book;
  const id = `site-${site.replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section class="panel" aria-labelledby={id} data-site={site}>
      <h2 id={id}>{`${site} (${nicknames.length})`}</h2>
      {nicknames.length === 0 ? (
        <p class="muted">No nicknames learned on this forum yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Nickname → forum name</th>
              <th scope="col">Learned in</th>
              <th scope="col">Read now in</th>
              <th scope="col"></th>
            </tr>
          </thead>
          <tbody>
            {nicknames.map((n) => (
              <NicknameRow site={site} page={n} csrf={props.csrf} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function BookPageView(props: { books: SiteBook[]; csrf: string; flash: Flash }) {
  return (
    <Layout title="Nickname book — Votal" nav={<GmNav csrf={props.csrf} />}>
      <h1>Nickname book</h1>
      <Notice message={props.flash.message ?? null} error={props.flash.error ?? null} />
      <p class="hint">
        A nickname a GM accepted or typed for a player is read as that player in every later game on the same forum, and
        shown as such in the count. Forgetting one takes it out for every game of the forum.
      </p>
      {props.books.length === 0 ? <p>No forum yet: add a game first.</p> : null}
      {props.books.map((b) => (
        <SiteSection book={b} csrf={props.csrf} />
      ))}
    </Layout>
  );
}

/** `GET /gm/nicknames`, `POST /gm/nicknames/forget`. */
export function nicknameBookRoutes(deps: DashboardDeps): Hono<UiEnv> {
  const { store, commands } = deps;
  const { flashOf, back } = sessionFlash(deps.flashes);
  const app = new Hono<UiEnv>();

  app.get('/gm/nicknames', async (c) => {
    const reader = await bookReaderOf(store.gms, c.get('gm'));
    const books = await forumBooks(commands, reader);
    return c.html(<BookPageView books={books} csrf={c.get('session').csrf} flash={flashOf(c)} />);
  });

  app.post('/gm/nicknames/forget', async (c) => {
    const form = await c.req.parseBody();
    const reader = await bookReaderOf(store.gms, c.get('gm'));
    const given = { site: field(form, 'site'), forumName: field(form, 'forumName'), nickname: field(form, 'nickname') };
    try {
      const r = await forgetNickname(commands, c.get('actor'), reader, given);
      const games =
        r.games.length === 0
          ? ''
          : `; counted again: ${r.games.map((g) => (g.status === 'active' ? g.title : `${g.title} (${g.status}: from its next poll)`)).join(', ')}`;
      return back(c, '/gm/nicknames', {
        message: `"${r.forgotten.nickname}" is no longer read as ${r.forgotten.forumName} on ${r.forgotten.site}${games}.`,
      });
    } catch (error) {
      return back(c, '/gm/nicknames', { error: refusalOf(error) });
    }
  });

  return app;
}
