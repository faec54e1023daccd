import { Hono } from 'hono';
import { lateText, gameLateness, type PollLateness } from '../../../jobs/schedule.js';
import type { Game } from '../../../model/game.js';
import type { Tally } from '../../../model/tally.js';
import type { PollState } from '../../../store/polls-repo.js';
import { openFlags } from '../../../votal/render-votal.js';
import { deadlineOf } from '../../../game/poll-settings.js';
import { titleOf } from '../game-data.js';
import { visibleGames } from '../../gm-access.js';
import { GmNav, Layout, LocalTime, Notice } from '../layout.js';
import { sessionFlash, type DashboardDeps, type UiEnv } from '../dashboard.js';

/** The dashboard's first page (`/gm`): the GM's games, or the archived ones. */

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

function DashboardPage(props: {
  csrf: string;
  games: GameSummary[];
  message?: string | null;
  /** Showing the archived games instead of the others; `archived` counts them. */
  showArchived?: boolean;
  archived?: number;
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
          {props.gm.admin ? (
            <>
              {' '}
              · <a href="/gm/gms">Game masters and invites</a>
            </>
          ) : null}
        </p>
      ) : null}
      <Notice message={props.message ?? null} />
      {props.showArchived ? (
        <p>
          <a href="/gm">← Current games</a>
        </p>
      ) : archived ? (
        <p>
          <a href="/gm?archived=1">{`Archived games (${archived})`}</a>
        </p>
      ) : null}
      <section class="panel">
        {props.games.length === 0 ? (
          props.showArchived ? (
            <p>No archived games.</p>
          ) : (
            <p>
              No games yet. <a href="/gm/new">Watch a game thread</a>.
            </p>
          )
        ) : (
          <table>
            <caption>Watched threads</caption>
            <thead>
              <tr>
                <th scope="col">Game</th>
                <th scope="col">Status</th>
                <th scope="col" class="hide-narrow">
                  Count
                </th>
                <th scope="col">To review</th>
                <th scope="col" class="hide-narrow">
                  Deadline
                </th>
                <th scope="col">Drafts</th>
              </tr>
            </thead>
            <tbody>
              {props.games.map((g) => (
                <tr>
                  <th scope="row">
                    <a href={`/gm/games/${g.game.id}`}>{g.title}</a>
                    <div class="muted">
                      {g.game.ruleset} · <a href={`/g/${g.game.slug}`}>live page</a>
                    </div>
                  </th>
                  <td>
                    {g.game.status}
                    <div class="muted">
                      {g.poll.lastOkAt ? (
                        <>
                          read <LocalTime iso={g.poll.lastOkAt} />
                        </>
                      ) : (
                        'not read yet'
                      )}
                    </div>
                    {g.poll.lastError ? <div class="muted">{`Last poll failed: ${g.poll.lastError}`}</div> : null}
                    {g.lateness.late ? (
                      <div class="late">{`Poll late by ${lateText(g.lateness.overdueMs)}`}</div>
                    ) : null}
                  </td>
                  <td class="hide-narrow">
                    {g.tally
                      ? `Day ${g.tally.day}: ${
                          g.tally.wagons
                            .slice(0, 2)
                            .map((w) => `${w.target} ${w.total}`)
                            .join(', ') || 'no votes'
                        }`
                      : 'not counted yet'}
                  </td>
                  <td>
                    {g.toReview ? (
                      <a class="chip" href={`/gm/games/${g.game.id}#review`}>{`${g.toReview} open`}</a>
                    ) : (
                      '—'
                    )}
                  </td>
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

/** `GET /gm[?archived=1]`. */
export function gamesListRoutes(deps: DashboardDeps): Hono<UiEnv> {
  const { store, now } = deps;
  const { flashOf } = sessionFlash(deps.flashes);
  const app = new Hono<UiEnv>();

  app.get('/gm', async (c) => {
    // Archived games are off the main list, one click away.
    const showArchived = c.req.query('archived') === '1';
    const all = await visibleGames(store.gms, c.get('gm'), await store.games.list());
    const games = all.filter((g) => (g.status === 'archived') === showArchived);
    const summaries = await Promise.all(
      games.map(async (game) => {
        const [latest, poll, pending] = await Promise.all([
          store.tallies.latest(game.id),
          store.polls.get(game.id),
          store.drafts.list(game.id, { status: 'pending' }),
        ]);
        const tally = latest?.tally ?? null;
        const toReview = tally ? openFlags(tally).length : 0;
        return {
          game,
          title: titleOf(game, poll),
          tally,
          poll,
          pending: pending.length,
          toReview,
          deadline: deadlineOf(game, poll),
          lateness: gameLateness(game, poll, now().getTime()),
        };
      }),
    );
    const flash = flashOf(c);
    return c.html(
      <DashboardPage
        csrf={c.get('session').csrf}
        games={summaries.reverse()}
        message={flash.message ?? null}
        showArchived={showArchived}
        archived={all.filter((g) => g.status === 'archived').length}
        gm={c.get('gm')}
      />,
    );
  });

  return app;
}
