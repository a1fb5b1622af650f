import fs from 'node:fs';
import path from 'node:path';

/**
 * One process at a time on an embedded store: PGlite has no postmaster of its own to refuse a second
 * opener, and two processes writing one data directory lose each other's commits (a CLI revocation
 * that the running server never sees, then undoes at its next checkpoint).
 */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The data directory ${dataDir} is in use by another Open Moderation process (pid ${pid}). ` +
        'Stop that process first, or make the change through its API or dashboard; nothing was changed.',
    );
    this.name = 'DataDirInUseError';
  }
}

export const LOCK_FILE_NAME = 'open-moderation.pid';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the directory's lock for this process; returns the function that releases it. */
export function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, LOCK_FILE_NAME);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        fs.rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
    if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) throw new DataDirInUseError(dataDir, holder);
    // Left behind by a process that died: removed, then taken like a free one (a racing opener
    // loses at the exclusive create above).
    fs.rmSync(file, { force: true });
  }
  throw new Error(`Could not take the lock ${file}`);
}
