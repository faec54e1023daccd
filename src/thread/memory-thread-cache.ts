import { CachedThread, type ThreadCache } from './thread-cache.js';

/** A ThreadCache in memory: one process's polls of a thread, and tests. */
export class MemoryThreadCache implements ThreadCache {
  private readonly threads = new Map<string, string>();

  async get(threadUrl: string): Promise<CachedThread | null> {
    const json = this.threads.get(threadUrl);
    // A copy: the reader may change what it gets without touching what is kept.
    return json === undefined ? null : CachedThread.parse(JSON.parse(json));
  }

  async put(thread: CachedThread): Promise<void> {
    this.threads.set(thread.threadUrl, JSON.stringify(CachedThread.parse(thread)));
  }
}
