import type { PastedVotal } from '../votal/pasted-votal.js';

/**
 * Publishing an approved votal: the port every way of posting implements.
 *
 * A publisher posts one message into the game's thread (`post`) and can look for a
 * message carrying a marker among the thread's last posts (`find`). The publishing
 * service (`publish-draft.ts`) always looks before it posts, which is what makes posting
 * idempotent: a reply the forum accepted but never confirmed (a timeout, a dropped
 * connection, a crash) is found by its marker instead of being posted again.
 */

export type PublisherKind = 'discourse-api' | 'xenforo-api' | 'form' | 'copy';

/** Where a published votal landed. */
export interface RemotePost {
  /** The forum's post id, when known. */
  id: string | null;
  /** A link to the post (or to the thread) when known. */
  url: string | null;
}

export interface Publisher {
  readonly kind: PublisherKind;
  /**
   * The post among the thread's last posts whose text carries `marker`, or null when none
   * does. Throws PublishError when the thread cannot be read: then nothing may be posted.
   */
  find(marker: string): Promise<RemotePost | null>;
  /**
   * The GM's paste of a copied votal (which carries no marker) among the thread's last
   * posts, found by its words; null when it is not there (yet). Publishers that read the
   * thread implement it.
   */
  findPasted?(votal: PastedVotal): Promise<RemotePost | null>;
  /** Sends the message once (no retries here). Throws PublishError. */
  post(message: string): Promise<RemotePost>;
}

/**
 * Posting went wrong. `outcome` says what is known about the forum's side:
 * - `rejected`: the forum did not take the post (4xx, a form error, nothing was sent);
 * - `unknown`: it may have (timeout after sending, dropped connection, 5xx): look for
 *   the marker before trying again.
 * `retryable`: trying again later may succeed (throttling, timeouts, server errors).
 */
export class PublishError extends Error {
  constructor(
    message: string,
    readonly outcome: 'rejected' | 'unknown',
    readonly retryable: boolean,
    readonly status: number | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PublishError';
  }
}

/** The game has no way to post configured, or the configured one lacks something. */
export class PublishConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PublishConfigError';
  }
}
