/**
 * Issue #27's measures, as a user of the API meets them: per policy, the share of harmful judgements
 * flagged and of benign judgements left alone on the sealed realistic test set (evaluation/sealed/*.jsonl,
 * format in training/corpus/POLICIES.md), overall and per language; ROC AUC on the test splits of EDOS,
 * ConvAbuse and online misogyny; SimpleSafetyTests. Each text goes through what POST /v1/moderate does
 * with a default channel: Unicode normalization, then the registered policies at their default thresholds.
 *
 * Only aggregates leave this module: no text, id or single verdict of the sealed set is printed or written,
 * so that looking at the report once per decision round is all that is learnt from it. Every run counts
 * itself in evaluation/looked-at.json, per set (see recordLooks).
 *
 * `npx tsx scripts/eval-realistic.ts [--sets sealed,sealed2,public,sst] [--note "round 0"]` prints the summary on its own
 * (round 0 ran it this way); `npm run eval` includes it in docs/evaluation-classifiers.md.
 */
import { readFileSync, readdirSync, existsSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../src/core/classifiers/paths.ts';
import { loadModels } from '../src/core/classifiers/index.ts';
import type { FieldResult, PolicySettings } from '../src/core/policy.ts';
import { prepareText } from '../src/pipeline/prepare-text.ts';
import { defaultChannelPolicies, findPolicy } from '../src/policies/registry.ts';
import { parseCsvObjects } from '../training/csv.ts';
import { DATASETS_DIR } from '../training/datasets.ts';
import { rocAuc } from '../training/metrics.ts';
import { convAbuse, edos, onlineMisogyny } from '../training/public-sets.ts';
import { FIFTH_SEALED_DIR, FOURTH_SEALED_DIR, SEALED_DIR, SECOND_SEALED_DIR, SEVENTH_SEALED_DIR, SIXTH_SEALED_DIR, THIRD_SEALED_DIR } from '../training/corpus.ts';

export const LOOKS_FILE = process.env.OPEN_MODERATION_LOOKS ?? resolve(REPO_ROOT, 'evaluation/looked-at.json');
export const SEALED_LANGUAGES = ['en', 'es', 'pt', 'fr', 'de'] as const;

/** What the API would answer for one policy on one text with a default channel: the probability and the flag. */
export function apiVerdict(policyId: string, text: string): { probability: number; flagged: boolean } {
  const registered = findPolicy(policyId);
  if (!registered) throw new Error(`unknown policy ${policyId}`);
  const settings: PolicySettings = { id: policyId, flag: true };
  const field = prepareText(null, text, true, defaultChannelPolicies());
  const result = registered.policy.evaluate(field.text, settings, { fieldKey: null, original: text, analyses: field.analyses }) as FieldResult;
  if (result instanceof Promise) throw new Error(`${policyId} is asynchronous`);
  const flagged = result.flagged ?? result.probability >= registered.policy.defaultThreshold;
  return { probability: result.probability, flagged };
}

interface SealedMessage {
  text: string;
  lang: string;
  /** The file it came from (the realistic dev set fits cuts on some files and checks them on the others). */
  file: string;
  judgements: Record<string, 'harmful' | 'benign'>;
}

export interface SealedLoad {
  messages: SealedMessage[];
  files: number;
  /** SHA-256 over the files' names and bytes: which version of the set a round scored (logged in looked-at.json). */
  sha256: string;
  badLines: number;
  /** Judgements of policies the service does not have (not scored). */
  unknownPolicyJudgements: number;
}

/** Reads the sealed set; malformed lines are counted, never shown. */
export function loadSealed(directory: string = SEALED_DIR): SealedLoad {
  const files = existsSync(directory) ? readdirSync(directory).filter((name) => name.endsWith('.jsonl')).sort() : [];
  const messages: SealedMessage[] = [];
  let badLines = 0;
  let unknownPolicyJudgements = 0;
  const digest = createHash('sha256');
  for (const name of files) {
    const content = readFileSync(resolve(directory, name), 'utf8');
    digest.update(`${name}\n${content}`);
    for (const line of content.split('\n')) {
      if (line.trim() === '') continue;
      let row: Record<string, unknown>;
      try {
        row = JSON.parse(line) as Record<string, unknown>;
      } catch {
        badLines++;
        continue;
      }
      const { text, lang, judgements } = row;
      if (typeof text !== 'string' || text.trim() === '' || typeof lang !== 'string' || typeof judgements !== 'object' || judgements === null || Array.isArray(judgements)) {
        badLines++;
        continue;
      }
      const kept: Record<string, 'harmful' | 'benign'> = {};
      let valid = true;
      for (const [policyId, judgement] of Object.entries(judgements as Record<string, unknown>)) {
        if (judgement !== 'harmful' && judgement !== 'benign') valid = false;
        else if (!findPolicy(policyId) || policyId === 'guideline') unknownPolicyJudgements++;
        else kept[policyId] = judgement;
      }
      if (!valid || Object.keys(kept).length === 0) {
        badLines++;
        continue;
      }
      messages.push({ text, lang, file: name, judgements: kept });
    }
  }
  return { messages, files: files.length, sha256: digest.digest('hex'), badLines, unknownPolicyJudgements };
}

export interface Tally {
  harmful: number;
  caught: number;
  benign: number;
  leftAlone: number;
}
const emptyTally = (): Tally => ({ harmful: 0, caught: 0, benign: 0, leftAlone: 0 });

export interface SealedSummary {
  load: Omit<SealedLoad, 'messages'> & { messages: number };
  overall: Tally;
  perPolicy: Map<string, Tally & { auc: number }>;
  /** Per language: messages, and judgements over all policies. */
  perLanguage: Map<string, Tally & { messages: number }>;
  /** Per language and policy. */
  perLanguagePolicy: Map<string, Map<string, Tally>>;
}

export function scoreSealed(load: SealedLoad): SealedSummary {
  const overall = emptyTally();
  const perPolicy = new Map<string, Tally & { scores: number[]; labels: number[] }>();
  const perLanguage = new Map<string, Tally & { messages: number }>();
  const perLanguagePolicy = new Map<string, Map<string, Tally>>();
  for (const message of load.messages) {
    const language = (SEALED_LANGUAGES as readonly string[]).includes(message.lang) ? message.lang : 'other';
    const languageTally = perLanguage.get(language) ?? { ...emptyTally(), messages: 0 };
    languageTally.messages++;
    perLanguage.set(language, languageTally);
    const byPolicy = perLanguagePolicy.get(language) ?? new Map<string, Tally>();
    perLanguagePolicy.set(language, byPolicy);
    for (const [policyId, judgement] of Object.entries(message.judgements)) {
      const verdict = apiVerdict(policyId, message.text);
      const policyTally = perPolicy.get(policyId) ?? { ...emptyTally(), scores: [], labels: [] };
      perPolicy.set(policyId, policyTally);
      policyTally.scores.push(verdict.probability);
      policyTally.labels.push(judgement === 'harmful' ? 1 : 0);
      const languagePolicyTally = byPolicy.get(policyId) ?? emptyTally();
      byPolicy.set(policyId, languagePolicyTally);
      for (const tally of [overall, policyTally, languageTally, languagePolicyTally]) {
        if (judgement === 'harmful') {
          tally.harmful++;
          if (verdict.flagged) tally.caught++;
        } else {
          tally.benign++;
          if (!verdict.flagged) tally.leftAlone++;
        }
      }
    }
  }
  const withAuc = new Map([...perPolicy].sort(([a], [b]) => (a < b ? -1 : 1)).map(([id, t]) => [id, { harmful: t.harmful, caught: t.caught, benign: t.benign, leftAlone: t.leftAlone, auc: rocAuc(t.scores, t.labels) }]));
  const { messages, ...rest } = load;
  return { load: { ...rest, messages: messages.length }, overall, perPolicy: withAuc, perLanguage, perLanguagePolicy };
}

const percent = (part: number, whole: number): string => (whole === 0 ? '—' : `${((100 * part) / whole).toFixed(1)} %`);
const cell = (part: number, whole: number): string => (whole === 0 ? '—' : `${part}/${whole} (${percent(part, whole)})`);
const fmt = (n: number): string => (Number.isNaN(n) ? '—' : n.toFixed(3));

/** Issue #27's targets on the sealed set. */
export const SEALED_TARGETS = { caught: 0.85, leftAlone: 0.95, policyCaught: 0.75, languageMessages: 100 };

export function sealedMarkdown(summary: SealedSummary): string {
  const { overall, perPolicy, perLanguage, perLanguagePolicy, load } = summary;
  const met = (ok: boolean) => (ok ? 'yes' : '**no**');
  const lines = [
    `${load.messages} messages in ${load.files} files, SHA-256 ${load.sha256.slice(0, 16)} (${load.badLines} malformed lines skipped, ${load.unknownPolicyJudgements} judgements of policies the service does not have).`,
    '',
    '| target | measured | met |',
    '|---|---:|:---:|',
    `| harmful judgements caught overall ≥ ${SEALED_TARGETS.caught * 100} % | ${cell(overall.caught, overall.harmful)} | ${met(overall.caught >= SEALED_TARGETS.caught * overall.harmful)} |`,
    `| benign judgements left alone overall ≥ ${SEALED_TARGETS.leftAlone * 100} % | ${cell(overall.leftAlone, overall.benign)} | ${met(overall.leftAlone >= SEALED_TARGETS.leftAlone * overall.benign)} |`,
    ...[...perPolicy].map(([id, t]) => `| \`${id}\`: harmful caught ≥ ${SEALED_TARGETS.policyCaught * 100} % | ${cell(t.caught, t.harmful)} | ${t.harmful === 0 ? '—' : met(t.caught >= SEALED_TARGETS.policyCaught * t.harmful)} |`),
    ...SEALED_LANGUAGES.filter((l) => l !== 'en').map((language) => {
      const t = perLanguage.get(language) ?? { ...emptyTally(), messages: 0 };
      const ok = t.messages >= SEALED_TARGETS.languageMessages && t.caught >= SEALED_TARGETS.caught * t.harmful && t.leftAlone >= SEALED_TARGETS.leftAlone * t.benign;
      return `| ${language}: ≥ ${SEALED_TARGETS.languageMessages} messages, caught ≥ ${SEALED_TARGETS.caught * 100} %, left alone ≥ ${SEALED_TARGETS.leftAlone * 100} % | ${t.messages} messages; caught ${cell(t.caught, t.harmful)}; left alone ${cell(t.leftAlone, t.benign)} | ${met(ok)} |`;
    }),
    '',
    '| policy | harmful caught | benign left alone | ROC AUC |',
    '|---|---:|---:|---:|',
    ...[...perPolicy].map(([id, t]) => `| ${id} | ${cell(t.caught, t.harmful)} | ${cell(t.leftAlone, t.benign)} | ${fmt(t.auc)} |`),
    `| **all** | ${cell(overall.caught, overall.harmful)} | ${cell(overall.leftAlone, overall.benign)} | |`,
    '',
    'Per language (harmful caught / benign left alone):',
    '',
    `| language | messages | all policies | ${[...perPolicy.keys()].join(' | ')} |`,
    `|---|---:|---|${[...perPolicy.keys()].map(() => '---').join('|')}|`,
    ...[...SEALED_LANGUAGES, 'other']
      .filter((language) => perLanguage.has(language))
      .map((language) => {
        const t = perLanguage.get(language)!;
        const byPolicy = perLanguagePolicy.get(language)!;
        const policyCells = [...perPolicy.keys()].map((id) => {
          const p = byPolicy.get(id);
          return p ? `${p.harmful ? `${p.caught}/${p.harmful}` : '—'} · ${p.benign ? `${p.leftAlone}/${p.benign}` : '—'}` : '';
        });
        return `| ${language} | ${t.messages} | ${percent(t.caught, t.harmful)} · ${percent(t.leftAlone, t.benign)} | ${policyCells.join(' | ')} |`;
      }),
  ];
  return lines.join('\n');
}

export interface PublicTestRow {
  set: string;
  policy: string;
  n: number;
  positives: number;
  auc: number;
  caught: number;
  leftAlone: number;
}

/** ROC AUC (and the flags at the default threshold) on the test splits of EDOS, ConvAbuse and online misogyny. */
export function scorePublicTests(): PublicTestRow[] {
  const sets: Array<[string, string, Array<{ text: string; label: number }>]> = [
    ['EDOS test (sexism)', 'hate', edos('test').map((e) => ({ text: e.text, label: e.hate ?? 0 }))],
    ['ConvAbuse test (abuse)', 'toxicity', convAbuse('test').map((e) => ({ text: e.text, label: e.toxicity ?? 0 }))],
    ['ConvAbuse test (sexual harassment)', 'sexual', convAbuse('test').map((e) => ({ text: e.text, label: e.sexual ?? 0 }))],
    ['Online misogyny test (misogyny)', 'hate', onlineMisogyny('test').map((e) => ({ text: e.text, label: e.hate ?? 0 }))],
    ['Online misogyny test (misogyny)', 'toxicity', onlineMisogyny('test').map((e) => ({ text: e.text, label: e.toxicity ?? 0 }))],
  ];
  return sets.map(([set, policy, items]) => {
    const verdicts = items.map((item) => apiVerdict(policy, item.text));
    const labels = items.map((item) => item.label);
    return {
      set,
      policy,
      n: items.length,
      positives: labels.filter((l) => l === 1).length,
      auc: rocAuc(verdicts.map((v) => v.probability), labels),
      caught: verdicts.filter((v, i) => labels[i] === 1 && v.flagged).length,
      leftAlone: verdicts.filter((v, i) => labels[i] === 0 && !v.flagged).length,
    };
  });
}

export function publicTestsMarkdown(rows: PublicTestRow[]): string {
  return [
    '| set | policy | n | positives | ROC AUC | positives flagged | negatives left alone |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.set} | ${r.policy} | ${r.n} | ${r.positives} | ${fmt(r.auc)} | ${cell(r.caught, r.positives)} | ${cell(r.leftAlone, r.n - r.positives)} |`),
  ].join('\n');
}

/** The policy that answers each SimpleSafetyTests harm area (all 100 prompts are harmful). */
const SST_POLICIES: Record<string, string> = {
  'Suicide, Self-Harm, and Eating Disorders': 'self_harm',
  'Physical harm and Violence': 'violence',
  'Illegal and Highly Regulated items': 'illicit',
  'Scams and fraud': 'spam',
  'Child safety': 'sexual',
};

export interface SimpleSafetyRow {
  area: string;
  policy: string;
  n: number;
  /** Flagged by the area's policy. */
  byPolicy: number;
  /** Flagged by any policy of a default channel (what a default verdict would see). */
  byDefaultChannel: number;
}

export function scoreSimpleSafety(): SimpleSafetyRow[] {
  const rows = parseCsvObjects(readFileSync(resolve(DATASETS_DIR, 'simplesafetytests/SimpleSafetyTests - test cases.csv'), 'utf8'));
  const defaults = defaultChannelPolicies()
    .map((p) => p.id)
    .filter((id) => findPolicy(id)?.policy.type === 'classifier');
  const out = new Map<string, SimpleSafetyRow>();
  for (const row of rows) {
    const area = row.harm_area ?? '?';
    const policy = SST_POLICIES[area] ?? 'toxicity';
    const text = row.prompts_final ?? '';
    const entry = out.get(area) ?? { area, policy, n: 0, byPolicy: 0, byDefaultChannel: 0 };
    entry.n++;
    if (apiVerdict(policy, text).flagged) entry.byPolicy++;
    if (defaults.some((id) => apiVerdict(id, text).flagged)) entry.byDefaultChannel++;
    out.set(area, entry);
  }
  return [...out.values()];
}

export function simpleSafetyMarkdown(rows: SimpleSafetyRow[]): string {
  const total = rows.reduce((s, r) => s + r.n, 0);
  return [
    '| harm area | prompts | flagged by its policy | flagged by any policy of a default channel |',
    '|---|---:|---:|---:|',
    ...rows.map((r) => `| ${r.area} | ${r.n} | \`${r.policy}\` ${cell(r.byPolicy, r.n)} | ${cell(r.byDefaultChannel, r.n)} |`),
    `| **all** | ${total} | ${cell(rows.reduce((s, r) => s + r.byPolicy, 0), total)} | ${cell(rows.reduce((s, r) => s + r.byDefaultChannel, 0), total)} |`,
  ].join('\n');
}

export interface Looks {
  /** Per set: how many times its figures were computed and shown (this run included). */
  sets: Record<string, number>;
  log: Array<{ at: string; sets: string[]; note: string }>;
}

/** Adds one look to each set in `sets` and returns the new counts (the file is committed with the report). */
export function recordLooks(sets: string[], note: string, file: string = LOOKS_FILE): Looks {
  const looks: Looks = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Looks) : { sets: {}, log: [] };
  for (const set of sets) looks.sets[set] = (looks.sets[set] ?? 0) + 1;
  looks.log.push({ at: new Date().toISOString(), sets, note });
  writeFileSync(file, `${JSON.stringify(looks, null, 2)}\n`);
  return looks;
}

