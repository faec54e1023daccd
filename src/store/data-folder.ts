import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Entries checked at most when tightening an existing data folder (a store holds ~1000 files). */
const MAX_ENTRIES = 100_000;

/**
 * The embedded data folder holds the database, the admin token and password hash, and
 * sealed forum logins: only Votal's user may read it. Makes the folder 0700; an existing
 * folder, or files in it, open to others are tightened (0700 folders, 0600 files) with a
 * warning naming the folder. The process umask is tightened to 077 first, so files
 * PGlite and Votal create from now on are private too.
 */
export async function privateDataFolder(folder: string, warn: (message: string) => void): Promise<void> {
  tightenUmask();
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const loose = await makePrivate(folder);
  if (loose > 0) {
    warn(
      `the data folder ${folder} was readable or writable by other users (${loose} ` +
        `${loose === 1 ? 'entry' : 'entries'}); made it private to this user (folders 0700, files 0600)`,
    );
  }
}

/**
 * Takes group and other permissions off everything under `folder` (symbolic links are
 * not followed); returns how many entries needed it. Also run after PGlite makes a new
 * database: it unpacks its initial files with an explicit chmod 0666, which no umask stops.
 */
export async function makePrivate(folder: string): Promise<number> {
  let loose = 0;
  const pending = [folder];
  let seen = 0;
  // A walk with an explicit stack and a cap: no recursion, bounded on a hostile tree.
  while (pending.length > 0 && seen < MAX_ENTRIES) {
    const path = pending.pop()!;
    seen++;
    const info = await lstat(path);
    if (info.isSymbolicLink()) continue; // chmod would follow it out of the folder
    const wanted = info.isDirectory() ? 0o700 : 0o600;
    if ((info.mode & 0o077) !== 0) {
      await chmod(path, info.mode & wanted);
      loose++;
    }
    if (info.isDirectory()) for (const name of await readdir(path)) pending.push(join(path, name));
  }
  return loose;
}

/** Adds 077 to the process umask (never loosens it). Worker threads have no umask of their own. */
function tightenUmask(): void {
  try {
    const current = process.umask(0o077);
    process.umask(current | 0o077);
  } catch {
    // Not in a worker thread's power; the folder walk above still fixed what exists.
  }
}
