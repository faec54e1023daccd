import {
  assertPublicUrl,
  guardedDispatcher,
  refusedAtConnect,
  type GuardedRequestInit,
} from '../fetch/private-host.js';
import { isFetchTimeout } from '../fetch/errors.js';
import { DEFAULT_USER_AGENT } from '../fetch/fetcher-options.js';
import { readBodyCapped } from '../fetch/read-body.js';
import { redactUrl } from '../fetch/redact-url.js';
import { PublishError } from './publisher.js';

/**
 * The few HTTP requests a publisher makes (a reply form, a POST, the thread's last
 * pages). Global fetch, so tests can use a local fake forum. Every request: a public
 * host (unless private hosts are allowed), a time limit, a size cap, no automatic
 * redirects (a 303 after a POST is an answer), and errors that name the URL without
 * credentials, cookies or API keys.
 */

export interface HttpOptions {
  /** Per request. Default 30 s. */
  timeoutMs?: number;
  /** Private and loopback hosts allowed (tests, local forums). Default VOTAL_ALLOW_PRIVATE_HOSTS=1. */
  allowPrivateHosts?: boolean;
  userAgent?: string;
  maxBytes?: number;
  /** Default global fetch. */
  fetch?: typeof fetch;
}

export interface HttpAnswer {
  url: string;
  status: number;
  headers: Headers;
  text: string;
}

export interface HttpRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** For messages: "posting the reply", "reading the thread". */
  what: string;
}

/** Codes that mean the request never reached the forum. */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export class PublishHttp {
  readonly timeoutMs: number;
  readonly #allowPrivate: boolean | undefined;
  readonly #userAgent: string;
  readonly #maxBytes: number;
  readonly #fetch: typeof fetch;

  constructor(options: HttpOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.#allowPrivate = options.allowPrivateHosts;
    this.#userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
    this.#maxBytes = options.maxBytes ?? 8 * 1024 * 1024;
    // Connections are checked again at connect time (DNS rebinding), as the page fetcher's are.
    let dispatcher: ReturnType<typeof guardedDispatcher> | undefined;
    this.#fetch =
      options.fetch ??
      (async (input, init) => {
        dispatcher ??= guardedDispatcher({ allowPrivate: this.#allowPrivate });
        return fetch(input, { ...init, dispatcher: await dispatcher } as GuardedRequestInit);
      });
  }

  /** Sends one request. Throws PublishError for transport failures only; any status is returned. */
  async send(url: string, request: HttpRequest): Promise<HttpAnswer> {
    const method = request.method ?? 'GET';
    let target: URL;
    try {
      target = await assertPublicUrl(url, { allowPrivate: this.#allowPrivate });
    } catch (error) {
      throw new PublishError(`${request.what}: ${(error as Error).message}`, 'rejected', false, null, { cause: error });
    }
    const shown = redactUrl(target);
    let response: Response;
    try {
      response = await this.#fetch(target, {
        method,
        headers: { 'user-agent': this.#userAgent, ...request.headers },
        ...(request.body === undefined ? {} : { body: request.body }),
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const refused = refusedAtConnect(error);
      if (refused)
        throw new PublishError(`${request.what}: ${refused.message} (${shown})`, 'rejected', false, null, {
          cause: error,
        });
      throw transportError(error, request.what, shown, method, this.timeoutMs);
    }
    let text: string;
    try {
      text = Buffer.from(await readBodyCapped(response, shown, this.#maxBytes)).toString('utf8');
    } catch (error) {
      // The forum answered (so a POST arrived) but the answer did not come through whole.
      const timedOut = isFetchTimeout(error);
      throw new PublishError(
        `${request.what}: ${timedOut ? `the answer did not finish within ${this.timeoutMs} ms` : 'the answer was cut off'} (${shown})`,
        method === 'POST' ? 'unknown' : 'rejected',
        true,
        response.status,
        { cause: error },
      );
    }
    return { url: target.href, status: response.status, headers: response.headers, text };
  }
}

function transportError(error: unknown, what: string, shown: string, method: string, timeoutMs: number): PublishError {
  if (isFetchTimeout(error)) {
    // The request went out; the forum may have taken it and only its answer is late.
    return new PublishError(
      `${what}: no answer within ${timeoutMs} ms (${shown})`,
      method === 'POST' ? 'unknown' : 'rejected',
      true,
      null,
      {
        cause: error,
      },
    );
  }
  const code =
    (error as { cause?: { code?: string } })?.cause?.code ?? (error as { code?: string })?.code ?? 'network error';
  const sent = !NOT_SENT.has(code);
  return new PublishError(
    `${what}: ${code} (${shown})`,
    sent && method === 'POST' ? 'unknown' : 'rejected',
    true,
    null,
    {
      cause: error,
    },
  );
}

/**
 * What an HTTP status means for a POST that created a post: 2xx/3xx accepted; 429 and 503
 * "later" (not taken); 5xx unknown (a crash after saving is possible); other 4xx rejected.
 */
export function statusError(answer: HttpAnswer, what: string): PublishError | null {
  const { status } = answer;
  if (status < 400) return null;
  const shown = redactUrl(answer.url);
  if (status === 429 || status === 503) {
    return new PublishError(`${what}: the forum asks us to wait (HTTP ${status}) (${shown})`, 'rejected', true, status);
  }
  if (status >= 500)
    return new PublishError(`${what}: forum server error HTTP ${status} (${shown})`, 'unknown', true, status);
  if (status === 401 || status === 403) {
    return new PublishError(
      `${what}: the forum refused our credentials (HTTP ${status}); check the API key or log in again (${shown})`,
      'rejected',
      false,
      status,
    );
  }
  return new PublishError(
    `${what}: the forum refused the request (HTTP ${status}${detail(answer.text)}) (${shown})`,
    'rejected',
    false,
    status,
  );
}

/** A short reason from an error body (JSON `errors`/`error`/`message`), without echoing HTML. */
function detail(text: string): string {
  try {
    const json = JSON.parse(text) as { errors?: unknown; error?: unknown; message?: unknown };
    const raw = json.errors ?? json.error ?? json.message;
    const list = Array.isArray(raw)
      ? raw.map((e) => (typeof e === 'string' ? e : ((e as { message?: string })?.message ?? ''))).filter(Boolean)
      : typeof raw === 'string'
        ? [raw]
        : [];
    return list.length ? `: ${list.join('; ').slice(0, 200)}` : '';
  } catch {
    return '';
  }
}
