import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { SEALED_LANGUAGES, loadSealed } from '../../../scripts/eval-realistic.ts';
import { DEV_REALISTIC_DIR, FIFTH_SEALED_DIR, FOURTH_SEALED_DIR, SEALED_DIR, SECOND_SEALED_DIR, SEVENTH_SEALED_DIR, SIXTH_SEALED_DIR, THIRD_SEALED_DIR } from '../../../training/corpus.ts';

// Counts only: no line of a sealed set is printed, even when a check fails.
for (const [name, directory, prefix] of [
  ['the first sealed set', SEALED_DIR, 's'],
  ['the second sealed set', SECOND_SEALED_DIR, 's2'],
  ['the third sealed set', THIRD_SEALED_DIR, 's3'],
  ['the fourth sealed set', FOURTH_SEALED_DIR, 's4'],
  ['the fifth sealed set', FIFTH_SEALED_DIR, 's5'],
  ['the sixth sealed set', SIXTH_SEALED_DIR, 's6'],
  ['the seventh sealed set', SEVENTH_SEALED_DIR, 's7'],
  // The dev set's third to fifth parts (rounds 36, 41 and 44) number their ids apart, so that earlier parts' ids stay as they were.
  ['the realistic dev set', DEV_REALISTIC_DIR, 'd[345]?'],
] as const) {
  test(`${name} loads whole, with issue #27's sizes and unique ids`, () => {
    const load = loadSealed(directory);
    assert.equal(load.badLines, 0, 'malformed lines');
    assert.equal(load.unknownPolicyJudgements, 0, 'judgements of unknown policies');
    assert.ok(load.messages.length >= 600, `${load.messages.length} messages`);
    for (const language of SEALED_LANGUAGES) {
      const count = load.messages.filter((m) => m.lang === language).length;
      assert.ok(count >= 100, `${language}: ${count} messages`);
    }
    const ids = readdirSync(directory)
      .filter((file) => file.endsWith('.jsonl'))
      .flatMap((file) => readFileSync(resolve(directory, file), 'utf8').split('\n').filter((line) => line.trim() !== ''))
      .map((line) => {
        try {
          return String((JSON.parse(line) as { id?: unknown }).id);
        } catch {
          return 'unparsable';
        }
      });
    assert.equal(new Set(ids).size, ids.length, 'duplicate ids');
    assert.equal(ids.filter((id) => !new RegExp(`^${prefix}-(en|es|pt|fr|de)-\\d{4}$`).test(id)).length, 0, 'ids outside the pattern');
  });
}
