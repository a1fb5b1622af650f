import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabaseUrl } from '../src/db/testing.ts';

const run = promisify(execFile);

describe('CLI: open-moderation users', () => {
  let env: Record<string, string>;
  let dataDir: string;
  let drop: () => Promise<void>;
  before(async () => {
    const target = await createTestDatabaseUrl();
    drop = target.drop;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'om-cli-'));
    env = { ...(process.env as Record<string, string>), DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    if (target.url) env.DATABASE_URL = target.url;
    else delete env.DATABASE_URL;
  });
  after(async () => {
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const cli = async (...args: string[]) => {
    try {
      const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { env, timeout: 300_000 });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };

  // Each CLI run starts a process and opens the store (seconds on a busy machine): few runs, each checked.
  test('create, set-role, reset-password and list change what they say, and refuse what they cannot do', async () => {
    assert.equal((await cli('projects', 'create', '--name', 'CLI project')).code, 0);
    const created = await cli('users', 'create', '--email', 'Ann@Example.test', '--name', 'Ann', '--role', 'admin');
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /<ann@example\.test> created, admin of project proj_/);
    assert.ok(/One-time password[^:]*: (\S{20,})/.test(created.stdout));

    const badRole = await cli('users', 'create', '--email', 'bob@example.test', '--role', 'owner');
    assert.notEqual(badRole.code, 0);
    assert.match(badRole.stderr, /Unknown role "owner"/);

    const demoteLast = await cli('users', 'set-role', '--email', 'ann@example.test', '--role', 'moderator');
    assert.notEqual(demoteLast.code, 0);
    assert.match(demoteLast.stderr, /last admin/);
    assert.doesNotMatch(demoteLast.stdout, /is now/);

    const missing = await cli('users', 'reset-password', '--email', 'nobody@example.test');
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /not found/);
    assert.doesNotMatch(missing.stdout, /reset/);

    const listed = await cli('users', 'list');
    assert.match(listed.stdout, /ann@example\.test .*:admin .*\(one-time password\)/, 'still admin after the refused demotion');
    assert.doesNotMatch(listed.stdout, /bob@/, 'a refused create leaves no user behind');
  });
});
