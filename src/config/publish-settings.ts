import type { GameSettings, PublishInput, StoredPublish } from '../model/game-settings.js';
import { MissingSecretKeyError, type SecretBox } from './secrets.js';

/**
 * The crypto side of a game's publishing settings (the schema is `GameSettings` in
 * src/model/game-settings.ts): forum credentials are sealed with VOTAL_SECRET_KEY before
 * they are stored (`sealPublish`) and are never shown back (`publicSettings`).
 */

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
      return {
        method: input.method,
        ...(input.apiUser ? { apiUser: input.apiUser } : {}),
        apiKey: box.seal(input.apiKey, aad),
      };
    case 'form':
      return { method: 'form', jar: box.seal(await cookieJar(input.cookies), aad) };
  }
}

/** Settings as the API shows them: secrets replaced by `"(stored)"`. */
export function publicSettings(settings: GameSettings): Record<string, unknown> {
  const out: Record<string, unknown> = { ...settings };
  const p = settings.publish;
  if (p) {
    out.publish =
      p.method === 'copy'
        ? p
        : p.method === 'form'
          ? { method: p.method, cookies: '(stored)' }
          : { ...p, apiKey: '(stored)' };
  }
  return out;
}
