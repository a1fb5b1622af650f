import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { REPO_ROOT } from './paths.ts';
import { trainAll, type ManifestModel } from '../../../training/train-all.ts';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

test('retraining reproduces the committed weights byte for byte', () => {
  const committed = JSON.parse(readFileSync(resolve(REPO_ROOT, 'models/manifest.json'), 'utf8')) as { models: ManifestModel[] };
  const directory = mkdtempSync(join(tmpdir(), 'om-train-'));
  try {
    const only = new Set(['spam', 'self_promotion', 'self_harm']);
    trainAll(directory, only, () => {});
    for (const name of only) {
      const expected = committed.models.find((m) => m.name === name);
      assert.ok(expected, `${name} missing from the manifest`);
      assert.equal(sha256(readFileSync(join(directory, expected.file))), sha256(readFileSync(resolve(REPO_ROOT, 'models', expected.file))), name);
      assert.equal(sha256(readFileSync(join(directory, expected.file))), expected.sha256, `${name} manifest hash`);
    }
    assert.equal(sha256(readFileSync(join(directory, 'profanity-terms.json'))), sha256(readFileSync(resolve(REPO_ROOT, 'models/profanity-terms.json'))));
    const vectors = (JSON.parse(readFileSync(resolve(REPO_ROOT, 'models/manifest.json'), 'utf8')) as { wordVectors: { file: string; sha256: string } }).wordVectors;
    assert.equal(sha256(readFileSync(join(directory, vectors.file))), vectors.sha256, 'word vectors manifest hash');
    assert.equal(sha256(readFileSync(join(directory, vectors.file))), sha256(readFileSync(resolve(REPO_ROOT, 'models', vectors.file))), 'word vectors');
    // A folder trained into declares the featurizer it was trained with, so loading it from there scores as trained.
    const featurizer = (path: string) => (JSON.parse(readFileSync(path, 'utf8')) as { featurizer: unknown }).featurizer;
    assert.deepEqual(featurizer(join(directory, 'manifest.json')), featurizer(resolve(REPO_ROOT, 'models/manifest.json')));
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});
