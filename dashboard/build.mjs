#!/usr/bin/env node
// Builds the dashboard into dashboard/dist when the output is missing or was built from other
// sources. Runs after `npm install` / `npm ci` (postinstall) and before `npm start` (prestart), so
// `npm install && npm start` stays the whole set-up. `--force` rebuilds regardless.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));
const dist = join(root, 'dist');
const stampFile = join(dist, '.source-hash');

function files(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path));
    else out.push(path);
  }
  return out;
}

/** A hash of everything the build reads: sources, config and the exact versions installed. */
export function sourceHash() {
  const hash = createHash('sha256');
  const inputs = [...files(join(root, 'src')), ...files(join(root, 'public')), join(root, 'index.html'), join(root, 'vite.config.ts'), join(root, '..', 'package-lock.json')];
  for (const path of inputs) {
    hash.update(relative(root, path));
    hash.update('\0');
    hash.update(readFileSync(path));
    hash.update('\0');
  }
  return hash.digest('hex');
}

export async function ensureDashboardBuilt({ force = false, quiet = false } = {}) {
  const wanted = sourceHash();
  if (!force && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === wanted) return false;
  const started = Date.now();
  const { build } = await import('vite');
  // Built beside dist, then swapped in: a server or a second build (test files start in parallel)
  // never sees a half-written dist.
  const staging = join(root, `.dist-${process.pid}-${Date.now()}`);
  try {
    await build({ configFile: join(root, 'vite.config.ts'), logLevel: quiet ? 'error' : 'warn', build: { outDir: staging, emptyOutDir: true } });
    writeFileSync(join(staging, '.source-hash'), wanted);
    rmSync(dist, { recursive: true, force: true });
    try {
      renameSync(staging, dist);
    } catch (error) {
      // Another build finished first with the same sources: keep its output.
      if (!(existsSync(stampFile) && readFileSync(stampFile, 'utf8') === wanted)) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  if (!quiet) process.stdout.write(`Dashboard built into dashboard/dist in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  ensureDashboardBuilt({ force: process.argv.includes('--force') }).catch((error) => {
    process.stderr.write(`Dashboard build failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
