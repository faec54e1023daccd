import type { EngineId } from '../model/engine.js';
import type { PublishHttp } from './http.js';
import { PublishConfigError, type Publisher } from './publisher.js';
import { findMarkerInThread } from './thread-scan.js';

/**
 * No credentials: Votal never posts. The approved votal (with its marker) is handed to
 * the GM to copy and paste; `find` reads the public thread so that Votal can tell when
 * the GM's paste has appeared (where the forum keeps the marker visible to a reader).
 */
export function copyPublisher(opts: { threadUrl: string; engine: EngineId | null; http: PublishHttp }): Publisher {
  return {
    kind: 'copy',
    async find(marker) {
      if (!opts.engine) return null;
      return findMarkerInThread({ threadUrl: opts.threadUrl, engine: opts.engine, http: opts.http }, marker);
    },
    async post() {
      throw new PublishConfigError('this game has no way to post configured: copy the votal and paste it into the thread');
    },
  };
}
