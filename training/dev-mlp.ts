/**
 * Issue #27's experiment with a small non-linear head (training/mlp-head.ts, training/mlp.ts) beside
 * the linear models: trains a head per policy on the same rows and weights as that policy's linear model (the
 * corpus dev split held out), then scores the corpus dev split with the linear model alone and with
 * linear margin + w × head logit for a grid of blend weights w (and the head alone), per policy: ROC AUC and the
 * share caught at the cut that leaves `--target` of the benign dev messages alone (as training/dev-corpus.ts).
 *
 *   OPEN_MODERATION_DEV_HOLDOUT=1 OPEN_MODERATION_MODELS_DIR=/tmp/om-dev npx tsx training/dev-corpus.ts     (linear models first)
 *   OPEN_MODERATION_DEV_HOLDOUT=1 OPEN_MODERATION_MODELS_DIR=/tmp/om-dev npx tsx training/dev-mlp.ts [--no-train] [--hidden 32] [--epochs 8]
 *   ... training/dev-mlp.ts --no-train --openai --blend violence=1,hate=0.5 --note "mlp: ..."   (OpenAI DEV half: counts one look)
 *
 * With --residual the head learns on top of the linear model's out-of-fold margins (5 folds by a hash of the text).
 * The heads are written to the models folder as <policy>.omh (blend weight 1). The scratch folder's manifest.json
 * (written by trainAll) tells loadModels which featurizer settings the models were trained with.
 *
 * Results (2026-11-27, linear models of training/dev-corpus.ts trained with the dev split held out; the corpus dev
 * split: 18,523 messages, 9,360 benign; AUC, and caught at the cut leaving 96 % of benign alone). The blend weight of
 * each policy is the grid value with the best corpus dev AUC (0 = no head); the OpenAI dev half was scored once per
 * variant with those weights (one look each, evaluation/looked-at.json).
 *
 *   variant (command)                               toxicity          hate              violence          sexual            self_harm
 *   linear alone                                    0.9660 80.3 %     0.9832 90.3 %     0.9776 86.9 %     0.9852 91.9 %     0.9788 86.6 %
 *   1a residual heads, hidden 16 (--residual        w .75: 0.9686     w .75: 0.9851     w .5: 0.9793      w 0 (0.25: .9850) w .5: 0.9798
 *      --hidden 16), stacked on 5-fold OOF margins  81.9 %            91.3 %            89.0 %                              88.2 %
 *   1b independent heads, hidden 16 (--hidden 16)   w .25: 0.9678     w 0 (0.25: .9827) w .25: 0.9787     w 0 (0.25: .9838) w .25: 0.9796
 *                                                   81.0 %                              87.8 %                              87.4 %
 *   2  hidden 16 over hashed n-grams + dense        w .5: 0.9684      w .25: 0.9838     w .25: 0.9787
 *      (--sparse --epochs 3 --rate 0.05 --l2 1e-6)  81.1 %            90.4 %            87.3 %
 *   (a first run of 1b with hidden 32: toxicity 0.9683, violence 0.9790, self_harm 0.9794 at w .25; hate and sexual no gain.)
 *   caught over the 5 policies (10,023 harmful): linear 84.64 %, 1a at w .75 86.01 %, 1b at w .25 85.11 %; over
 *   toxicity/hate/violence (7,924): linear 83.47 %, 2 at w .25 84.17 %.
 *
 *   OpenAI dev half, linear → blended (head alone):  S           H                   HR                  V                   SH
 *   1a                                              (no head)   0.866 → 0.859       0.849 → 0.837       0.823 → 0.822       0.948 → 0.950
 *   1b                                              (no head;   (no head; alone     0.849 → 0.855       0.823 → 0.840       0.948 → 0.955
 *                                                   alone .938) .828)               (.776)              (.793)              (.927)
 *   2                                               —           0.866 → 0.877 (.861) 0.849 → 0.848 (.804) 0.823 → 0.831 (.832) —
 *
 * Cost of a head per 280-character message (whole text, --timing, on the shared host): hidden 32 dense 23.8 µs;
 * hidden 16 dense 7.7–13.4 µs (two runs); the hashed-n-gram head 105 µs (its 2^18 × 16 table misses the cache).
 * No variant improved the OpenAI dev half's V or H by 0.02: not shipped.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { MODELS_DIR } from '../src/core/classifiers/paths.ts';
import { computeFeatures, type TextFeatures } from '../src/core/classifiers/features.ts';
import { loadModels, model, type ModelName } from '../src/core/classifiers/models.ts';
import { fieldFeatures } from '../src/core/classifiers/policies.ts';
import { compressHead, decodeHead, encodeHead, type MlpHead } from './mlp-head.ts';
import { prepareText } from '../src/pipeline/prepare-text.ts';
import { defaultChannelPolicies } from '../src/policies/registry.ts';
import { apiVerdict, recordLooks } from '../scripts/eval-realistic.ts';
import { DEV_HOLDOUT } from './datasets.ts';
import { corpus } from './corpus.ts';
import { rocAuc } from './metrics.ts';
import { buildSpecs, conceptLimit, nbPowerOf, pushSourceExamples, ISSUE27, type ModelSpec } from './train-all.ts';
import { trainLogistic, type TrainingExample } from './logistic.ts';
import { decodeModel, encodeModel } from '../src/core/classifiers/linear-model.ts';
import { EMBEDDING_BASE } from '../src/core/classifiers/features.ts';
import { createHash } from 'node:crypto';
import { sparseLogit, trainMlp, trainSparseMlp, type SparseHead } from './mlp.ts';
import { openaiHalf, openaiSamples, OPENAI_CATEGORIES, OPENAI_DEV_HALF_LOOKS } from './openai-split.ts';

const { values } = parseArgs({
  options: {
    'no-train': { type: 'boolean' },
    policies: { type: 'string', default: 'toxicity,hate,violence,sexual,self_harm' },
    hidden: { type: 'string', default: '32' },
    epochs: { type: 'string', default: '8' },
    rate: { type: 'string', default: '0.001' },
    l2: { type: 'string', default: '0.0001' },
    target: { type: 'string', default: '0.96' },
    openai: { type: 'boolean' },
    blend: { type: 'string', default: '' },
    note: { type: 'string', default: '' },
    timing: { type: 'boolean' },
    /** Train the head on top of the linear model's out-of-fold margins (5 folds by text), not on its own. */
    residual: { type: 'boolean' },
    /**
     * Step 2: a hidden layer over the hashed n-grams too (training/mlp.ts trainSparseMlp), kept in memory (not
     * written); with --openai --blend auto the corpus dev split is scored first and each policy's blend weight is
     * the one with the best corpus dev AUC.
     */
    sparse: { type: 'boolean' },
  },
});
if (!DEV_HOLDOUT) throw new Error('set OPEN_MODERATION_DEV_HOLDOUT=1: dev messages must stay out of training');
if (!process.env.OPEN_MODERATION_MODELS_DIR) throw new Error('set OPEN_MODERATION_MODELS_DIR to the scratch folder of training/dev-corpus.ts');
if (!existsSync(resolve(MODELS_DIR, 'violence.oml'))) throw new Error(`no linear models in ${MODELS_DIR}: run training/dev-corpus.ts first`);
loadModels(MODELS_DIR);

