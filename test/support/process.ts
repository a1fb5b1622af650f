import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabaseUrl } from '../../src/db/testing.ts';

/**
 * A store that outlives one server process: a temp PGlite folder, or a fresh
 * PostgreSQL database when DATABASE_URL is set. For tests that stop, kill and
 * restart the real server, or run the CLI against it.
 */
export async function persistentStore(): Promise<{ env: Record<string, string>; dispose(): Promise<void> }> {
  const target = await createTestDatabaseUrl();
  if (target.url) return { env: { DATABASE_URL: target.url }, dispose: target.drop };
  const dir = mkdtempSync(join(tmpdir(), 'om-test-'));
  return { env: { DATA_DIR: dir }, dispose: async () => rmSync(dir, { recursive: true, force: true }) };
}

const root = new URL('../..', import.meta.url).pathname;

/** Starts `src/main.ts` as its own process; resolves with its base URL once it listens. */
export function startServerProcess(env: Record<string, string>): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: root,
      env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const collect = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /API base URL:\s+(\S+)\/v1/.exec(out);
      if (match) resolve({ child, url: match[1]!, output: () => out });
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening:\n${out}`)));
  });
}

/** The exit code (null when a signal ended the process), also for a process that has already ended. */
export const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
  );

/** Runs the CLI to completion. */
export function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/open-moderation.mjs', ...args], { cwd: root, env: { ...process.env, LOG_LEVEL: 'warn', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
