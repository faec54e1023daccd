import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ZodError, type z } from 'zod';
import { MissingSecretKeyError } from '../config/secrets.js';
import type { Logger } from '../log/logger.js';
import { PublishConfigError } from '../publish/publisher.js';
import { NotFoundError, StateError, ThreadTakenError } from '../store/errors.js';

/**
 * API errors as JSON: `{ error, issues? }`. A validation error names each field
 * (`players: at least one player`), a missing row is 404, a state change the row does not
 * allow is 409. Anything else is a 500 whose detail goes to the log only.
 */

export interface Issue {
  field: string;
  message: string;
}

/** A 400 naming the fields that are wrong. */
export class BadRequest extends Error {
  constructor(readonly issues: Issue[]) {
    super(issues.map((i) => `${i.field}: ${i.message}`).join('; '));
    this.name = 'BadRequest';
  }

  static field(field: string, message: string): BadRequest {
    return new BadRequest([{ field, message }]);
  }
}

export function issuesOf(error: z.ZodError, prefix: readonly (string | number)[] = []): Issue[] {
  return error.issues.map((i) => {
    const path = [...prefix, ...i.path].map(String);
    let message = i.message;
    if (i.code === 'unrecognized_keys') message = `unknown field(s) ${i.keys.map((k) => JSON.stringify(k)).join(', ')}`;
    return { field: path.join('.') || '(body)', message };
  });
}

export function toResponse(c: Context, error: unknown, log?: Logger): Response {
  if (error instanceof BadRequest) return c.json({ error: error.message, issues: error.issues }, 400);
  if (error instanceof ZodError) {
    const issues = issuesOf(error);
    return c.json({ error: issues.map((i) => `${i.field}: ${i.message}`).join('; '), issues }, 400);
  }
  if (error instanceof NotFoundError) return c.json({ error: error.message }, 404);
  if (error instanceof ThreadTakenError) return c.json({ error: error.message, game: error.existing }, 409);
  if (error instanceof StateError) return c.json({ error: error.message }, 409);
  if (error instanceof MissingSecretKeyError || error instanceof PublishConfigError) return c.json({ error: error.message }, 409);
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
    throw BadRequest.field('(body)', 'not valid JSON');
  }
}

/** Parses `input` with `schema`; a failure is a BadRequest naming the fields. */
export function parseWith<T extends z.ZodType>(schema: T, input: unknown, prefix: readonly (string | number)[] = []): z.infer<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new BadRequest(issuesOf(parsed.error, prefix));
  return parsed.data;
}

/** A numeric id from the path, or 404 (an id that is not a number names no row). */
export function idParam(c: Context, name = 'id'): number {
  const raw = c.req.param(name) ?? '';
  const id = Number(raw);
  if (!/^\d{1,15}$/.test(raw) || !Number.isSafeInteger(id)) throw new NotFoundError(name === 'id' ? 'row' : name, raw);
  return id;
}
