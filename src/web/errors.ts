import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ZodError } from 'zod';
import { Conflict, Forbidden, Invalid, issuesOf } from '../app/errors.js';
import { MissingSecretKeyError } from '../config/secrets.js';
import type { Logger } from '../log/logger.js';
import { PublishConfigError } from '../publish/publisher.js';
import { NotFoundError, StateError, ThreadTakenError } from '../store/errors.js';
import { postNumberOf, rowIdOf } from './ids.js';

/**
 * The one place errors become HTTP answers, as JSON: `{ error, issues? }`. Input a command
 * refuses (Invalid) is 400 naming each field (`players: at least one player`), a missing
 * row is 404, a change not the caller's to make (Forbidden) 403, a change the game's or draft's state does not allow (Conflict) is 409 with
 * what conflicts. Anything else is a 500 whose detail goes to the log only.
 */
export function toResponse(c: Context, error: unknown, log?: Logger): Response {
  if (error instanceof Invalid) return c.json({ error: error.message, issues: error.issues }, 400);
  if (error instanceof ZodError) {
    const issues = issuesOf(error);
    return c.json({ error: issues.map((i) => `${i.field}: ${i.message}`).join('; '), issues }, 400);
  }
  if (error instanceof Forbidden) return c.json({ error: error.message }, 403);
  if (error instanceof NotFoundError) return c.json({ error: error.message }, 404);
  if (error instanceof ThreadTakenError) return c.json({ error: error.message, game: error.existing }, 409);
  if (error instanceof Conflict) return c.json({ ...error.detail, error: error.message }, 409);
  if (error instanceof StateError) return c.json({ error: error.message }, 409);
  if (error instanceof MissingSecretKeyError || error instanceof PublishConfigError)
    return c.json({ error: error.message }, 409);
  if (error instanceof HTTPException) return c.json({ error: error.message || 'bad request' }, error.status);
  log?.error({ err: error, path: c.req.path, method: c.req.method }, 'request failed');
  return c.json({ error: 'internal error; see the server log' }, 500);
}

/** Reads a JSON body; a body that is not JSON is a 400. */
export async function jsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw Invalid.field('(body)', 'not valid JSON');
  }
}

/**
 * A row id (`:id`) or a post number (`:number`) from the path, or 404: read by the one id
 * rule (ids.ts) the access guard uses too, so both mean the same row or neither answers.
 */
export function idParam(c: Context, name = 'id'): number {
  const raw = c.req.param(name) ?? '';
  const id = name === 'number' ? postNumberOf(raw) : rowIdOf(raw);
  if (id === null) throw new NotFoundError(name === 'id' ? 'row' : name, raw);
  return id;
}

/**
 * A command's refusal as the GM reads it on the dashboard (the same errors the API answers
 * 400, 404 or 409 to); anything else is thrown on, to the error page and the log.
 */
export function refusalOf(error: unknown): string {
  if (error instanceof Invalid || error instanceof NotFoundError || error instanceof StateError) return error.message;
  if (error instanceof Forbidden) return error.message;
  if (error instanceof MissingSecretKeyError || error instanceof PublishConfigError) return error.message;
  throw error;
}
