import type { Slot } from '../../model/roster.js';
import type { GmEvent } from '../../model/event.js';
import type { Game } from '../../model/game.js';
import { livingNow } from '../../model/tally.js';
import { freshnessKey, freshnessOf } from '../freshness.js';
import { liveData, type UiStore } from '../ui/game-data.js';
import { LiveBody, LivePage, type LiveExtras } from './live-page.js';

/**
 * The live page rendered once per version and shared by every request: `/g/:slug` and
 * `/g/:slug/fragment` of one game, however many readers ask at once, wait for one render
 * (the count, the freshness of the poll, the dead) and get the same strings.
 */
export interface LiveView {
  version: string;
  /** The `#live` fragment. */
  fragment: string;
  /** The whole page. */
  page: string;
}

/** Slots none of whose names is living: killed, or out some other way (a replaced slot lives on under its new name). */
export function deadOf(roster: readonly Slot[], living: readonly string[], events: readonly GmEvent[]): string[] {
  const alive = new Set(living.map((n) => n.toLowerCase()));
  const replacedBy = new Map<string, string>();
  for (const e of events) if (e.kind === 'replace') replacedBy.set(e.player.toLowerCase(), e.by.toLowerCase());
  const lives = (name: string): boolean => {
    let n = name.toLowerCase();
    // A chain of replacements is followed to its end (bounded: each name once).
    for (const seen = new Set<string>(); !seen.has(n); ) {
      if (alive.has(n)) return true;
      seen.add(n);
      const next = replacedBy.get(n);
      if (next === undefined) return false;
      n = next;
    }
    return false;
  };
  return roster
    .filter((slot) => ![slot.name, ...slot.aliases, ...slot.formerNames].some(lives))
    .map((slot) => slot.name);
}

export class LiveRenders {
  readonly #cache = new Map<number, { version: string; view: Promise<LiveView> }>();
  readonly #max: number;
  readonly #refreshSeconds: number | undefined;
  /** Renders done (tests and benchmarks count them). */
  renders = 0;

  constructor(opts: { maxGames?: number; noscriptRefreshSeconds?: number } = {}) {
    this.#max = opts.maxGames ?? 200;
    this.#refreshSeconds = opts.noscriptRefreshSeconds;
  }

  async view(store: UiStore, game: Game, now: Date): Promise<LiveView> {
    const [data, poll] = await Promise.all([liveData(store, game, now), store.polls.get(game.id)]);
    const freshness = freshnessOf(poll, data.updatedAt);
    const version = `${data.version}|${freshnessKey(freshness)}`;
    const hit = this.#cache.get(game.id);
    if (hit && hit.version === version) return hit.view;
    const view = (async (): Promise<LiveView> => {
      const events = (await store.events.list(game.id)).map((e) => e.event);
      const extras: LiveExtras = { freshness, dead: deadOf(game.roster, livingNow(data.tally), events), version };
      this.renders += 1;
      const fragment = String(await (<LiveBody data={data} slug={game.slug} extras={extras} />));
      const page = String(
        await (
          <LivePage
            data={data}
            body={fragment}
            {...(this.#refreshSeconds ? { refreshSeconds: this.#refreshSeconds } : {})}
          />
        ),
      );
      return { version, fragment, page };
    })();
    this.#cache.delete(game.id);
    this.#cache.set(game.id, { version, view });
    if (this.#cache.size > this.#max) this.#cache.delete(this.#cache.keys().next().value as number);
    view.catch(() => {
      if (this.#cache.get(game.id)?.view === view) this.#cache.delete(game.id);
    });
    return view;
  }
}
