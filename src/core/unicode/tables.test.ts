import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SOURCE_HASHES, UNICODE_VERSION } from './generated/tables.ts';
import { FLAGS, F, LOOKALIKE, STYLED_FOLD } from './tables.ts';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');

test('committed tables match a fresh regeneration from the pinned sources', () => {
  const out = mkdtempSync(join(tmpdir(), 'unicode-tables-'));
  try {
    execFileSync(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts/generate-unicode.ts'), '--out', out], {
      cwd: repoRoot,
      stdio: 'pipe',
    });
    const fresh = readFileSync(join(out, 'tables.ts'), 'utf8');
    const committed = readFileSync(join(here, 'generated/tables.ts'), 'utf8');
    assert.ok(fresh === committed, 'src/core/unicode/generated/tables.ts is stale: run npm run generate:unicode');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('tables are stamped with the Unicode version and source hashes', () => {
  assert.equal(UNICODE_VERSION, '17.0.0');
  assert.match(SOURCE_HASHES[`unicode-security/${UNICODE_VERSION}/confusables.txt`] ?? '', /^[0-9a-f]{64}$/);
});

test('generated tables stay compact', () => {
  const size = readFileSync(join(here, 'generated/tables.ts')).length;
  assert.ok(size < 512 * 1024, `tables are ${size} bytes`);
});

test('expanded tables carry the expected facts', () => {
  assert.ok(FLAGS[0x41]! & F.LETTER);
  assert.ok(FLAGS[0x20]! & F.SEPARATOR);
  assert.ok(FLAGS[0x200b]! & F.INVISIBLE);
  assert.ok(FLAGS[0x07]! & F.ILLEGAL);
  assert.ok(FLAGS[0xfdd0]! & F.ILLEGAL);
  assert.ok(FLAGS[0x0301]! & F.ORTHO_MARK);
  assert.equal(FLAGS[0x0489]! & F.ORTHO_MARK, 0);
  assert.equal(LOOKALIKE.Latin!.get(0x0430), 0x61); // Cyrillic а → a
  assert.equal(LOOKALIKE.Cyrillic!.get(0x6f), 0x043e); // Latin o → Cyrillic о
  assert.equal(STYLED_FOLD.get(0x1d41a), 0x61); // mathematical bold a
  assert.equal(STYLED_FOLD.get(0x1f17c), 0x4d); // negative squared M
  assert.equal(STYLED_FOLD.get(0xa730), 0x66); // small capital F
  assert.equal(STYLED_FOLD.has(0x30ab), false); // katakana is never folded
});
