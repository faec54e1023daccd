import type { z } from 'zod';
import { NotFoundError, StateError } from '../store/errors.js';

/**
 * The errors a command throws, in the game's words. The web maps each to one HTTP status
 * in one place (src/web/errors.ts): Invalid 400, Forbidden 403, NotFound 404, Conflict 409.
 */

export interface Issue {
  /** The input field at fault, as a dotted path (`players.2`, `publish.cookies`). */
  field: string;
  message: string;
}

/** Input a command refuses, naming each field that is wrong. Nothing was changed. */
export class Invalid extends Error {
  constructor(readonly issues: Issue[]) {
    super(issues.map((i) => `${i.field}: ${i.message}`).join('; '));
    this.name = 'Invalid';
  }

  static field(field: string, message: string): Invalid {
    return new Invalid([{ field, message }]);
  }
}

/**
 * The caller may see what they asked to change but it is not theirs to change (another GM's
 * nickname in the forum's book). Nothing was changed.
 */
export class Forbidden extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Forbidden';
  }
}

/** A row the command was given does not exist (the store's own error, under the app's name). */
export { NotFoundError as NotFound };

/**
 * The game or draft is not in a state that allows the change (approving a discarded draft,
 * deleting a game mid-poll). `detail` says what conflicts, for callers that show it.
 */
export class Conflict extends StateError {
  constructor(
    message: string,
    readonly detail: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'Conflict';
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

/** Parses `input` with `schema`; a failure is Invalid naming the fields. */
export function parseInput<T extends z.ZodType>(
  schema: T,
  input: unknown,
  prefix: readonly (string | number)[] = [],
): z.infer<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new Invalid(issuesOf(parsed.error, prefix));
  return parsed.data;
}
