/**
 * Profanity on the realistic corpus, per language and split: harmful caught and benign left alone, and the missed
 * messages of one split, to choose terms for training/wordlists/own-profanity.tsv (issue #27). Corpus only: no
 * evaluation set is read.
 * The term list is rebuilt from the wordlist files in-process (buildProfanityTerms, as trainAll does), so edits to
 * own-profanity.tsv take effect without training; --shipped scores with models/profanity-terms.json instead. --udhr
 * also counts the UDHR paragraphs of en, es, pt, fr and de the policy flags (they hold no swearing: all false flags).
 *   npx tsx training/profanity-misses.ts [--split train|dev] [--lang fr] [--show missed|flagged] [--limit 200] [--shipped] [--udhr]
 */
import { parseArgs } from 'node:util';
import { loadModels } from '../src/core/classifiers/index.ts';
import { corpus, CORPUS_LANGUAGES } from './corpus.ts';
import { apiVerdict } from '../scripts/eval-realistic.ts';
import { setProfanityTerms } from '../src/core/classifiers/lexicons.ts';
import { buildProfanityTerms } from './wordlists.ts';
import { udhrParagraphs } from './dev-languages.ts';

const { values } = parseArgs({
  options: {
    split: { type: 'string', default: 'train' },
    lang: { type: 'string' },
    show: { type: 'string' },
    limit: { type: 'string', default: '200' },
    shipped: { type: 'boolean', default: false },
    udhr: { type: 'boolean', default: false },
  },
});
loadModels();
if (!values.shipped) setProfanityTerms(buildProfanityTerms());
const load = corpus();
const rows: string[] = [];
const tally = new Map<string, { harmful: number; caught: number; benign: number; leftAlone: number }>();
// Only the chosen split is scored, so choosing terms on train never shows a dev figure.
for (const message of load.messages) {
  if (message.split !== values.split) continue;
  const harmful = message.labels.includes('profanity');
  const { flagged } = apiVerdict('profanity', message.text);
  const key = `${message.lang}\t${message.split}`;
  const t = tally.get(key) ?? { harmful: 0, caught: 0, benign: 0, leftAlone: 0 };
  tally.set(key, t);
  if (harmful) {
    t.harmful++;
    if (flagged) t.caught++;
  } else {
    t.benign++;
    if (!flagged) t.leftAlone++;
  }
  if (values.lang && message.lang !== values.lang) continue;
  if (values.show === 'missed' && harmful && !flagged) rows.push(`${message.lang}\t${message.text.replace(/\s+/g, ' ')}`);
  if (values.show === 'flagged' && !harmful && flagged) rows.push(`${message.lang}\t${message.text.replace(/\s+/g, ' ')}`);
}
for (const lang of CORPUS_LANGUAGES) {
  for (const split of [values.split]) {
    const t = tally.get(`${lang}\t${split}`);
    if (!t) continue;
    const pct = (a: number, b: number) => (b ? ((100 * a) / b).toFixed(1) : '-');
    console.log(`${lang} ${split}: caught ${t.caught}/${t.harmful} (${pct(t.caught, t.harmful)} %), left alone ${t.leftAlone}/${t.benign} (${pct(t.leftAlone, t.benign)} %)`);
  }
}
for (const row of rows.slice(0, Number(values.limit))) console.log(row);
if (rows.length > Number(values.limit)) console.log(`… ${rows.length - Number(values.limit)} more`);
if (values.udhr) {
  const paragraphs = await udhrParagraphs();
  const line: string[] = [];
  const flaggedParagraphs: string[] = [];
  for (const code of ['en', 'es', 'pt', 'fr', 'de']) {
    const items = paragraphs.get(code) ?? [];
    const flagged = items.filter((p) => apiVerdict('profanity', p).flagged);
    line.push(`${code} ${flagged.length}/${items.length}`);
    for (const p of flagged) flaggedParagraphs.push(`${code}\t${p.replace(/\s+/g, ' ').slice(0, 200)}`);
  }
  console.log(`UDHR paragraphs flagged: ${line.join(', ')}`);
  for (const p of flaggedParagraphs) console.log(p);
}
