import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CachedThread, type ThreadCache } from './thread-cache.js';

/**
 * A ThreadCache as one JSON file per thread in a folder (`votal count --cache-dir`).
 * Files are written 0600 in a 0700 folder (a private board's posts are private) and
 * replaced atomically (write a temp file, rename), so a crash mid-write leaves the old
 * entry whole. An unreadable or foreign file is treated as no entry: the thread is read
 * afresh, and the next good read replaces it.
 */
export class FileThreadCache implements ThreadCache {
  constructor(
    readonly dir: string,
    /** Hears why an entry was ignored (shown to the user as a note). */
    private readonly onProblem: (message: string) => void = () => {},
  ) {}

  /** The file for a thread: a hash of its URL (URLs are not file names). */
  fileFor(threadUrl: string): string {
    return join(this.dir, `${createHash('sha256').update(threadUrl).digest('hex').slice(0, 40)}.json`);
  }

  async get(threadUrl: string): Promise<CachedThread | null> {
    const file = this.fileFor(threadUrl);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    let parsed: ReturnType<typeof CachedThread.safeParse>;
    try {
      parsed = CachedThread.safeParse(JSON.parse(text));
    } catch {
      this.onProblem(`cache file ${file} is not JSON; reading the thread afresh`);
      return null;
    }
    if (!parsed.success) {
      this.onProblem(`cache file ${file} is not a thread cache entry; reading the thread afresh`);
      return null;
    }
    // Two URLs sharing a hash prefix is not going to happen, but a copied file might.
    return parsed.data.threadUrl === threadUrl ? parsed.data : null;
  }

  async put(thread: CachedThread): Promise<void> {
    const entry = CachedThread.parse(thread);
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const file = this.fileFor(entry.threadUrl);
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(temp, JSON.stringify(entry), { mode: 0o600, flag: 'wx' });
      await rename(temp, file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }
}
