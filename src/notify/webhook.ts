import { setTimeout as delay } from 'node:timers/promises';
import {
  assertPublicUrl,
  guardedDispatcher,
  refusedAtConnect,
  type GuardedRequestInit,
} from '../fetch/private-host.js';
import { isFetchTimeout, PrivateHostError, UnsupportedUrlError } from '../fetch/errors.js';
import { redactUrl } from '../fetch/redact-url.js';
import type { Logger } from '../log/logger.js';
import { withoutInvisibleControls } from '../model/forum-text.js';
import type { Tally } from '../model/tally.js';
import type { AuditRepo } from '../store/audit-repo.js';
import type { Draft } from '../model/draft.js';
import type { Game } from '../model/game.js';
import { outcomeLine } from '../votal/votal-lines.js';

/**
 * The GM's optional webhook (`settings.webhookUrl`): a Discord-compatible JSON POST
 * (`{ content, embeds? }`; Slack and most chat bridges take the same) when a draft waits
 * for approval, a Day is decided (majority, Hammer), or a vote needs the GM. Retried with
 * backoff; a failure is audited and logged, never thrown: a chat outage must not stop
 * counting.
 */

export interface WebhookEmbed {
  title?: string;
  description?: string;
  url?: string;
  color?: number;
  fields?: { name: string; value: string; inline?: boolean }[];
}

export interface WebhookMessage {
  content: string;
  embeds?: WebhookEmbed[];
  /** Discord: ping nobody, whatever the text says (player names can look like @everyone). */
  allowed_mentions?: { parse: string[] };
}

export interface WebhookOptions {
  /** Attempts in all. Default 4. */
  attempts?: number;
  /** First wait between attempts; doubles. Default 1 s. */
  backoffMs?: number;
  /** A Retry-After longer than this is cut to it. Default 60 s. */
  maxWaitMs?: number;
  timeoutMs?: number;
  allowPrivateHosts?: boolean;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

export type WebhookResult =
  | { ok: true; attempts: number; status: number }
  | { ok: false; attempts: number; error: string };

/** POSTs one message, retrying network errors, timeouts, 429 and 5xx. Never throws. */
export async function sendWebhook(
  url: string,
  message: WebhookMessage,
  opts: WebhookOptions = {},
): Promise<WebhookResult> {
  const attempts = Math.max(1, opts.attempts ?? 4);
  const sleep = opts.sleep ?? ((ms: number) => delay(ms));
  // The address is checked again when the socket connects, so DNS rebinding cannot pass.
  let dispatcher: ReturnType<typeof guardedDispatcher> | undefined;
  const doFetch =
    opts.fetch ??
    (async (input: string | URL | Request, init?: RequestInit) => {
      dispatcher ??= guardedDispatcher({ allowPrivate: opts.allowPrivateHosts });
      return fetch(input, { ...init, dispatcher: await dispatcher } as GuardedRequestInit);
    });
  const shown = redactUrl(url).replace(/\/[^/]{20,}$/, '/…'); // Discord's token is the last path part
  let error = 'not sent';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    let wait = (opts.backoffMs ?? 1_000) * 2 ** (attempt - 1);
    try {
      const target = await assertPublicUrl(url, { allowPrivate: opts.allowPrivateHosts });
      const response = await doFetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Votal webhook' },
        body: JSON.stringify({ allowed_mentions: { parse: [] }, ...message }),
        redirect: 'manual',
        signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
      });
      await response.body?.cancel().catch(() => {});
      if (response.status < 300) return { ok: true, attempts: attempt, status: response.status };
      error = `HTTP ${response.status} from ${shown}`;
      const retryable = response.status === 429 || response.status >= 500;
      if (!retryable) return { ok: false, attempts: attempt, error };
      const after = Number(response.headers.get('retry-after'));
      if (Number.isFinite(after) && after > 0) wait = Math.max(wait, after * 1000);
    } catch (e) {
      const err = e as Error & { cause?: { code?: string } };
      const refused = refusedAtConnect(e);
      if (refused) return { ok: false, attempts: attempt, error: `${refused.message} (${shown})` };
      error = `${isFetchTimeout(e) ? 'timed out' : (err.cause?.code ?? err.message)} (${shown})`;
      if (e instanceof PrivateHostError || e instanceof UnsupportedUrlError)
        return { ok: false, attempts: attempt, error };
    }
    if (attempt < attempts) await sleep(Math.min(wait, opts.maxWaitMs ?? 60_000));
  }
  return { ok: false, attempts, error };
}

export type NotifyKind = 'draft-pending' | 'decision' | 'flags';

export interface NotifierOptions extends WebhookOptions {
  audit: AuditRepo;
  log?: Logger;
  /** `http://host:port`: links in messages point at the dashboard and live page. */
  publicBaseUrl?: string;
}

