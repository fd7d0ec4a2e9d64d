/**
 * An exclusive lock on the embedded database's directory. PGlite takes no lock of its own, so two
 * processes opening one directory would corrupt it; the holder's pid and admin socket are recorded.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** What a lock file records about its holder. */
export interface LockInfo {
  pid: number;
  adminSocket?: string;
  startedAt: string;
}

/** The directory is held by another live process. */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
  readonly holder: LockInfo;
  constructor(dir: string, holder: LockInfo) {
    super(`the embedded database in ${dir} is in use by process ${holder.pid}`);
    this.holder = holder;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Path of the lock file of a data directory. */
export function lockPath(dir: string): string {
  return join(dir, 'db.lock');
}

/** Reads the current holder, or undefined when the lock is free or stale. */
export function readLock(dir: string): LockInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(lockPath(dir), 'utf8')) as LockInfo;
    return alive(info.pid) ? info : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the lock or throws DataDirLockedError; returns the release function. */
export function acquireDataDirLock(dir: string, info: Omit<LockInfo, 'pid' | 'startedAt'> = {}): () => void {
  mkdirSync(dir, { recursive: true });
  const file = lockPath(dir);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      const record: LockInfo = { pid: process.pid, startedAt: new Date().toISOString(), ...info };
      writeSync(fd, JSON.stringify(record));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.removeListener('exit', release);
        rmSync(file, { force: true });
      };
      process.on('exit', release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readLock(dir);
      if (holder) throw new DataDirLockedError(dir, holder);
      // Stale: its process is gone.
      rmSync(file, { force: true });
    }
  }
  throw new Error(`could not take the lock ${file}`);
}