const policies = values.policies.split(',') as ModelName[];
const SENTENCE_SCORED = new Set(['violence', 'self_harm', 'hate']);
/** The parts a policy's model scores (policies.ts): worst sentence group, worst window, or the whole text. */
const partsOf = (name: ModelName, f: TextFeatures): TextFeatures[] =>
  SENTENCE_SCORED.has(name) && f.sentenceGroups.length > 0 ? f.sentenceGroups : f.chunks.length > 0 ? f.chunks : [f];

const heads = new Map<ModelName, MlpHead>();
const sparseHeads = new Map<ModelName, SparseHead>();
const sparseBuffer = new Float64Array(1024);
const headPath = (name: string) => resolve(MODELS_DIR, `${name}.omh`);
if (!values['no-train']) {
  const specs = new Map(buildSpecs().map((spec) => [spec.name, spec]));
  const cache = new Map<string, TextFeatures>();
  const featurize = (text: string): TextFeatures => {
    let f = cache.get(text);
    if (!f) cache.set(text, (f = computeFeatures(text)));
    return f;
  };
  for (const name of policies) {
    const spec = specs.get(name)!;
    const started = Date.now();
    const examples: TrainingExample[] = [];
    const folds: number[] = [];
    for (const [label, sources] of [[1, spec.positives], [0, spec.negatives]] as const)
      for (const source of sources)
        for (const text of source.texts) {
          const before = examples.length;
          pushSourceExamples(examples, { ...source, texts: [text] }, label, source.weight ?? 1, featurize);
          // A text and its sentence groups share a fold (by the text itself, so a text in two sources does too).
          const fold = createHash('sha256').update(text).digest()[0]! % 5;
          for (let i = before; i < examples.length; i++) folds.push(fold);
        }
    const featurized = Date.now();
    const offsets = values.residual ? outOfFoldMargins(spec, examples, folds) : undefined;
    const oofDone = Date.now();
    if (values.sparse) sparseHeads.set(name, trainSparseMlp(examples, { seed: spec.seed, hidden: Number(values.hidden), epochs: Number(values.epochs), learningRate: Number(values.rate), l2: Number(values.l2) }));
    else {
      const trained = trainMlp(examples, { seed: spec.seed, hidden: Number(values.hidden), epochs: Number(values.epochs), learningRate: Number(values.rate), l2: Number(values.l2), offsets });
      writeFileSync(headPath(name), compressHead(encodeHead({ ...trained, blend: 1 })));
    }
    console.log(`${name}: head trained on ${examples.length} rows (featurized in ${featurized - started} ms, out-of-fold margins in ${oofDone - featurized} ms, trained in ${Date.now() - oofDone} ms)`);
  }
}
/** The linear model's margin for each example from the model trained without its fold (options and decision cut as trainAll). */
function outOfFoldMargins(spec: ModelSpec, examples: TrainingExample[], folds: number[]): Float64Array {
  const options = { seed: spec.seed, epochs: spec.epochs ?? 6, l2: spec.l2, l2Dense: spec.l2Dense, maxClassWeight: spec.maxClassWeight, featureLimit: spec.embeddings === true ? conceptLimit() : EMBEDDING_BASE, nbPower: nbPowerOf(spec) };
  const shift = ISSUE27 && spec.decisionCut !== undefined ? Math.log(spec.decisionCut / (1 - spec.decisionCut)) : 0;
  const margins = new Float64Array(examples.length);
  for (let fold = 0; fold < 5; fold++) {
    const trained = trainLogistic(examples.filter((_, i) => folds[i] !== fold), options);
    const linear = decodeModel(spec.name, encodeModel(trained.weights, trained.bias - shift));
    examples.forEach((example, i) => {
      if (folds[i] === fold) margins[i] = linear.margin(example.features);
    });
  }
  return margins;
}

