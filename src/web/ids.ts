import type { Context } from 'hono';
import { Slug } from '../model/game.js';

/**
 * The one id rule for every route (API, dashboard, drafts, events, live pages): a path
 * segment names a row only in canonical decimal, the form the store itself writes. No
 * leading zero, sign, space, exponent, fraction or hex, nothing past the largest id the
 * store hands out as a number (its ids are bigint, read as JS numbers: at most
 * Number.MAX_SAFE_INTEGER). `Number('0000000000002')` is 2: a parser that forgives forms
 * lets a guard and a handler disagree about which row is meant, so nothing forgives.
 *
 * The access guard (gm-access.ts) and every handler parse with these functions; whatever
 * they refuse is a 404, to the guard as to the handler.
 */

/** Canonical decimal: `0`, or a non-zero digit and at most 15 more (MAX_SAFE_INTEGER has 16). */
const CANONICAL = /^(?:0|[1-9]\d{0,15})$/;

/** The integer `raw` writes canonically, at least `min`; null for any other text. */
function canonicalInt(raw: string | undefined, min: number): number | null {
  if (raw === undefined || !CANONICAL.test(raw)) return null;
  const n = Number(raw);
  return Number.isSafeInteger(n) && n >= min ? n : null;
}

/** A row's id (games, drafts, GMs, invites: identity columns, from 1); null when `raw` is not one. */
export const rowIdOf = (raw: string | undefined): number | null => canonicalInt(raw, 1);

/** A post's number in its thread (0 is MafiaScum's opening post); null when `raw` is not one. */
export const postNumberOf = (raw: string | undefined): number | null => canonicalInt(raw, 0);

/** A game's slug as `/g/:slug` names it (the model's Slug); null for anything else. */
export function slugOf(raw: string | undefined): string | null {
  const parsed = Slug.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** The row id in path parameter `name` of this request, or null. */
export const rowIdParam = (c: Context, name = 'id'): number | null => rowIdOf(c.req.param(name));
