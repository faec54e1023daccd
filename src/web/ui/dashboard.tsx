import type { Context } from 'hono';
import type { CommandDeps } from '../../app/deps.js';
import type { VotalEnv } from '../../config/env.js';
import type { Game } from '../../model/game.js';
import { listRulesets, loadRuleset } from '../../rules/load-ruleset.js';
import { deadlineRule } from '../../tally/day-end-preview.js';
import type { AppDeps } from '../deps.js';
import { rowIdParam } from '../ids.js';
import type { GmVariables } from '../gm-sessions.js';
import type { Flash, Flashes } from './flash.js';
import { ErrorPage } from './pages/error-page.js';

/**
 * What every dashboard page's routes (pages/*.tsx) share: the deps they are made from, the
 * flash message that follows a form's redirect, and reading a form's fields and ids.
 */

export type UiEnv = { Variables: GmVariables };

export interface DashboardDeps {
  store: AppDeps['store'];
  /** The commands' dependencies: forms run the commands the API runs (src/app). */
  commands: CommandDeps;
  env: VotalEnv;
  now: () => Date;
  flashes: Flashes;
}

/** A few common zones to suggest; any IANA name is accepted. */
export const ZONES = [
  'UTC',
  'Europe/London',
  'Europe/Berlin',
  'Europe/Paris',
  'Europe/Madrid',
  'Europe/Moscow',
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
  'America/Sao_Paulo',
  'Asia/Tokyo',
  'Asia/Singapore',
  'Asia/Kolkata',
  'Australia/Sydney',
  'Pacific/Auckland',
];

/** A ruleset as the new-game and settings forms offer it. */
export interface RulesetChoice {
  name: string;
  title: string | null;
  source: string | null;
  /** What Votal does at the deadline under it (short of majority, a tie): `deadlineRule`. */
  deadline: string | null;
}

/** Every ruleset, with its title and source where it loads (one that does not is still offered by name). */
export function rulesetChoices(): RulesetChoice[] {
  return listRulesets().map((name) => {
    try {
      const r = loadRuleset(name);
      return { name, title: r.title ?? null, source: r.source ?? null, deadline: deadlineRule(r) };
    } catch {
      return { name, title: null, source: null, deadline: null };
    }
  });
}

/** The flash a session's next page shows (read once), and the redirect that leaves one. */
export function sessionFlash(flashes: Flashes) {
  const flashOf = (c: Context<UiEnv>): Flash => {
    const s = c.get('session');
    const f = flashes.get(s) ?? {};
    flashes.delete(s);
    return f;
  };
  const back = (c: Context<UiEnv>, to: string, flash: Flash) => {
    flashes.set(c.get('session'), flash);
    return c.redirect(to, 303);
  };
  return { flashOf, back };
}

/** What a page's handlers are given: the dashboard's deps and the session's flash (read once, left by a redirect). */
export type PageDeps = DashboardDeps & ReturnType<typeof sessionFlash>;

export function pageDeps(deps: DashboardDeps): PageDeps {
  return { ...deps, ...sessionFlash(deps.flashes) };
}

/** A row id from the path by the one id rule (../ids.ts), or null. */
export function idOf(c: Context, name: string): number | null {
  return rowIdParam(c, name);
}

export function field(form: Record<string, unknown>, name: string): string {
  return typeof form[name] === 'string' ? (form[name] as string).trim() : '';
}

/** The game of `/gm/games/:id/...` (gameGuard has already checked the GM may see it). */
export async function gameOf(store: DashboardDeps['store'], c: Context): Promise<Game | null> {
  const id = idOf(c, 'id');
  return id === null ? null : store.games.get(id);
}

export const notFound = (c: Context<UiEnv>) => c.html(<ErrorPage status={404} message="There is nothing here." />, 404);