if (!values.sparse) for (const name of policies) heads.set(name, decodeHead(name, readFileSync(headPath(name))));
const headLogit = (name: ModelName, part: TextFeatures): number => (values.sparse ? sparseLogit(sparseHeads.get(name)!, part, sparseBuffer) : heads.get(name)!.logit(part));
const hasHead = (name: ModelName): boolean => heads.has(name) || sparseHeads.has(name);

const GRID = [0, 0.25, 0.5, 0.75, 1, 1.5, 2];
/** Per part: linear margin and head logit; a text's score for blend w is the max over its parts of lin + w·head. */
interface Scored {
  linear: Float64Array;
  head: Float64Array;
}
function scoreParts(name: ModelName, f: TextFeatures): Scored {
  const parts = partsOf(name, f);
  const linear = new Float64Array(parts.length);
  const head = new Float64Array(parts.length);
  parts.forEach((part, i) => {
    linear[i] = model(name)!.margin(part);
    head[i] = hasHead(name) ? headLogit(name, part) : 0;
  });
  return { linear, head };
}
const blended = (s: Scored, w: number): number => {
  let best = -Infinity;
  for (let i = 0; i < s.linear.length; i++) best = Math.max(best, s.linear[i]! + w * s.head[i]!);
  return best;
};
const headAlone = (s: Scored): number => Math.max(...s.head);

function catchAt(harmful: number[], benign: number[], target: number): number {
  const sorted = [...benign].sort((a, b) => b - a);
  const cut = sorted.length === 0 ? 0 : (sorted[Math.floor(sorted.length * (1 - target))] ?? -Infinity);
  return harmful.filter((p) => p > cut).length;
}

if (values.timing) {
  // µs per 280-character message for the heads alone (whole-text features of dev messages cut to 280 characters).
  const texts = corpus().messages.filter((m) => m.split === 'dev' && m.text.length >= 280).slice(0, 500).map((m) => m.text.slice(0, 280));
  const features = texts.map((t) => computeFeatures(t));
  let sink = 0;
  for (const name of policies) for (const f of features) sink += headLogit(name, f);
  const rounds = 20;
  const started = process.hrtime.bigint();
  for (let r = 0; r < rounds; r++) for (const name of policies) for (const f of features) sink += headLogit(name, f);
  const perMessage = Number(process.hrtime.bigint() - started) / 1000 / (rounds * features.length);
  console.log(`heads ${policies.join(',')}: ${perMessage.toFixed(1)} µs per 280-character message for all ${policies.length} (${(perMessage / policies.length).toFixed(1)} µs per head; whole text; checksum ${sink.toFixed(3)})`);
}

