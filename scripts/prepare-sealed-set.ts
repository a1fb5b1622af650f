/**
 * Readies a newly written judged set (a sealed test set, or the realistic dev set) before it is ever scored (run
 * once, when the set is made): drops its lines that resemble a training line (every corpus file on disk and every
 * hand-written sentence file) or a line of the other judged sets, by the same resemblance that keeps sealed lines
 * out of training
 * (training/corpus.ts, resemblingLines), then numbers the ids per language in file order (`<prefix>-<lang>-0001`).
 * Only counts are printed: nobody reads the set's lines to prepare it.
 *
 *   npx tsx scripts/prepare-sealed-set.ts --dir evaluation/sealed-2 --prefix s2 --other evaluation/sealed
 *   npx tsx scripts/prepare-sealed-set.ts --dir training/dev-realistic --prefix d --other evaluation/sealed,evaluation/sealed-2
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../src/core/classifiers/paths.ts';
import { CORPUS_DIR, heldOutTexts, loadCorpus, resemblingLines } from '../training/corpus.ts';
import { ownSentences } from '../training/datasets.ts';

const { values } = parseArgs({ options: { dir: { type: 'string' }, prefix: { type: 'string' }, other: { type: 'string' } } });
if (!values.dir || !values.prefix || !values.other) throw new Error('usage: --dir <new set> --prefix <id prefix> --other <earlier judged sets, comma-separated>');
const directory = resolve(REPO_ROOT, values.dir);

// The hand-written sentences as training reads them (comments skipped, templates expanded), every line.
const sentenceLines = readdirSync(resolve(REPO_ROOT, 'training/sentences'))
  .filter((name) => name.endsWith('.txt'))
  .flatMap((name) => ownSentences(name.slice(0, -'.txt'.length), 'all'));
const references: Array<[string, string[]]> = [
  ['the training corpus (every file on disk)', loadCorpus(CORPUS_DIR, null, []).messages.map((m) => m.text)],
  ['training/sentences', sentenceLines],
  ...values.other.split(',').map((other): [string, string[]] => {
    const texts = heldOutTexts([resolve(REPO_ROOT, other)]);
    if (texts.length === 0) throw new Error(`--other ${other}: no lines found`);
    return [other, texts];
  }),
];

const files = readdirSync(directory)
  .filter((name) => name.endsWith('.jsonl'))
  .sort();
const rows = files.flatMap((file) =>
  readFileSync(resolve(directory, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => ({ file, row: JSON.parse(line) as Record<string, unknown> & { text: string; lang: string } })),
);
const texts = rows.map(({ row }) => row.text);
const dropped = new Set<number>();
for (const [name, reference] of references) {
  const found = resemblingLines(texts, reference);
  console.log(`${found.size} of ${texts.length} lines resemble a line of ${name}`);
  for (const index of found) dropped.add(index);
}
// Within the set too: the later of two resembling lines goes.
texts.forEach((text, index) => {
  if (!dropped.has(index) && resemblingLines([text], texts.slice(0, index).filter((_, earlier) => !dropped.has(earlier))).size > 0) dropped.add(index);
});

const numberPerLanguage = new Map<string, number>();
const byFile = new Map<string, string[]>(files.map((file) => [file, []]));
rows.forEach(({ file, row }, index) => {
  if (dropped.has(index)) return;
  const number = (numberPerLanguage.get(row.lang) ?? 0) + 1;
  numberPerLanguage.set(row.lang, number);
  byFile.get(file)!.push(JSON.stringify({ ...row, id: `${values.prefix}-${row.lang}-${String(number).padStart(4, '0')}` }));
});
for (const [file, lines] of byFile) writeFileSync(resolve(directory, file), lines.length ? `${lines.join('\n')}\n` : '');
console.log(`${dropped.size} dropped in all; kept per language: ${[...numberPerLanguage].map(([lang, n]) => `${lang} ${n}`).join(', ')}`);
