/**
 * `npx tsx training/dev.ts [--only a,b]`: trains the models without the dev
 * split of the TRAIN data (OPEN_MODERATION_DEV_HOLDOUT=1) and scores them on
 * it. This is where variants, sentences and thresholds are compared; the
 * evaluation-only sets are never consulted here. OPEN_MODERATION_EMBEDDING_MODELS=all|none|a,b
 * overrides which models use the word-embedding features. OPEN_MODERATION_DEV_PASSAGE_SEED=n adds n to
 * the seeds of the dev passages, so a passage-level difference can be checked on other arrangements.
 * OPEN_MODERATION_YOUTUBE_DEV_VIDEO=01|04|07|08 also leaves that YouTube video out and scores spam on it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

process.env.OPEN_MODERATION_DEV_HOLDOUT = '1';
const { trainAll, passages } = await import('./train-all.ts');
const { davidson, hasLink, probeLines, ownSentences, smsSpam, youtubeSpam } = await import('./datasets.ts');
const { expandIdentityTemplates } = await import('./identity.ts');
const { obfuscate } = await import('./obfuscate.ts');
const { averagePrecision, rocAuc, thresholdMetrics } = await import('./metrics.ts');
const { lexiconHits, lexiconIndex } = await import('../src/core/classifiers/lexicons.ts');
const { tokensOf } = await import('../src/core/classifiers/features.ts');
const { loadModels } = await import('../src/core/classifiers/models.ts');
const { classifierPolicies } = await import('../src/core/classifiers/index.ts');

const { values } = parseArgs({ options: { only: { type: 'string' } } });
const only = values.only ? new Set(values.only.split(',')) : new Set(['toxicity', 'hate', 'sexual', 'violence', 'self_harm', 'spam']);
const directory = mkdtempSync(join(tmpdir(), 'om-dev-'));
const { calibrations } = trainAll(directory, only, () => {});
loadModels(directory);
const policies = new Map(classifierPolicies.map((p) => [p.id, p]));
const probability = (policyId: string, text: string): number =>
  (policies.get(policyId)!.evaluate(text, { id: policyId, flag: true }, { fieldKey: null, original: text, analyses: new Map() }) as { probability: number }).probability;

const dev = (name: string) => ownSentences(name, 'dev');
const identity = expandIdentityTemplates('dev');
const davDev = davidson('dev');
const davBy = (klass: number) => davDev.filter((e) => e.klass === klass).map((e) => e.text);
const benignOwn = [...dev('neutral'), ...dev('hard_negatives')];

function report(label: string, policyId: string, positives: string[], negatives: string[]): { scores: number[]; labels: number[] } {
  const scores = [...positives, ...negatives].map((t) => probability(policyId, t));
  const labels = [...positives.map(() => 1), ...negatives.map(() => 0)];
  const auc = rocAuc(scores, labels);
  const ap = averagePrecision(scores, labels);
  const at = thresholdMetrics(scores, labels, 0.5);
  console.log(`${label.padEnd(44)} ${policyId.padEnd(10)} +${String(positives.length).padEnd(5)} -${String(negatives.length).padEnd(6)} AUC ${auc.toFixed(3)} AP ${ap.toFixed(3)}  P ${at.precision.toFixed(3)} R ${at.recall.toFixed(3)} F1 ${at.f1.toFixed(3)} TNR ${(scores.slice(positives.length).filter((x) => x < 0.5).length / Math.max(1, negatives.length)).toFixed(3)}`);
  return { scores, labels };
}

/** F1 with the threshold picked on the other half of the rows (even/odd), pooled: the spam boundary is fit on dev, so plain dev F1 is optimistic. */
function crossFittedF1(scores: number[], labels: number[]): { precision: number; recall: number; f1: number } {
  const bestThreshold = (indices: number[]): number => {
    const candidates = [...new Set(indices.map((i) => scores[i]!))].sort((a, b) => a - b);
    let best = 0.5;
    let bestF1 = -1;
    for (const t of candidates) {
      const f1 = thresholdMetrics(indices.map((i) => scores[i]!), indices.map((i) => labels[i]!), t).f1;
      if (f1 > bestF1) [bestF1, best] = [f1, t];
    }
    return best;
  };
  const even = scores.map((_, i) => i).filter((i) => i % 2 === 0);
  const odd = scores.map((_, i) => i).filter((i) => i % 2 === 1);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const [fit, apply] of [[even, odd], [odd, even]] as const) {
    const t = bestThreshold(fit);
    for (const i of apply) {
      const predicted = scores[i]! >= t;
      if (predicted && labels[i] === 1) tp++;
      else if (predicted) fp++;
      else if (labels[i] === 1) fn++;
    }
  }
  const precision = tp / Math.max(1, tp + fp);
  const recall = tp / Math.max(1, tp + fn);
  return { precision, recall, f1: (2 * tp) / Math.max(1, 2 * tp + fp + fn) };
}