export interface Notifier {
  draftPending(game: Game, draft: Draft, tally?: Tally | null): Promise<WebhookResult | null>;
  decision(game: Game, tally: Tally, what: string): Promise<WebhookResult | null>;
  flags(game: Game, tally: Tally, flags: Tally['flags']): Promise<WebhookResult | null>;
  /** Any message (the three above use it). Null when the game has no webhook. */
  send(game: Game, kind: NotifyKind, message: WebhookMessage): Promise<WebhookResult | null>;
}

const cut = (s: string, n: number): string => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

/**
 * Text from the thread (a player's raw vote, names, the votal) as literal chat text:
 * Discord's Markdown (CommonMark: a backslash makes any punctuation literal) would
 * otherwise render `[label](url)` as a masked link, `**`/`__`/`~~`/`||` as formatting,
 * `<url>` as a link and `# `/`> `/`- ` at a line's start as headings, quotes and lists.
 * Brackets alone are left: without the `(` after them there is no link, and BBCode stays
 * readable. Bidi and invisible controls are dropped (a name with U+202E would read reversed),
 * and a bare URL or domain is defanged, `evil[.]example`, `https[:]//…`: Discord links any
 * `http(s)://` it sees, and a chat reader should not be one click from a player's link.
 * Cut to `max` after escaping, never between a backslash and what it escapes.
 */
export function chatText(text: string, max = Infinity): string {
  const escaped = defang(withoutInvisibleControls(text))
    .replace(/[\\*_~`|()<>]/g, '\\$&')
    .replace(/^([ \t]*)(#|-#|[-+]\s|\d+\.\s)/gm, '$1\\$2');
  if (escaped.length <= max) return escaped;
  let kept = escaped.slice(0, max - 1);
  let backslashes = 0;
  while (kept[kept.length - 1 - backslashes] === '\\') backslashes++;
  if (backslashes % 2 === 1) kept = kept.slice(0, -1);
  return `${kept}…`;
}

/** `://` and the dots of a domain (between letters or digits) in brackets: read as meant, linked by nothing. */
function defang(text: string): string {
  return text.replace(/:\/\//g, '[:]//').replace(/(?<=[\p{L}\p{N}_-])\.(?=[\p{L}\p{N}])/gu, '[.]');
}

const ORANGE = 0xe67e22;
const RED = 0xc0392b;
const BLUE = 0x2e86c1;

export function createNotifier(opts: NotifierOptions): Notifier {
  const page = (game: Game): string | undefined =>
    opts.publicBaseUrl ? `${opts.publicBaseUrl}/g/${game.slug}` : undefined;

  const send: Notifier['send'] = async (game, kind, message) => {
    const url = game.settings.webhookUrl ?? null;
    if (!url) return null;
    const result = await sendWebhook(url, { ...message, content: cut(message.content, 2000) }, opts);
    try {
      await opts.audit.record({
        gameId: game.id,
        actor: 'system',
        action: result.ok ? 'webhook.send' : 'webhook.fail',
        detail: {
          kind,
          attempts: result.attempts,
          ...(result.ok ? { status: result.status } : { error: result.error }),
        },
      });
    } catch (error) {
      opts.log?.error({ err: error, gameId: game.id }, 'could not audit a webhook');
    }
    if (!result.ok) opts.log?.warn({ gameId: game.id, kind, error: result.error }, 'webhook failed');
    return result;
  };

  return {
    send,

    draftPending(game, draft, tally) {
      const asOf = tally?.asOfPost ? ` as of post ${tally.asOfPost}` : '';
      const day = tally ? ` (Day ${tally.day}${asOf})` : '';
      const link = page(game);
      return send(game, 'draft-pending', {
        content: `Votal: a new vote count for ${game.slug}${day} waits for your approval (draft ${draft.id}).`,
        embeds: [
          {
            title: `Draft ${draft.id}`,
            description: chatText(draft.body, 4000),
            color: BLUE,
            ...(link ? { url: link } : {}),
          },
        ],
      });
    },

    decision(game, tally, what) {
      const link = page(game);
      return send(game, 'decision', {
        content: `Votal: ${chatText(what)} in ${game.slug} (Day ${tally.day}).`,
        embeds: [{ title: chatText(outcomeLine(tally)), color: RED, ...(link ? { url: link } : {}) }],
      });
    },

    flags(game, tally, flags) {
      const lines = flags.slice(0, 20).map((f) => {
        const who = f.player ? ` ${chatText(f.player)}` : '';
        const could = f.candidates.length ? ` (could be ${f.candidates.map((c) => chatText(c)).join(' or ')})` : '';
        return `#${f.post}${who}: ${f.kind} "${chatText(f.raw, 80)}"${could}`;
      });
      const more = flags.length > 20 ? `\n… and ${flags.length - 20} more` : '';
      return send(game, 'flags', {
        content: `Votal: ${flags.length} ${flags.length === 1 ? 'vote needs' : 'votes need'} the GM in ${game.slug} (Day ${tally.day}).`,
        embeds: [{ description: cut(lines.join('\n') + more, 4000), color: ORANGE }],
      });
    },
  };
}
