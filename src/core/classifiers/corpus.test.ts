import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusKey, corpusSplitOf, isCheckFolder, loadCorpus, SCOPED_FOLDERS, nearCopyKey, readSnapshot, resemblingLines, snapshotCorpus, unrecordedFiles, variantKey } from '../../../training/corpus.ts';
import { probeLines } from '../../../training/datasets.ts';
import { pythonStringList } from '../../../training/public-sets.ts';

const line = (fields: Record<string, unknown>) => JSON.stringify({ lang: 'en', platform: 'chat', kind: 'harmful', topic: 't', labels: ['violence'], ...fields });

test('near-copies differ only in case, spacing, punctuation or digits', () => {
  assert.equal(nearCopyKey("You're  DEAD!!! 2nite"), nearCopyKey('youre dead nite'));
  assert.notEqual(nearCopyKey('you are dead'), nearCopyKey('you are fed'));
  assert.equal(corpusSplitOf(nearCopyKey('Same text.')), corpusSplitOf(nearCopyKey('same TEXT')));
});

test('a message of symbols only is known by its symbols, not dropped as empty', () => {
  assert.equal(nearCopyKey(':)'), '');
  assert.equal(corpusKey(' :) '), corpusKey(':)'));
  assert.notEqual(corpusKey(':)'), corpusKey(':('));
  assert.notEqual(corpusKey('.'), '');
  assert.equal(corpusKey('...'), corpusKey('.'));
  assert.equal(corpusKey('<33'), corpusKey('<3'));
  assert.equal(corpusKey('20€?'), corpusKey('15€?'));
  assert.equal(corpusKey('   '), '');
  assert.equal(corpusKey('See you!'), nearCopyKey('see you'));
});

