/**
 * Scores a check folder (training/corpus/<name>check/, never trained on: training/corpus.ts's isCheckFolder) for the
 * policies a round decides on: per policy and language, harmful caught and benign flagged at the API's flag, and at
 * each threshold of --thresholds on the policy's probability (the cut a round may move). A line is harmful for the
 * policies in its `labels`; a benign line (kind other than harmful) counts for the policy named in its `tests` field,
 * or for every policy given when it has none. Lines are counted, never printed.
 *   npx tsx scripts/score-check-file.ts --dir training/corpus/writer-vpcheck --policies violence,profanity [--thresholds 0.5,0.55,0.6]
 * OPEN_MODERATION_MODELS_DIR scores other models than models/.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { loadModels } from '../src/core/classifiers/index.ts';
import { validateCorpusLine, type CorpusMessage } from '../training/corpus.ts';
import { apiVerdict } from './eval-realistic.ts';

/** A corpus line, checked as the training loader checks it, with the policy it was written to test. */
type CheckLine = Pick<CorpusMessage, 'text' | 'labels' | 'lang' | 'kind'> & { tests?: string };

export function readCheckFolder(directory: string): { lines: CheckLine[]; bad: number } {
  const lines: CheckLine[] = [];
  let bad = 0;
  for (const name of readdirSync(directory).filter((file) => file.endsWith('.jsonl')).sort()) {
    for (const raw of readFileSync(resolve(directory, name), 'utf8').split('\n')) {
      if (raw.trim() === '') continue;
      let row: unknown;
      try {
        row = JSON.parse(raw);
      } catch {
        bad++;
        continue;
      }
      const checked = validateCorpusLine(row);
      if (!checked.ok) {
        bad++;
        continue;
      }
      const tests = (row as { tests?: unknown }).tests;
      lines.push({ ...checked.message, ...(typeof tests === 'string' ? { tests } : {}) });
    }
  }
  return { lines, bad };
}

interface Cell {
  harmful: number;
  benign: number;
  caught: number[];
  flagged: number[];
}

export function scoreCheck(lines: readonly CheckLine[], policies: readonly string[], thresholds: readonly number[]): Map<string, Map<string, Cell>> {
  const table = new Map<string, Map<string, Cell>>();
  for (const policy of policies) {
    const perLanguage = new Map<string, Cell>();
    table.set(policy, perLanguage);
    for (const line of lines) {
      const harmful = (line.labels as readonly string[]).includes(policy);
      const benign = !harmful && line.kind !== 'harmful' && (line.tests === undefined || line.tests === policy);
      if (!harmful && !benign) continue;
      const { probability, flagged } = apiVerdict(policy, line.text);
      // Column 0 is the API's own flag; the others are the thresholds asked for.
      const hits = [flagged, ...thresholds.map((t) => probability >= t)];
      for (const lang of [line.lang, 'all']) {
        const cell = perLanguage.get(lang) ?? { harmful: 0, benign: 0, caught: hits.map(() => 0), flagged: hits.map(() => 0) };
        perLanguage.set(lang, cell);
        if (harmful) cell.harmful++;
        else cell.benign++;
        hits.forEach((hit, i) => {
          if (hit && harmful) cell.caught[i] = (cell.caught[i] ?? 0) + 1;
          if (hit && benign) cell.flagged[i] = (cell.flagged[i] ?? 0) + 1;
        });
      }
    }
  }
  return table;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { dir: { type: 'string' }, policies: { type: 'string' }, thresholds: { type: 'string', default: '' } } });
  if (!values.dir || !values.policies) throw new Error('usage: --dir <check folder> --policies a,b [--thresholds 0.5,0.6]');
  loadModels();
  const thresholds = values.thresholds ? values.thresholds.split(',').map(Number) : [];
  if (thresholds.some((t) => !(t >= 0 && t <= 1))) throw new Error(`--thresholds takes numbers from 0 to 1: ${values.thresholds}`);
  const { lines, bad } = readCheckFolder(resolve(values.dir));
  console.log(`${lines.length} lines, ${bad} malformed`);
  const headers = ['API flag', ...thresholds.map((t) => `p ≥ ${t}`)];
  for (const [policy, perLanguage] of scoreCheck(lines, values.policies.split(','), thresholds)) {
    console.log(`\n${policy}: caught/harmful · flagged/benign`);
    console.log(`| lang | ${headers.join(' | ')} |`);
    for (const [lang, cell] of [...perLanguage].sort(([a], [b]) => (a === 'all' ? 1 : b === 'all' ? -1 : a.localeCompare(b)))) {
      console.log(`| ${lang} | ${cell.caught.map((c, i) => `${c}/${cell.harmful} · ${cell.flagged[i]}/${cell.benign}`).join(' | ')} |`);
    }
  }
}
