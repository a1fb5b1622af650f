/**
 * Issue #27's dev loop: trains every model without the dev messages of the realistic corpus (and without
 * the dev parts of the TRAIN sets), then scores those dev messages as the API would (scripts/eval-realistic.ts
 * apiVerdict) and prints, per policy, harmful caught and benign left alone at the shipped threshold, ROC AUC,
 * the probability cut that would catch the most while leaving at least `--target` of the benign messages alone, and the
 * "mixed" cut the shipped decision cuts come from (own look-alikes and all benign messages half each) with the
 * decisionCut it implies for train-all.ts.
 *
 *   OPEN_MODERATION_DEV_HOLDOUT=1 OPEN_MODERATION_MODELS_DIR=/tmp/om-dev npx tsx training/dev-corpus.ts [--no-train]
 *
 * Benign for a policy here means every corpus message not judged harmful for it that is a look-alike or an
 * ordinary message (the sealed set judges look-alikes and ordinary messages as benign); messages harmful for
 * other policies are reported apart.
 */
import { parseArgs } from 'node:util';
import { MODELS_DIR } from '../src/core/classifiers/paths.ts';
import { loadModels } from '../src/core/classifiers/index.ts';
import { DEV_HOLDOUT } from './datasets.ts';
import { corpus, describeCorpus, CORPUS_POLICIES, CORPUS_LANGUAGES } from './corpus.ts';
import { cutLeavingAlone, rocAuc } from './metrics.ts';
import { buildSpecs, trainAll } from './train-all.ts';
import { apiVerdict } from '../scripts/eval-realistic.ts';

