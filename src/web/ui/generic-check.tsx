import { Hono } from 'hono';
import { confirmGenericReading, recheckGenericReading } from '../../app/generic.js';
import { switchToAdapter, switchToGeneric, type ReaderChoice } from '../../app/reader-switch.js';
import type { GenericStanding } from '../../game/generic-check.js';
import { refusalOf } from '../errors.js';
import { gameOf, notFound, sessionFlash, type DashboardDeps, type UiEnv } from './dashboard.js';
import { LocalTime, PostButton } from './layout.js';
import { safeHref } from './safe-url.js';

/**
 * The generic reader on the GM's game page (issue #26): while page 1 waits for the GM's
 * check, the three posts to compare with the thread and the button that confirms them (the
 * game is not polled until then, and the panel says so); afterwards, one line saying the
 * count is read generically, with the layout whoever confirmed it.
 */
export function GenericCheckPanel(props: { gameId: number; standing: GenericStanding | null; csrf: string }) {
  const s = props.standing;
  if (!s) return null;
  if (s.state !== 'waiting' || !s.check) {
    return (
      <div class="notice" data-generic={s.state} role="note">
        <p>{`This count is ${s.note}.`}</p>
        {s.state === 'confirmed' ? (
          <p>
            <PostButton
              action={`/gm/games/${props.gameId}/generic/recheck`}
              csrf={props.csrf}
              label="The layout changed: read page 1 again"
              title="Forgets this site's kept layout; page 1 is read generically again for you to check"
            />
          </p>
        ) : null}
      </div>
    );
  }
  const f = s.check.finding;
  const page = safeHref(f.pageUrl);
  return (
    <section class="panel" id="generic-check" aria-labelledby="generic-h" data-generic="waiting">
      <h2 id="generic-h">Check page 1 before this game is polled</h2>
      <p class="notice error" role="alert" data-generic-hold>
        No adapter knows this forum's layout, so Votal read it generically. It is not polled until you check the reading
        once: the posts and the count come after.
      </p>
      <p data-generic-message>
        {`Votal found ${f.posts} post${f.posts === 1 ? '' : 's'} by ${f.authors} author${f.authors === 1 ? '' : 's'} on page ${f.page}`}
        {' — check '}
        {f.samples.length === 3 ? 'three of them' : f.samples.length === 2 ? 'both of them' : 'it'}
        {' against '}
        {page ? (
          <a href={page} rel="nofollow noopener noreferrer">
            the thread
          </a>
        ) : (
          'the thread'
        )}
        {'. Read '}
        <LocalTime iso={s.check.readAt} />.
      </p>
      <table data-generic-samples>
        <thead>
          <tr>
            <th>Post</th>
            <th>Author</th>
            <th>Time</th>
            <th>Starts</th>
          </tr>
        </thead>
        <tbody>
          {f.samples.map((p) => {
            const link = safeHref(p.permalink);
            return (
              <tr data-sample={String(p.number)}>
                <td>
                  {link ? (
                    <a href={link} rel="nofollow noopener noreferrer">
                      {`#${p.number}`}
                    </a>
                  ) : (
                    `#${p.number}`
                  )}
                </td>
                <td>{p.author || '(no author)'}</td>
                <td>{p.postedAt ? <LocalTime iso={p.postedAt} /> : '(no time read)'}</td>
                <td>{p.start || '(no text)'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {f.notes.length ? (
        <ul class="muted">
          {f.notes.map((n) => (
            <li>{n}</li>
          ))}
        </ul>
      ) : null}
      <details>
        <summary>The site profile a confirmation keeps</summary>
        <pre>{f.yaml}</pre>
      </details>
      <div class="actions">
        <PostButton
          action={`/gm/games/${props.gameId}/generic`}
          csrf={props.csrf}
          label="These posts are right: poll the game"
          fields={{ readAt: s.check.readAt }}
        />
        <span class="muted">
          If they are wrong, do not confirm: name the forum's engine in Settings, or write a site profile (
          <code>votal read &lt;url&gt; --generic --write-profile FILE</code>).
        </span>
      </div>
    </section>
  );
}

/**
 * The generic reader offered to the GM (issue #26): the last poll failed because the engine's
 * adapter found no posts where its layout should be, so the GM may have the thread read
 * generically (the check of page 1 comes next); never switched without this button. A game
 * switched so shows the way back to its engine's adapter.
 */
export function ReaderSwitchPanel(props: { gameId: number; choice: ReaderChoice | null; csrf: string }) {
  const c = props.choice;
  if (!c) return null;
  if (c.offer) {
    return (
      <div class="notice" data-reader-offer={c.offer} role="note">
        <p>
          {`Votal's ${c.adapterName ?? c.offer} adapter found no posts on this thread's page: the forum's theme may have moved the landmarks it reads. `}
          Votal can read it generically instead: page 1 is read for you to check three posts before the game is polled
          again (unless this forum's layout was confirmed for a game already). The posts counted so far stay.
        </p>
        <PostButton
          action={`/gm/games/${props.gameId}/generic/switch`}
          csrf={props.csrf}
          label="Read this thread generically"
          title="Switches this game to Votal's generic reader; you check page 1 before it is polled"
        />
      </div>
    );
  }
  if (c.canSwitchBack && c.switchedFrom) {
    return (
      <div class="muted" data-reader-back={c.switchedFrom.engine ?? 'identified'}>
        {`Switched to the generic reader on ${c.switchedFrom.at.slice(0, 10)}. `}
        <PostButton
          action={`/gm/games/${props.gameId}/generic/switch-back`}
          csrf={props.csrf}
          label={c.adapterName ? `Go back to the ${c.adapterName} adapter` : "Go back to the engine's adapter"}
          title="The engine's adapter reads the thread again; the posts counted so far stay"
        />
      </div>
    );
  }
  return null;
}

/**
 * `POST /gm/games/:id/generic`: the GM's check; `.../generic/recheck`: read page 1 again;
 * `.../generic/switch` and `.../generic/switch-back`: the reader offered, and the way back. As through the API.
 */
export function genericCheckRoutes(deps: DashboardDeps): Hono<UiEnv> {
  const { store, commands } = deps;
  const { back } = sessionFlash(deps.flashes);
  const app = new Hono<UiEnv>();
  app.post('/gm/games/:id/generic', async (c) => {
    const game = await gameOf(store, c);
    if (!game) return notFound(c);
    const form = await c.req.parseBody();
    const readAt = typeof form.readAt === 'string' && form.readAt !== '' ? form.readAt : undefined;
    try {
      const r = await confirmGenericReading(commands, c.get('actor'), game.id, readAt ? { readAt } : {});
      return back(c, `/gm/games/${game.id}`, {
        message: `Confirmed: ${r.learned.host}'s layout is kept, and the game is polled now.`,
      });
    } catch (error) {
      return back(c, `/gm/games/${game.id}`, { error: refusalOf(error) });
    }
  });
  app.post('/gm/games/:id/generic/recheck', async (c) => {
    const game = await gameOf(store, c);
    if (!game) return notFound(c);
    try {
      const { held } = await recheckGenericReading(commands, c.get('actor'), game.id);
      const others =
        held.length === 0
          ? ''
          : ` ${held.length} other game${held.length === 1 ? '' : 's'} on this forum read with it wait${held.length === 1 ? 's' : ''} for ${held.length === 1 ? 'its' : 'their'} GM's check too.`;
      return back(c, `/gm/games/${game.id}`, {
        message: `The kept layout is forgotten: page 1 is read again for you to check.${others}`,
      });
    } catch (error) {
      return back(c, `/gm/games/${game.id}`, { error: refusalOf(error) });
    }
  });
  app.post('/gm/games/:id/generic/switch', async (c) => {
    const game = await gameOf(store, c);
    if (!game) return notFound(c);
    try {
      await switchToGeneric(commands, c.get('actor'), game.id);
      return back(c, `/gm/games/${game.id}`, {
        message: 'Switched to the generic reader: page 1 is read for you to check before the game is polled.',
      });
    } catch (error) {
      return back(c, `/gm/games/${game.id}`, { error: refusalOf(error) });
    }
  });
  app.post('/gm/games/:id/generic/switch-back', async (c) => {
    const game = await gameOf(store, c);
    if (!game) return notFound(c);
    try {
      const { game: switched } = await switchToAdapter(commands, c.get('actor'), game.id);
      return back(c, `/gm/games/${game.id}`, {
        message: `Back to the ${switched.engine ?? "engine's"} adapter: the game is polled now.`,
      });
    } catch (error) {
      return back(c, `/gm/games/${game.id}`, { error: refusalOf(error) });
    }
  });
  return app;
}