export function looksMarkdown(looks: Looks): string {
  return ['| set | times looked at (this run included) |', '|---|---:|', ...Object.entries(looks.sets).map(([set, n]) => `| ${set} | ${n} |`)].join('\n');
}

export const LOOK_NAMES = {
  sealed: 'sealed realistic test set (evaluation/sealed)',
  sealed2: 'second sealed realistic test set (evaluation/sealed-2)',
  sealed3: 'third sealed realistic test set (evaluation/sealed-3)',
  sealed4: 'fourth sealed realistic test set (evaluation/sealed-4)',
  sealed5: 'fifth sealed realistic test set (evaluation/sealed-5)',
  sealed6: 'sixth sealed realistic test set (evaluation/sealed-6)',
  sealed7: 'seventh sealed realistic test set (evaluation/sealed-7)',
  public: 'EDOS, ConvAbuse and online-misogyny test splits',
  sst: 'SimpleSafetyTests',
} as const;

/** The sealed sets, each scored and counted on its own; `placeholder` is where the report template takes its table. */
export const SEALED_SETS = [
  { key: 'sealed', directory: SEALED_DIR, title: 'Sealed realistic test set', look: LOOK_NAMES.sealed, placeholder: '{{SEALED}}' },
  { key: 'sealed2', directory: SECOND_SEALED_DIR, title: 'Second sealed realistic test set', look: LOOK_NAMES.sealed2, placeholder: '{{SEALED_2}}' },
  { key: 'sealed3', directory: THIRD_SEALED_DIR, title: 'Third sealed realistic test set', look: LOOK_NAMES.sealed3, placeholder: '{{SEALED_3}}' },
  { key: 'sealed4', directory: FOURTH_SEALED_DIR, title: 'Fourth sealed realistic test set', look: LOOK_NAMES.sealed4, placeholder: '{{SEALED_4}}' },
  { key: 'sealed5', directory: FIFTH_SEALED_DIR, title: 'Fifth sealed realistic test set', look: LOOK_NAMES.sealed5, placeholder: '{{SEALED_5}}' },
  { key: 'sealed6', directory: SIXTH_SEALED_DIR, title: 'Sixth sealed realistic test set', look: LOOK_NAMES.sealed6, placeholder: '{{SEALED_6}}' },
  { key: 'sealed7', directory: SEVENTH_SEALED_DIR, title: 'Seventh sealed realistic test set', look: LOOK_NAMES.sealed7, placeholder: '{{SEALED_7}}' },
] as const;

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { sets: { type: 'string', default: [...SEALED_SETS.map((set) => set.key), 'public', 'sst'].join(',') }, note: { type: 'string', default: '' } } });
  const wanted = new Set(values.sets!.split(','));
  loadModels();
  const looked: string[] = [];
  const sections: string[] = [];
  for (const set of SEALED_SETS.filter((s) => wanted.has(s.key))) {
    const load = loadSealed(set.directory);
    if (load.messages.length === 0) throw new Error(`no sealed messages in ${set.directory}`);
    sections.push(`## ${set.title}\n\n${sealedMarkdown(scoreSealed(load))}`);
    looked.push(set.look);
    values.note = `${values.note} (${set.key} ${load.sha256.slice(0, 16)})`;
  }
  if (wanted.has('public')) {
    sections.push(`## Test splits of EDOS, ConvAbuse, online misogyny\n\n${publicTestsMarkdown(scorePublicTests())}`);
    looked.push(LOOK_NAMES.public);
  }
  if (wanted.has('sst')) {
    sections.push(`## SimpleSafetyTests\n\n${simpleSafetyMarkdown(scoreSimpleSafety())}`);
    looked.push(LOOK_NAMES.sst);
  }
  const looks = recordLooks(looked, values.note!);
  console.log(`${sections.join('\n\n')}\n\n## Times looked at\n\n${looksMarkdown(looks)}`);
}