/** Texts with no hit in the violence, threat or gore lexicons (insults and hate without violent words). */
const nonViolent = (items: string[]): string[] =>
  items.filter((t) => {
    const hits = lexiconHits(tokensOf(t));
    return ['violence', 'threat', 'gore'].every((name) => hits.scores[lexiconIndex(name)] === 0);
  });

const others = (exclude: string) => ['violence', 'sexual', 'self_harm', 'harassment', 'hate', 'flirtation'].filter((n) => n !== exclude).flatMap(dev);
// Dev lines inside paragraphs of dev neutral and hard-negative lines (as training builds its passages), for length and register.
const passageFillers = [...dev('neutral'), ...dev('hard_negatives')];
const seedOffset = Number(process.env.OPEN_MODERATION_DEV_PASSAGE_SEED ?? 0);
if (only.has('violence')) {
  // Hate lines with violent words (threats against groups) are ambiguous for violence and are left out of its negatives.
  const violenceNegatives = [...benignOwn, ...['sexual', 'self_harm', 'harassment', 'flirtation'].flatMap(dev), ...nonViolent(dev('hate'))];
  report('own violence vs own benign+other', 'violence', dev('violence'), violenceNegatives);
  report('own violence vs davidson dev (all)', 'violence', dev('violence'), davDev.map((e) => e.text));
  report('own violence vs violent-vocabulary negatives', 'violence', dev('violence'), [...violenceNegatives, ...dev('nonprotected_abuse')].filter((t) => !nonViolent([t]).length));
  const hateDev = [...dev('hate'), ...identity.hateful];
  const violentHateDev = hateDev.filter((t) => !nonViolent([t]).length);
  report('hate dev: with violent words vs without', 'violence', violentHateDev, nonViolent(hateDev));
  report('passages: own violence vs negatives', 'violence', passages(dev('violence'), passageFillers, 501 + seedOffset, 2), passages([...violenceNegatives, ...dev('nonprotected_abuse')], passageFillers, 502 + seedOffset, 1));
  report('own violence vs non-violent abuse', 'violence', dev('violence'), nonViolent([...dev('harassment'), ...dev('hate'), ...dev('nonprotected_abuse'), ...identity.hateful, ...davBy(0), ...davBy(1)]));
}
if (only.has('sexual')) {
  report('own sexual vs own benign+other+davidson', 'sexual', dev('sexual'), [...benignOwn, ...others('sexual'), ...davBy(2)]);
  report('passages: own sexual vs own benign+other', 'sexual', passages(dev('sexual'), passageFillers, 503 + seedOffset, 2), passages([...benignOwn, ...others('sexual')], passageFillers, 504 + seedOffset, 1));
}
if (only.has('self_harm')) {
  report('own self_harm vs own benign+other', 'self_harm', dev('self_harm'), [...benignOwn, ...others('self_harm')]);
  report('passages: own self_harm vs own benign+other', 'self_harm', passages(dev('self_harm'), passageFillers, 505 + seedOffset, 2), passages([...benignOwn, ...others('self_harm')], passageFillers, 506 + seedOffset, 1));
}
if (only.has('hate')) {
  report('davidson dev hate vs rest', 'hate', davBy(0), [...davBy(1), ...davBy(2)]);
  report('identity templates dev', 'hate', identity.hateful, identity.benign);
  report('passages: own hate vs own benign+identity-benign', 'hate', passages(dev('hate'), passageFillers, 507 + seedOffset, 2), passages([...benignOwn, ...dev('identity_benign'), ...dev('nonprotected_abuse')], passageFillers, 508 + seedOffset, 1));
  report('identity templates dev, obfuscated spellings', 'hate', obfuscate(identity.hateful, 401), obfuscate(identity.benign, 402));
  report('own hate vs identity-benign, obfuscated', 'hate', obfuscate(dev('hate'), 403), obfuscate(dev('identity_benign'), 404));
  report('own hate vs own benign+identity-benign', 'hate', dev('hate'), [...benignOwn, ...dev('identity_benign'), ...identity.benign]);
  report('own hate vs abuse of non-protected targets', 'hate', dev('hate'), dev('nonprotected_abuse'));
}
if (only.has('toxicity')) {
  report('davidson dev offensive|hate vs neither', 'toxicity', [...davBy(0), ...davBy(1)], davBy(2));
  report('passages: own harassment+hate vs own benign', 'toxicity', passages([...dev('harassment'), ...dev('hate')], passageFillers, 509 + seedOffset, 1), passages([...benignOwn, ...dev('identity_benign')], passageFillers, 510 + seedOffset, 1));
  report('identity templates dev', 'toxicity', identity.hateful, identity.benign);
  report('own harassment+hate vs own benign', 'toxicity', [...dev('harassment'), ...dev('hate')], [...benignOwn, ...dev('identity_benign'), ...identity.benign]);
}
// Round 8: held-out dev lines set among held-out round-8 paragraphs (longer benign texts of other registers), against
// those paragraphs alone. The paragraphs' author also wrote the lines, so read it as optimistic.
const paragraphDev = dev('paragraphs');
if (paragraphDev.length > 0) {
  const paragraphNegatives = passages(paragraphDev, paragraphDev, 520 + seedOffset, 2);
  for (const [policyId, positives] of [['violence', dev('violence')], ['hate', dev('hate')], ['sexual', dev('sexual')], ['self_harm', dev('self_harm')], ['toxicity', [...dev('harassment'), ...dev('hate')]]] as const) {
    if (only.has(policyId)) report(`among paragraphs: own ${policyId} vs paragraphs`, policyId, passages(positives, paragraphDev, 521 + seedOffset, 1), paragraphNegatives);
  }
}
// Round 7: ordinary messages that should pass. The probe file is never trained on; the everyday dev lines are the
// held-out part of training/sentences/everyday.txt. Printed: how many score at or above the default threshold of 0.5.
// Round 13: sexual texts that name a group (never trained on), which should flag sexual and nothing else.
const { withoutHarmWords } = await import('./train-all.ts');
const probe = probeLines('everyday');
const smsHamDev = smsSpam('dev').filter((e) => e.label === 0).map((e) => e.text);
for (const policyId of ['toxicity', 'hate', 'sexual', 'violence', 'self_harm', 'flirtation', 'spam']) {
  if (!only.has(policyId)) continue;
  for (const [label, lines] of [['everyday probe (never trained on)', probe], ['everyday dev lines', dev('everyday')], ['paragraphs dev lines (round 8)', dev('paragraphs')], ['SMS ham dev rows, without harm words', withoutHarmWords(smsHamDev)], ['SMS ham dev rows, all', smsHamDev], ['sexual texts naming a group (probe)', probeLines('sexual_identity')]] as const) {
    const scores = lines.map((t) => probability(policyId, t));
    const flagged = lines.filter((_, i) => scores[i]! >= 0.5);
    const mean = scores.reduce((a, b) => a + b, 0) / Math.max(1, scores.length);
    console.log(`${label.padEnd(44)} ${policyId.padEnd(10)} mean ${mean.toFixed(3)} flagged ${flagged.length}/${lines.length}${flagged.length ? `: ${flagged.slice(0, 4).map((t) => JSON.stringify(t.slice(0, 40))).join(', ')}` : ''}`);
  }
}
for (const policyId of ['spam', 'self_promotion']) {
  if (!only.has(policyId)) continue;
  // Ordinary tweets (round 16): the spam model once flagged many of them for a link alone.
  const davidsonFlags = davDev.filter((e) => probability(policyId, e.text) >= 0.5).length;
  const withLink = davDev.filter((e) => hasLink(e.text));
  const linkFlags = withLink.filter((e) => probability(policyId, e.text) >= 0.5).length;
  console.log(`${'Davidson dev rows (tweets of all classes)'.padEnd(44)} ${policyId.padEnd(10)} flagged ${davidsonFlags}/${davDev.length}, with a link ${linkFlags}/${withLink.length}`);
  const youtubeDev = youtubeSpam('dev');
  if (youtubeDev.length > 0)
    report(`YouTube video ${process.env.OPEN_MODERATION_YOUTUBE_DEV_VIDEO} (left out)`, policyId, youtubeDev.filter((e) => e.label === 1).map((e) => e.text), youtubeDev.filter((e) => e.label === 0).map((e) => e.text));
}
if (only.has('spam')) {
  const sms = smsSpam('dev');
  const { scores, labels } = report('SMS train-part dev split', 'spam', sms.filter((e) => e.label === 1).map((e) => e.text), sms.filter((e) => e.label === 0).map((e) => e.text));
  if (process.env.OPEN_MODERATION_DEV_SCORES) writeFileSync(process.env.OPEN_MODERATION_DEV_SCORES, JSON.stringify({ scores, labels, calibration: calibrations.spam }));
  const cross = crossFittedF1(scores, labels);
  console.log(`${'SMS dev, threshold cross-fitted on halves'.padEnd(44)} spam       P ${cross.precision.toFixed(3)} R ${cross.recall.toFixed(3)} F1 ${cross.f1.toFixed(3)}`);
}
rmSync(directory, { recursive: true, force: true });
