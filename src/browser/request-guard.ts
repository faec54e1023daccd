import type { Route } from 'playwright-core';
import { FetchError, isFetchTimeout } from '../fetch/errors.js';
import { readBodyCapped } from '../fetch/read-body.js';
import {
  assertPublicUrl,
  guardedDispatcher,
  refusedAtConnect,
  type GuardedRequestInit,
  type ResolveHost,
} from '../fetch/private-host.js';

/** What a page needs only to look right: never loaded, so a forum page costs one request's worth. */
const SKIPPED_RESOURCES = new Set([
  'image',
  'media',
  'font',
  'stylesheet',
  'manifest',
  'texttrack',
  'eventsource',
  'websocket',
]);
/** Headers the connection sets itself, or that describe a body fetch has already decoded. */
const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'accept-encoding',
  'content-encoding',
]);

export interface RequestGuardOptions {
  allowPrivateHosts?: boolean;
  resolveHost?: ResolveHost;
  /** One request's time limit. Default 30 s. */
  timeoutMs?: number;
  /** One answer's size limit. Default 8 MiB. */
  maxBytes?: number;
}

/**
 * Every request a browser page makes passes the same checks as a plain GET: no private
 * hosts (a forum page must not reach into the local network), no decoration. Chromium
 * does not connect itself: the request is made with Node's fetch through the guarded
 * dispatcher, which checks the address it connects to (so a DNS answer that changes
 * after the check, rebinding, cannot pass), and the answer is handed to the page. A
 * redirect goes back to the page, whose next request passes here again.
 */
export function requestGuard(opts: RequestGuardOptions): (route: Route) => Promise<void> {
  const guard = {
    ...(opts.allowPrivateHosts !== undefined ? { allowPrivate: opts.allowPrivateHosts } : {}),
    ...(opts.resolveHost ? { resolve: opts.resolveHost } : {}),
  };
  let dispatcher: ReturnType<typeof guardedDispatcher> | undefined;
  return async (route) => {
    const request = route.request();
    if (SKIPPED_RESOURCES.has(request.resourceType())) {
      await route.abort('blockedbyclient').catch(() => {});
      return;
    }
    let answer: Response;
    try {
      const target = await assertPublicUrl(request.url(), guard);
      const headers = Object.entries(await request.allHeaders()).filter(
        ([name]) => !HOP_BY_HOP.has(name) && !name.startsWith(':'),
      );
      const body = request.postDataBuffer();
      dispatcher ??= guardedDispatcher(guard);
      const init: GuardedRequestInit = {
        dispatcher: await dispatcher,
        method: request.method(),
        headers,
        ...(body ? { body: new Uint8Array(body) } : {}),
        redirect: 'manual',
        signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
      };
      answer = await fetch(target, init);
    } catch (error) {
      if (
        error instanceof FetchError ||
        refusedAtConnect(error) ||
        error instanceof TypeError ||
        isFetchTimeout(error)
      ) {
        await route
          .abort(refusedAtConnect(error) || error instanceof FetchError ? 'blockedbyclient' : 'failed')
          .catch(() => {});
        return;
      }
      throw error;
    }
    const headers: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name) && name !== 'set-cookie') headers[name] = value;
    });
    const cookies = answer.headers.getSetCookie();
    if (cookies.length > 0) headers['set-cookie'] = cookies.join('\n');
    let body: Buffer;
    try {
      body = Buffer.from(await readBodyCapped(answer, request.url(), opts.maxBytes ?? 8 * 1024 * 1024));
    } catch {
      await route.abort('failed').catch(() => {});
      return;
    }
    await route.fulfill({ status: answer.status, headers, body }).catch(() => {});
  };
}
