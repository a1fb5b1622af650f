#!/usr/bin/env node
// Runs every unit test (src/**/*.test.ts, training/**/*.test.ts) and API-level test (test/**/*.test.ts)
// with node's test runner, and fails when no test ran at all.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

function collect(dir) {
  const out = [];
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...collect(path));
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const filter = process.argv.slice(2);
let files = [...collect('src'), ...collect('training'), ...collect('test')].sort();
if (filter.length > 0) files = files.filter((f) => filter.some((part) => f.includes(part)));
if (files.length === 0) {
  console.error('No test files found.');
  process.exit(1);
}

const store = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
console.log(`Running ${files.length} test files on ${store}`);
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', `--test-concurrency=${process.env.TEST_CONCURRENCY ?? 2}`, ...files],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
// The runner's summary lines ("ℹ pass N", "ℹ fail N") are read as they stream by.
let passed = 0;
let failed = 0;
createInterface({ input: child.stdout }).on('line', (line) => {
  process.stdout.write(`${line}\n`);
  const summary = /^ℹ (pass|fail) (\d+)$/.exec(line);
  if (summary?.[1] === 'pass') passed = Number(summary[2]);
  if (summary?.[1] === 'fail') failed = Number(summary[2]);
});
child.on('close', (code) => {
  console.log(`${passed} passed, ${failed} failed`);
  if (passed + failed === 0) {
    console.error('No test ran.');
    process.exit(1);
  }
  process.exit(code ?? 1);
});
