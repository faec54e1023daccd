import type { EngineId } from '../model/engine.js';
import type { PublishHttp } from './http.js';
import { PublishConfigError, type Publisher } from './publisher.js';
import { findMarkerInThread, findPasteInThread } from './thread-scan.js';

/**
 * No credentials: Votal never posts. The approved votal is handed to the GM to copy and
 * paste, as it is (no marker: a player quoting the post would see one); `findPasted` reads
 * the public thread for the GM's post that holds its words. `find` (a marker) still finds
 * votals copied before markers were left out.
 */
export function copyPublisher(opts: { threadUrl: string; engine: EngineId | null; http: PublishHttp }): Publisher {
  return {
    kind: 'copy',
    async find(marker) {
      if (!opts.engine) return null;
      return findMarkerInThread({ threadUrl: opts.threadUrl, engine: opts.engine, http: opts.http }, marker);
    },
    async findPasted(votal) {
      if (!opts.engine) return null;
      return findPasteInThread({ threadUrl: opts.threadUrl, engine: opts.engine, http: opts.http }, votal);
    },
    async post() {
      throw new PublishConfigError(
        'this game has no way to post configured: copy the votal and paste it into the thread',
      );
    },
  };
}

/** The text the GM copies: the draft's body, without a marker. */
export function copiedText(body: string): string {
  return body.replace(/\s+$/, '');
}
