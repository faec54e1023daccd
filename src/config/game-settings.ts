import { z } from 'zod';
import { isSealed, MissingSecretKeyError, type SecretBox } from './secrets.js';

/**
 * What `game.settings` (jsonb) holds besides what other parts of Votal keep there (the
 * poller's keys: src/game/game-settings.ts): the GM's webhook and how approved votals
 * are published. Forum credentials
 * are sealed with VOTAL_SECRET_KEY before they are stored (`sealPublish`) and are never
 * shown back (`publicSettings`).
 */

const Sealed = z.string().refine(isSealed, { message: 'not a sealed secret' });

/** How an approved draft reaches the thread, as stored. */
export const StoredPublish = z.discriminatedUnion('method', [
  z.object({ method: z.literal('copy') }),
  z.object({ method: z.literal('discourse-api'), apiUsername: z.string().min(1), apiKey: Sealed }),
  z.object({ method: z.literal('xenforo-api'), apiUser: z.string().min(1).optional(), apiKey: Sealed }),
  /** `jar`: the logged-in session, a tough-cookie jar serialised to JSON, sealed. */
  z.object({ method: z.literal('form'), jar: Sealed }),
]);
export type StoredPublish = z.infer<typeof StoredPublish>;

/** How an approved draft reaches the thread, as the GM sends it (credentials in clear, over HTTPS). */
export const PublishInput = z.discriminatedUnion('method', [
  z.strictObject({ method: z.literal('copy') }),
  z.strictObject({ method: z.literal('discourse-api'), apiUsername: z.string().min(1), apiKey: z.string().min(1) }),
  z.strictObject({ method: z.literal('xenforo-api'), apiUser: z.string().min(1).optional(), apiKey: z.string().min(1) }),
  /** `cookies`: a Netscape cookies.txt or a Playwright storage state, exported from a logged-in browser. */
  z.strictObject({ method: z.literal('form'), cookies: z.string().min(1) }),
], { error: () => 'method must be one of copy, discourse-api, xenforo-api, form' });
export type PublishInput = z.infer<typeof PublishInput>;

/** The keys of `game.settings` this layer knows; other keys are kept as they are. */
export const GameSettings = z.looseObject({
  webhookUrl: z.url({ protocol: /^https?$/ }).nullable().optional(),
  /** Draft triggers: src/votal/draft-triggers.ts `DraftSettings` (read by the poll pipeline). */
  drafts: z.record(z.string(), z.unknown()).optional(),
  publish: StoredPublish.optional(),
});
export type GameSettings = z.infer<typeof GameSettings>;

/** The AAD a game's publishing secret is sealed under: it cannot be moved to another thread. */
export function publishAad(threadUrl: string, method: string): string {
  return `votal:publish:${method}:${threadUrl}`;
}

/**
 * Turns the GM's publishing input into what is stored: credentials sealed. `cookieJar`
 * turns a cookie export into a serialised jar (see publish/cookie-jar.ts).
 */
export async function sealPublish(
  input: PublishInput,
  threadUrl: string,
  box: SecretBox | null,
  cookieJar: (text: string) => Promise<string>,
): Promise<StoredPublish> {
  if (input.method === 'copy') return { method: 'copy' };
  if (!box) throw new MissingSecretKeyError(`storing ${input.method} credentials`);
  const aad = publishAad(threadUrl, input.method);
  switch (input.method) {
    case 'discourse-api':
      return { method: input.method, apiUsername: input.apiUsername, apiKey: box.seal(input.apiKey, aad) };
    case 'xenforo-api':
      return { method: input.method, ...(input.apiUser ? { apiUser: input.apiUser } : {}), apiKey: box.seal(input.apiKey, aad) };
    case 'form':
      return { method: 'form', jar: box.seal(await cookieJar(input.cookies), aad) };
  }
}

/** Settings as the API shows them: secrets replaced by `"(stored)"`. */
export function publicSettings(settings: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...settings };
  const parsed = StoredPublish.safeParse(settings.publish);
  if (parsed.success) {
    const p = parsed.data;
    out.publish =
      p.method === 'copy' ? p
      : p.method === 'form' ? { method: p.method, cookies: '(stored)' }
      : { ...p, apiKey: '(stored)' };
  } else if (settings.publish !== undefined) {
    out.publish = { method: 'unknown' };
  }
  return out;
}