test('the corpus loader skips and counts bad lines, drops near-copies and splits by hash', () => {
  const directory = mkdtempSync(join(tmpdir(), 'om-corpus-'));
  try {
    mkdirSync(join(directory, 'writer-a'));
    mkdirSync(join(directory, 'writer-b'));
    const good = Array.from({ length: 40 }, (_, i) => line({ text: `I will find you, message number ${String.fromCharCode(97 + (i % 26), 97 + Math.floor(i / 26))}${i}` }));
    writeFileSync(
      join(directory, 'writer-a', 'a.jsonl'),
      [
        ...good,
        '{not json',
        line({ text: '' }),
        line({ text: 'fine', labels: ['murder'] }),
        line({ text: 'fine', lang: 'it' }),
        line({ text: 'harmful but unlabelled', labels: [] }),
        line({ text: 'benign with a label', kind: 'hard_negative' }),
        line({ text: 'severe implies toxicity', labels: ['toxicity_severe'] }),
        '',
      ].join('\n'),
    );
    // A near-copy in another file (kept: the first in path order), and a partial last line being written.
    writeFileSync(join(directory, 'writer-b', 'b.jsonl'), `${line({ text: 'SEVERE implies toxicity!!', labels: ['toxicity'] })}\n${line({ text: 'half written' }).slice(0, 20)}`);
    const load = loadCorpus(directory);
    assert.equal(load.files, 2);
    assert.equal(load.lines, 48);
    assert.deepEqual(load.rejected, {
      'not JSON': 1,
      'text missing or blank': 1,
      'unknown policy in labels': 1,
      'lang not one of en, es, pt, fr, de': 1,
      'harmful without labels': 1,
      'benign kind with labels': 1,
    });
    assert.equal(load.duplicates, 1);
    assert.equal(load.conflictingDuplicates, 1);
    assert.equal(load.messages.length, 41);
    const severe = load.messages.find((m) => m.text === 'severe implies toxicity');
    assert.deepEqual(severe?.labels, ['toxicity', 'toxicity_severe']);
    assert.equal(severe?.file, join('writer-a', 'a.jsonl'));
    const dev = load.messages.filter((m) => m.split === 'dev').length;
    assert.ok(dev > 0 && dev < load.messages.length, `dev ${dev} of ${load.messages.length}`);
    for (const message of load.messages) assert.equal(message.split, corpusSplitOf(corpusKey(message.text)));
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

test('C-SSRS posts are read from their Python list literal', () => {
  assert.deepEqual(pythonStringList(`['first post', "it's the second", 'a \\'quoted\\' word\\nand a line']`), ['first post', "it's the second", "a 'quoted' word\nand a line"]);
});

test('corpus lines resembling a sealed line are found: the same key, or most words shared', () => {
  const sealed = ['See you at the station at 6, bring the tickets please', 'gg ez'];
  const corpusTexts = [
    'see you at the STATION at 7!! bring the tickets please', // same key once digits go
    'See you at the station, bring the tickets please', // most words shared
    'I will bring the tickets to the station tomorrow morning before work', // some words shared, not most
    'GG EZ', // a short sealed line is matched only by its key
    'gg ez noob',
  ];
  assert.deepEqual([...resemblingLines(corpusTexts, sealed)].sort(), [0, 1, 3]);
  assert.equal(resemblingLines(corpusTexts, []).size, 0);
});

test('the loader leaves out lines resembling the texts it is given and counts them', () => {
  const directory = mkdtempSync(join(tmpdir(), 'om-corpus-sealed-'));
  try {
    writeFileSync(join(directory, 'a.jsonl'), [line({ text: 'meet me behind the gym after class, you are done' }), line({ text: 'nice shot, see you next round' })].join('\n') + '\n');
    const load = loadCorpus(directory, null, ['Meet me behind the gym after class. You are so done']);
    assert.equal(load.resemblingSealed, 1);
    assert.deepEqual(load.messages.map((m) => m.text), ['nice shot, see you next round']);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

test('no short-message probe line is a training corpus line, even with a symbol or letter repeated', () => {
  assert.equal(variantKey(':)))))'), variantKey(':)'));
  assert.equal(variantKey('ptdrrr'), variantKey('ptdr'));
  const keys = new Set(loadCorpus(undefined, readSnapshot()).messages.map((m) => variantKey(m.text)));
  const probe = probeLines('short');
  assert.ok(probe.length >= 40);
  assert.deepEqual(probe.filter((line) => keys.has(variantKey(line))), []);
});

test('files written after the snapshot are named as left out until it is recorded again', () => {
  const directory = mkdtempSync(join(tmpdir(), 'om-corpus-snapshot-'));
  try {
    mkdirSync(join(directory, 'writer-a'));
    writeFileSync(join(directory, 'writer-a', 'one.jsonl'), `${line({ text: 'first writer line' })}\n`);
    const snapshot = snapshotCorpus(directory);
    assert.deepEqual(unrecordedFiles(directory, snapshot), []);
    mkdirSync(join(directory, 'writer-b'));
    writeFileSync(join(directory, 'writer-b', 'two.jsonl'), `${line({ text: 'second writer line' })}\n`);
    assert.deepEqual(unrecordedFiles(directory, snapshot), [join('writer-b', 'two.jsonl')]);
    assert.equal(loadCorpus(directory, snapshot).messages.length, 1);
    assert.deepEqual(unrecordedFiles(directory, snapshotCorpus(directory)), []);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

test('a check folder is never read for training, with or without a snapshot', () => {
  const directory = mkdtempSync(join(tmpdir(), 'om-corpus-check-'));
  try {
    mkdirSync(join(directory, 'writer-a'));
    writeFileSync(join(directory, 'writer-a', 'one.jsonl'), `${line({ text: 'the boss fight killed me twice' })}\n`);
    mkdirSync(join(directory, 'writer-acheck'));
    writeFileSync(join(directory, 'writer-acheck', 'check.jsonl'), `${line({ text: 'gut the trout before you grill it' })}\n`);
    assert.ok(isCheckFolder('writer-acheck'));
    assert.ok(!isCheckFolder('writer-a'));
    assert.deepEqual(Object.keys(snapshotCorpus(directory)), [join('writer-a', 'one.jsonl')]);
    assert.deepEqual(unrecordedFiles(directory, {}), [join('writer-a', 'one.jsonl')]);
    assert.deepEqual(loadCorpus(directory).messages.map((m) => m.text), ['the boss fight killed me twice']);
    const listingIt = { ...snapshotCorpus(directory), [join('writer-acheck', 'check.jsonl')]: { lines: 1, sha256: 'x' } };
    assert.throws(() => loadCorpus(directory, listingIt), /check file/);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

test('a scoped folder\'s messages carry their scope and never displace another folder\'s near-copy', () => {
  const directory = mkdtempSync(join(tmpdir(), 'om-corpus-scoped-'));
  const [scopedFolder, scope] = Object.entries(SCOPED_FOLDERS)[0]!;
  try {
    // "writer-a" sorts before and "writer-zz" after the scoped folder: both keep their lines.
    for (const folder of ['writer-a', scopedFolder, 'writer-zz']) mkdirSync(join(directory, folder));
    writeFileSync(join(directory, 'writer-a', 'one.jsonl'), `${line({ text: 'first plain line here' })}\n`);
    writeFileSync(join(directory, scopedFolder, 'two.jsonl'), `${line({ text: 'Shared line, kept once!' })}\n${line({ text: 'only in the scoped folder' })}\n`);
    writeFileSync(join(directory, 'writer-zz', 'three.jsonl'), `${line({ text: 'shared line kept once' })}\n`);
    const load = loadCorpus(directory);
    assert.deepEqual(load.messages.map((m) => [m.text, m.scope ?? null]), [
      ['first plain line here', null],
      ['shared line kept once', null],
      ['only in the scoped folder', scope],
    ]);
    assert.equal(load.duplicates, 1);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});
