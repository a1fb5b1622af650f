/**
 * `npx tsx training/corpus-counts.ts`: the counts table of training/corpus/README.md, from every corpus file on disk
 * (near-copies and lines resembling the sealed set left out, as training leaves them out).
 */
import { CORPUS_DIR, CORPUS_KINDS, CORPUS_LANGUAGES, CORPUS_POLICIES, describeCorpus, heldOutTexts, loadCorpus, type CorpusMessage } from './corpus.ts';

const load = loadCorpus(CORPUS_DIR, null, heldOutTexts());
const columns = [...CORPUS_LANGUAGES, 'all'] as const;
const row = (name: string, keep: (m: CorpusMessage) => boolean) => {
  const cells = columns.map((lang) => load.messages.filter((m) => (lang === 'all' || m.lang === lang) && keep(m)).length);
  return `| ${name} | ${cells.join(' | ')} |`;
};
const lines = [`| | ${columns.join(' | ')} |`, `|---|${columns.map(() => '---:').join('|')}|`];
for (const policy of CORPUS_POLICIES) lines.push(row(`harmful for ${policy}`, (m) => m.labels.includes(policy)));
for (const kind of CORPUS_KINDS) lines.push(row(`kind ${kind}`, (m) => m.kind === kind));
lines.push(row('messages', () => true));
console.log(describeCorpus(load));
console.log(lines.join('\n'));
