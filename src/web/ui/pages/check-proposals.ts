import { Hono } from 'hono';
import { answerDeath, answerThreshold } from '../../../app/checks.js';
import { refusalOf } from '../../errors.js';
import { field, gameOf, notFound, sessionFlash, type DashboardDeps, type UiEnv } from '../dashboard.js';

/**
 * The GM's game page's answers to what their own counts propose (the panel of
 * ../gm-checks.tsx), as through the API: the threshold the counts state set for the game
 * (the ruleset overrides, recounted) or dismissed; a death a count implies recorded or dismissed.
 */
export function checkProposalRoutes(deps: DashboardDeps): Hono<UiEnv> {
  const { store, commands } = deps;
  const { back } = sessionFlash(deps.flashes);
  const app = new Hono<UiEnv>();

  app.post('/gm/games/:id/checks/threshold', async (c) => {
    const game = await gameOf(store, c);
    if (!game) return notFound(c);
    const form = await c.req.parseBody();
    const answer = field(form, 'answer') === 'accept' ? 'accept' : 'dismiss';
    const to = `/gm/games/${game.id}#checks`;
    try {
      const r = await answerThreshold(
        commands,
        c.get('actor'),
        game.id,
        { key: field(form, 'key'), answer },
        deps.now(),
      );
      if (r.answer === 'dismiss') return back(c, to, { message: 'Dismissed.' });
      const counted = r.recount.note ? `; ${r.recount.note}` : ', recounted';
      return back(c, to, { message: `The game's threshold is set as your counts state it${counted}.` });
    } catch (error) {
      return back(c, to, { error: refusalOf(error) });
    }
  });

  app.post('/gm/games/:id/checks/deaths', async (c) => {
    const game = await gameOf(store, c);
    if (!game) return notFound(c);
    const form = await c.req.parseBody();
    const answer = field(form, 'answer') === 'record' ? 'record' : 'dismiss';
    const to = `/gm/games/${game.id}#checks`;
    try {
      const r = await answerDeath(commands, c.get('actor'), game.id, { key: field(form, 'key'), answer }, deps.now());
      if (r.answer === 'dismiss') return back(c, to, { message: 'Dismissed.' });
      const counted = r.recorded.note ? `recorded; ${r.recorded.note}.` : 'recorded and recounted.';
      return back(c, to, { message: `${r.proposal.player}'s death after #${r.proposal.at} ${counted}` });
    } catch (error) {
      return back(c, to, { error: refusalOf(error) });
    }
  });

  return app;
}
