import { adapterOf } from '../../scrapers/identify.js';
import { type FetchError, LayoutError, PageNotFoundError, PrivateHostError } from '../fetch/errors.js';
import type { EngineId } from '../model/engine.js';
import { CliError, EXIT } from './exit-codes.js';

/**
 * A fetch error as the command line tells it: the forum's fault is exit 3, but a refused
 * private host is a local setting (exit 2), and a page that does not read as the engine
 * `--engine` named says to let Votal recognise the forum instead.
 */
export function forumFailure(e: FetchError, told: string, forced?: EngineId, url?: string): CliError {
  if (e instanceof PrivateHostError) {
    return new CliError(
      `${told}\nhint: this is a local setting, not the forum: for a forum on this machine or your own network, run with VOTAL_ALLOW_PRIVATE_HOSTS=1`,
      EXIT.input,
    );
  }
  if (forced && (e instanceof LayoutError || e instanceof PageNotFoundError)) {
    const looksOther = url !== undefined && !looksLikeThreadOf(forced, url);
    const why = looksOther ? ` (the URL does not look like a ${forced} thread address)` : '';
    return new CliError(
      `${told}\nhint: --engine ${forced} was given and the page does not read as ${forced}${why}; run without --engine to let Votal recognise the forum`,
      EXIT.forum,
    );
  }
  return new CliError(told, EXIT.forum);
}

function looksLikeThreadOf(engine: EngineId, url: string): boolean {
  const paths = adapterOf(engine).descriptor.threadPaths;
  if (paths.length === 0) return true;
  const u = new URL(url);
  return paths.some((p) => new RegExp(p, 'i').test(u.pathname + u.search));
}