const { values } = parseArgs({ options: { 'no-train': { type: 'boolean' }, only: { type: 'string' }, target: { type: 'string', default: '0.96' } } });
if (!DEV_HOLDOUT) throw new Error('set OPEN_MODERATION_DEV_HOLDOUT=1: dev messages must stay out of training');
if (!process.env.OPEN_MODERATION_MODELS_DIR) throw new Error('set OPEN_MODERATION_MODELS_DIR to a scratch folder');
const load = corpus();
console.log(`corpus: ${describeCorpus(load)}`);
if (!values['no-train']) {
  const started = Date.now();
  trainAll(MODELS_DIR, values.only ? new Set(values.only.split(',')) : undefined, () => {});
  console.log(`trained in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
loadModels(MODELS_DIR);
const dev = load.messages.filter((m) => m.split === 'dev');
/** Where the writers' file names for a policy's look-alikes do not follow "negatives-<policy without _>". */
const OWN_LOOK_ALIKE_FILES: Partial<Record<string, string>> = { self_promotion: 'negatives-selfpromo', toxicity_severe: 'negatives-toxicity' };
const specByName = new Map(buildSpecs().map((spec) => [spec.name, spec]));
const target = Number(values.target);
const pct = (a: number, b: number) => (b === 0 ? '   —  ' : `${((100 * a) / b).toFixed(1).padStart(5)}%`);
let totalHarmful = 0;
let totalCaught = 0;
let totalBenign = 0;
let totalLeft = 0;
const perLanguage = new Map<string, { h: number; c: number; b: number; l: number }>();
for (const policy of CORPUS_POLICIES) {
  const harmful: number[] = [];
  const lookAlike: number[] = [];
  const otherHarm: number[] = [];
  let caught = 0;
  let left = 0;
  let otherLeft = 0;
  // The writers name files of look-alikes after the policy they resemble ("en-negatives-violence-01.jsonl"): a
  // convention of theirs, not of the format, used here only to report the look-alikes of this policy apart.
  let ownLookAlikes = 0;
  let ownLeft = 0;
  const ownScores: number[] = [];
  const ownName = OWN_LOOK_ALIKE_FILES[policy] ?? `negatives-${policy.replace('_', '')}`;
  for (const message of dev) {
    const verdict = apiVerdict(policy, message.text);
    const language = perLanguage.get(message.lang) ?? { h: 0, c: 0, b: 0, l: 0 };
    perLanguage.set(message.lang, language);
    if (message.labels.includes(policy)) {
      harmful.push(verdict.probability);
      if (verdict.flagged) caught++;
      language.h++;
      if (verdict.flagged) language.c++;
    } else if (message.kind !== 'harmful') {
      lookAlike.push(verdict.probability);
      if (!verdict.flagged) left++;
      if (message.file.replace(/[_-]/g, '').includes(ownName.replace(/[_-]/g, ''))) {
        ownLookAlikes++;
        ownScores.push(verdict.probability);
        if (!verdict.flagged) ownLeft++;
      }
      language.b++;
      if (!verdict.flagged) language.l++;
    } else {
      otherHarm.push(verdict.probability);
      if (!verdict.flagged) otherLeft++;
    }
  }
  totalHarmful += harmful.length;
  totalCaught += caught;
  totalBenign += lookAlike.length;
  totalLeft += left;
  const auc = rocAuc([...harmful, ...lookAlike], [...harmful.map(() => 1), ...lookAlike.map(() => 0)]);
  // The lowest cut that leaves `target` of the benign dev messages alone, and what it would catch.
  const cut = lookAlike.length === 0 ? 0.5 : cutLeavingAlone(lookAlike, target);
  const caughtAtCut = harmful.filter((p) => p >= cut).length;
  // The balanced cut: the most caught plus left alone (in shares), the benign side being this policy's own
  // look-alikes and all benign messages, weighted equally (the sealed set judges mostly look-alikes).
  const candidates = [...new Set([...harmful, 0.5])].sort((a, b) => a - b);
  let balancedCut = 0.5;
  let balancedValue = -1;
  const share = (scores: number[], cut: number, above: boolean) => (scores.length === 0 ? 1 : scores.filter((p) => (p >= cut) === above).length / scores.length);
  for (const c of candidates) {
    const benignSide = ownScores.length >= 20 ? (share(ownScores, c, false) + share(lookAlike, c, false)) / 2 : share(lookAlike, c, false);
    const value = share(harmful, c, true) + benignSide;
    if (value > balancedValue + 1e-9) [balancedValue, balancedCut] = [value, c];
  }
  const logit = (p: number) => Math.log(p / (1 - p));
  // The decision cut of the shipped recipe: the lowest cut leaving `target` of the benign dev messages alone, its own
  // look-alikes and all benign messages counting half each (all benign alone when it has fewer than 20 look-alikes).
  const leftAt = (c: number) => (ownScores.length >= 20 ? (share(ownScores, c, false) + share(lookAlike, c, false)) / 2 : share(lookAlike, c, false));
  const mixedCut = [...new Set([...lookAlike, 0.5])].map((p) => p + 1e-6).sort((a, b) => a - b).find((c) => leftAt(c) >= target) ?? 0.999;
  const spec = specByName.get(policy);
  if (spec?.decisionCut !== undefined) {
    const shipped = 1 / (1 + Math.exp(-(logit(spec.decisionCut) + logit(Math.min(0.999, mixedCut)))));
    console.log(`${policy.padEnd(16)} mixed cut for ${target}: ${mixedCut.toFixed(3)} caught ${pct(harmful.filter((p) => p >= mixedCut).length, harmful.length)}, left alone ${pct(share(lookAlike, mixedCut, false) * lookAlike.length, lookAlike.length)}, own look-alikes ${pct(share(ownScores, mixedCut, false) * ownScores.length, ownScores.length)}; decisionCut ${spec.decisionCut} → ${shipped.toFixed(3)}`);
  }
  console.log(
    `${policy.padEnd(16)} balanced cut ${balancedCut.toFixed(3)} (shift ${logit(Math.min(0.999, Math.max(0.001, balancedCut))).toFixed(2)} log-odds): caught ${pct(harmful.filter((p) => p >= balancedCut).length, harmful.length)}, left alone ${pct(lookAlike.filter((p) => p < balancedCut).length, lookAlike.length)}, own look-alikes ${pct(ownScores.filter((p) => p < balancedCut).length, ownScores.length)}`,
  );
  console.log(
    `${policy.padEnd(16)} caught ${String(caught).padStart(4)}/${String(harmful.length).padEnd(4)} ${pct(caught, harmful.length)}  left alone ${String(left).padStart(4)}/${String(lookAlike.length).padEnd(4)} ${pct(left, lookAlike.length)}  own look-alikes left ${String(ownLeft).padStart(3)}/${String(ownLookAlikes).padEnd(3)}  other harm left ${pct(otherLeft, otherHarm.length)}  AUC ${auc.toFixed(3)}  cut for ${target}: ${cut.toFixed(3)} catches ${pct(caughtAtCut, harmful.length)}`,
  );
}
console.log(`all              caught ${totalCaught}/${totalHarmful} ${pct(totalCaught, totalHarmful)}  left alone ${totalLeft}/${totalBenign} ${pct(totalLeft, totalBenign)}`);
for (const language of CORPUS_LANGUAGES) {
  const t = perLanguage.get(language);
  if (t) console.log(`  ${language}: caught ${pct(t.c, t.h)} of ${t.h}, left alone ${pct(t.l, t.b)} of ${t.b} (judgements over all policies)`);
}
