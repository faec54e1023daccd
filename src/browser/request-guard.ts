import type { Route } from 'playwright-core';
import { FetchError } from '../fetch/errors.js';
import { assertPublicUrl, type ResolveHost } from '../fetch/private-host.js';

/** What a page needs only to look right: never loaded, so a forum page costs one request's worth. */
const SKIPPED_RESOURCES = new Set(['image', 'media', 'font', 'stylesheet', 'manifest', 'texttrack', 'eventsource', 'websocket']);

export interface RequestGuardOptions {
  allowPrivateHosts?: boolean;
  resolveHost?: ResolveHost;
}

/**
 * Every request a browser page makes passes the same checks as a plain GET: no private
 * hosts (a forum page must not reach into the local network), no decoration.
 */
export function requestGuard(opts: RequestGuardOptions): (route: Route) => Promise<void> {
  return async (route) => {
    const request = route.request();
    if (SKIPPED_RESOURCES.has(request.resourceType())) {
      await route.abort('blockedbyclient').catch(() => {});
      return;
    }
    try {
      await assertPublicUrl(request.url(), {
        ...(opts.allowPrivateHosts !== undefined ? { allowPrivate: opts.allowPrivateHosts } : {}),
        ...(opts.resolveHost ? { resolve: opts.resolveHost } : {}),
      });
    } catch (error) {
      if (error instanceof FetchError) {
        await route.abort('blockedbyclient').catch(() => {});
        return;
      }
      throw error;
    }
    await route.continue().catch(() => {});
  };
}
