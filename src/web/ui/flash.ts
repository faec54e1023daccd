import type { Recount } from '../../app/deps.js';

/** What a change that recounts says after "saved": counted again, or why not yet. */
export function recountWords(recount: Recount | null): string {
  if (recount === null) return '';
  return recount.done ? ' The game was counted again.' : recount.note ? ` Recount: ${recount.note}.` : '';
}

/** A message for the next page a session sees (after a redirect). */
export interface Flash {
  message?: string;
  error?: string;
  /** A link shown once (a new invite: only its hash is stored). */
  link?: string;
}

/**
 * Flash messages by session id, in memory: a message is read once, right after the redirect
 * that follows the form. Session objects are read from the store per request, so the id is
 * the key; the oldest are dropped past `max` (a session that never came back).
 */
export class Flashes {
  readonly #byId = new Map<string, Flash>();
  constructor(readonly max = 10_000) {}

  get(session: { id: string }): Flash | undefined {
    return this.#byId.get(session.id);
  }

  set(session: { id: string }, flash: Flash): void {
    this.#byId.delete(session.id);
    this.#byId.set(session.id, flash);
    if (this.#byId.size > this.max) this.#byId.delete(this.#byId.keys().next().value!);
  }

  delete(session: { id: string }): void {
    this.#byId.delete(session.id);
  }
}