const auto = values.blend === 'auto';
const chosen = new Map<string, number>();
if (!values.openai || auto) {
  const dev = corpus().messages.filter((m) => m.split === 'dev');
  const target = Number(values.target);
  const totals = new Map<string, { harmful: number; caught: number }>();
  let checked = 0;
  let mismatches = 0;
  for (const name of policies) {
    const harmful: Scored[] = [];
    const benign: Scored[] = [];
    for (const message of dev) {
      const harm = message.labels.includes(name);
      if (!harm && message.kind === 'harmful') continue;
      const field = prepareText(null, message.text, true, defaultChannelPolicies());
      const f = fieldFeatures(field.text, { fieldKey: null, original: message.text, analyses: field.analyses });
      const s = scoreParts(name, f);
      (harm ? harmful : benign).push(s);
      // The linear score here must be the API's (context features on, same parts).
      if (checked < 300 * policies.length && name === model(name)?.name) {
        checked++;
        const api = apiVerdict(name, message.text).probability;
        if (Math.abs(api - 1 / (1 + Math.exp(-blended(s, 0)))) > 2e-6) mismatches++;
      }
    }
    let bestAuc = -1;
    const report = (label: string, score: (s: Scored) => number, w?: number) => {
      const h = harmful.map(score);
      const b = benign.map(score);
      const auc = rocAuc([...h, ...b], [...h.map(() => 1), ...b.map(() => 0)]);
      const caught = catchAt(h, b, target);
      if (w !== undefined && auc > bestAuc + 1e-9) {
        bestAuc = auc;
        chosen.set(name, w);
      }
      const key = `${label}`;
      const t = totals.get(key) ?? { harmful: 0, caught: 0 };
      totals.set(key, { harmful: t.harmful + h.length, caught: t.caught + caught });
      console.log(`${name.padEnd(10)} ${label.padEnd(12)} AUC ${auc.toFixed(5)}  caught at ${target} left alone ${((100 * caught) / h.length).toFixed(1).padStart(5)}% (${caught}/${h.length}, benign ${b.length})`);
    };
    for (const w of GRID) report(w === 0 ? 'linear' : `lin+${w}·mlp`, (s) => blended(s, w), w);
    report('mlp alone', headAlone);
  }
  for (const [label, t] of totals) console.log(`all ${policies.length} policies ${label.padEnd(12)} caught ${((100 * t.caught) / t.harmful).toFixed(2)}% (${t.caught}/${t.harmful})`);
  console.log(`check: linear score = apiVerdict on ${checked} messages, ${mismatches} mismatches`);
  console.log(`blend weights with the best corpus dev AUC: ${[...chosen].map(([k, v]) => `${k}=${v}`).join(',')}`);
}
if (values.openai) {
  // OpenAI DEV half (one look): AUC per category, linear alone and blended with the weights of --blend (chosen on
  // the corpus dev split). Categories whose policy has no head or no weight are scored linear alone twice.
  const weights = auto ? chosen : new Map(values.blend.split(',').filter(Boolean).map((pair) => pair.split('=') as [string, string]).map(([k, v]) => [k, Number(v)]));
  const dev = openaiSamples().filter((sample) => openaiHalf(sample.prompt) === 'dev');
  for (const [key, policyId, label] of OPENAI_CATEGORIES) {
    const name = policyId as ModelName;
    const items = dev.filter((s) => s[key] === 0 || s[key] === 1);
    const labels = items.map((s) => s[key] as number);
    const w = hasHead(name) ? (weights.get(name) ?? 0) : 0;
    const scored = items.map((s) => scoreParts(name, fieldFeatures(s.prompt, { fieldKey: null, original: s.prompt, analyses: new Map() })));
    const linear = scored.map((s) => blended(s, 0));
    const mixed = scored.map((s) => blended(s, w));
    const alone = scored.map((s) => headAlone(s));
    console.log(`${label.padEnd(11)} (${key.padEnd(2)}) n ${String(items.length).padStart(4)} positives ${String(labels.filter((l) => l === 1).length).padStart(3)}  linear AUC ${rocAuc(linear, labels).toFixed(3)}  lin+${w}·mlp AUC ${rocAuc(mixed, labels).toFixed(3)}  mlp alone ${rocAuc(alone, labels).toFixed(3)}`);
  }
  recordLooks([OPENAI_DEV_HALF_LOOKS], values.note || 'training/dev-mlp.ts --openai');
}
