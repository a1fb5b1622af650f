import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirInUseError, LOCK_FILE_NAME, lockDataDir } from './data-dir-lock.ts';
import { openDatabase } from './database.ts';

test('a second opener of one embedded data directory is refused until the first closes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'om-lock-'));
  try {
    const first = await openDatabase({ databaseUrl: null, dataDir: dir });
    await assert.rejects(openDatabase({ databaseUrl: null, dataDir: dir }), (error: unknown) => {
      assert.ok(error instanceof DataDirInUseError);
      assert.equal(error.pid, process.pid);
      return true;
    });
    await first.close();
    assert.equal(existsSync(join(dir, LOCK_FILE_NAME)), false);
    const again = await openDatabase({ databaseUrl: null, dataDir: dir });
    await again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a lock left by a process that died is taken over', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'om-lock-'));
  try {
    // A real pid that is certainly gone: a child that has already exited.
    const child = spawn(process.execPath, ['-e', '']);
    const deadPid = child.pid!;
    await new Promise((resolve) => child.once('exit', resolve));
    writeFileSync(join(dir, LOCK_FILE_NAME), `${deadPid}\n`);
    const release = lockDataDir(dir);
    release();
    assert.equal(existsSync(join(dir, LOCK_FILE_NAME)), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
