/**
 * The realistic dev set (training/dev-realistic/*.jsonl, sealed format of training/corpus/POLICIES.md): messages
 * written in threads by writers who never saw the training corpus, so that cuts and false flags can be studied on
 * text the models were not built from. Unlike the sealed sets it may be read; it is never trained on (the corpus
 * loader does not read it and leaves out corpus lines resembling its lines, as for the sealed sets), and
 * scripts/prepare-sealed-set.ts dropped its lines resembling training text or a sealed line when it was made.
 *
 *   npx tsx training/dev-realistic.ts                         the sealed-style table with the models in use
 *   npx tsx training/dev-realistic.ts --left-alone 0.95       also, per policy, the cut leaving that share of its
 *                                                             benign judgements alone and what it catches there
 *   npx tsx training/dev-realistic.ts --misses /tmp/d.jsonl   also writes its false flags and misses (never commit it)
 *   npx tsx training/dev-realistic.ts --propose-cuts          also the decision cuts training/decision-cuts.ts's rule
 *                                                             asks of the models scored, and what they would flag
 *        [--fit-files en-01.jsonl,es-01.jsonl,...]            fitting them on those files only, and what the cuts
 *                                                             then catch and leave alone on the other files
 *
 * OPEN_MODERATION_MODELS_DIR scores a dev run's models instead of the shipped ones. Every run counts one look.
 */
import { writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { loadModels } from '../src/core/classifiers/index.ts';
import { apiVerdict, loadSealed, recordLooks, scoreSealed, sealedMarkdown } from '../scripts/eval-realistic.ts';
import { DEV_REALISTIC_DIR } from './corpus.ts';
import { cutLeavingAlone } from './metrics.ts';
import { decisionCutOf, movedDecisionCut, realisticDevThresholds } from './decision-cuts.ts';

export const DEV_REALISTIC_LOOKS = 'realistic dev set (training/dev-realistic, may be read)';

export interface CutRow {
  policy: string;
  harmful: number;
  benign: number;
  /** The lowest probability that leaves at least the asked share of benign judgements below it. */
  cut: number;
  caught: number;
}

/** Per policy: the cut leaving `share` of the benign judgements alone (a score at or above the cut flags) and how many harmful ones it catches. */
export function cutsForLeftAlone(scored: Array<{ policy: string; harmful: boolean; probability: number }>, share: number): CutRow[] {
  const byPolicy = new Map<string, { harmful: number[]; benign: number[] }>();
  for (const item of scored) {
    const entry = byPolicy.get(item.policy) ?? { harmful: [], benign: [] };
    (item.harmful ? entry.harmful : entry.benign).push(item.probability);
    byPolicy.set(item.policy, entry);
  }
  return [...byPolicy]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([policy, { harmful, benign }]) => {
      const cut = cutLeavingAlone(benign, share);
      return { policy, harmful: harmful.length, benign: benign.length, cut, caught: harmful.filter((p) => p >= cut).length };
    });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { misses: { type: 'string' }, 'left-alone': { type: 'string' }, 'propose-cuts': { type: 'boolean', default: false }, 'fit-files': { type: 'string' }, note: { type: 'string', default: '' } } });
  loadModels();
  const load = loadSealed(DEV_REALISTIC_DIR);
  if (load.messages.length === 0) throw new Error(`no messages in ${DEV_REALISTIC_DIR}`);
  console.log(sealedMarkdown(scoreSealed(load)));
  const scored = !values['left-alone'] && !values.misses && !values['propose-cuts'] ? [] : load.messages.flatMap((message) =>
    Object.entries(message.judgements).map(([policy, judgement]) => {
      const verdict = apiVerdict(policy, message.text);
      return { policy, harmful: judgement === 'harmful', probability: verdict.probability, flagged: verdict.flagged, text: message.text, lang: message.lang, file: message.file };
    }),
  );
  if (values['left-alone']) {
    const share = Number(values['left-alone']);
    console.log(`\n| policy | harmful | benign | cut leaving ${(share * 100).toFixed(0)} % of benign alone | harmful caught there |\n|---|---:|---:|---:|---:|`);
    for (const row of cutsForLeftAlone(scored, share)) console.log(`| ${row.policy} | ${row.harmful} | ${row.benign} | ${row.cut.toFixed(3)} | ${row.caught}/${row.harmful} |`);
  }
  if (values['fit-files'] && !values['propose-cuts']) throw new Error('--fit-files only goes with --propose-cuts');
  if (values['propose-cuts']) {
    const fitFiles = values['fit-files'] ? new Set(values['fit-files'].split(',').map((name) => basename(name.trim())).filter((name) => name !== '')) : null;
    for (const file of fitFiles ?? []) if (!load.messages.some((m) => m.file === file)) throw new Error(`--fit-files: no messages from ${file}`);
    const fit = fitFiles ? scored.filter((s) => fitFiles.has(s.file)) : scored;
    const checked = fitFiles ? scored.filter((s) => !fitFiles.has(s.file)) : [];
    const header = (what: string) => `\n${what}\n\n| policy | harmful | benign | threshold | caught there | left alone there | decision cut now | moved to |\n|---|---:|---:|---:|---:|---:|---:|---:|`;
    const policies = [...new Set(scored.map((s) => s.policy))].sort();
    const thresholds = realisticDevThresholds(
      policies.map((policy) => {
        const own = fit.filter((s) => s.policy === policy);
        const harmful = own.filter((s) => s.harmful);
        const benign = own.filter((s) => !s.harmful);
        return {
          policy,
          harmful: harmful.map((s) => s.probability),
          benign: benign.map((s) => s.probability),
          harmfulLanguages: harmful.map((s) => s.lang),
          benignLanguages: benign.map((s) => s.lang),
          movable: decisionCutOf(policy) !== undefined,
        };
      }),
    );
    const table = (rows: typeof scored) => {
      const sum = { caught: 0, harmful: 0, leftAlone: 0, benign: 0, caughtNow: 0, leftAloneNow: 0 };
      for (const policy of policies) {
        const own = rows.filter((s) => s.policy === policy);
        const harmful = own.filter((s) => s.harmful).map((s) => s.probability);
        const benign = own.filter((s) => !s.harmful).map((s) => s.probability);
        const cut = decisionCutOf(policy);
        const threshold = thresholds.get(policy)!;
        const hit = harmful.filter((p) => p >= threshold).length;
        const alone = benign.filter((p) => p < threshold).length;
        sum.caught += hit;
        sum.harmful += harmful.length;
        sum.leftAlone += alone;
        sum.benign += benign.length;
        sum.caughtNow += own.filter((s) => s.harmful && s.flagged).length;
        sum.leftAloneNow += own.filter((s) => !s.harmful && !s.flagged).length;
        console.log(`| ${policy} | ${harmful.length} | ${benign.length} | ${threshold.toFixed(3)} | ${hit}/${harmful.length} | ${alone}/${benign.length} | ${cut?.toFixed(3) ?? '–'} | ${cut === undefined ? '–' : movedDecisionCut(cut, threshold).toFixed(3)} |`);
      }
      const percent = (a: number, b: number) => (b === 0 ? '—' : `${a}/${b} (${((a / b) * 100).toFixed(1)} %)`);
      console.log(`| **all** | ${sum.harmful} | ${sum.benign} | | ${percent(sum.caught, sum.harmful)} | ${percent(sum.leftAlone, sum.benign)} | | |`);
      console.log(`| all, at the cuts now | | | 0.5 | ${percent(sum.caughtNow, sum.harmful)} | ${percent(sum.leftAloneNow, sum.benign)} | | |`);
    };
    console.log(header(fitFiles ? `Cuts fitted on ${[...fitFiles].join(', ')}:` : 'Cuts fitted on the whole set:'));
    table(fit);
    if (fitFiles && checked.length > 0) {
      console.log(header('The same cuts on the other files:'));
      table(checked);
    }
  }
  if (values.misses) {
    const wrong = scored.filter((s) => s.harmful !== s.flagged).sort((a, b) => (a.policy < b.policy ? -1 : a.policy > b.policy ? 1 : b.probability - a.probability));
    writeFileSync(values.misses, wrong.map((s) => JSON.stringify({ policy: s.policy, judged: s.harmful ? 'harmful' : 'benign', score: Number(s.probability.toFixed(3)), lang: s.lang, text: s.text })).join('\n') + '\n');
    console.log(`\n${wrong.length} wrong verdicts written to ${values.misses}`);
  }
  recordLooks([DEV_REALISTIC_LOOKS], values.note || 'training/dev-realistic.ts');
}
