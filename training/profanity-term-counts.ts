/**
 * Candidate profanity terms on the realistic corpus's TRAIN messages: per term, how many messages containing it (as the
 * tokenizer sees them) are labelled profanity and how many are not, and how many UDHR paragraphs (en es pt fr de)
 * contain it, found by the lexicon's own matcher (stems, the plural -s, false friends) with only those terms loaded.
 * Corpus TRAIN split only: no dev or evaluation text is shown.
 * --union also counts the messages containing any of the terms (a group's line in own-profanity.tsv).
 *   npx tsx training/profanity-term-counts.ts [--show] [--union] term ['multi word term' 'stem*' …]
 */
import { parseArgs } from 'node:util';
import { corpus } from './corpus.ts';
import { tokensOf } from '../src/core/classifiers/features.ts';
import { foldTerm } from './wordlists.ts';
import { udhrParagraphs } from './dev-languages.ts';
import { loadModels } from '../src/core/classifiers/index.ts';
import { lexiconHitsWithin, lexiconMatches, setProfanityTerms } from '../src/core/classifiers/lexicons.ts';

loadModels(); // the shipped tokenizer settings (accent folding)

const { values, positionals } = parseArgs({ allowPositionals: true, options: { show: { type: 'boolean', default: false }, union: { type: 'boolean', default: false } } });

// The lexicon's own matcher with only the terms asked about, so the counts follow its stems, plurals and false friends.
function matcherOf(terms: readonly string[]): (tokens: string[]) => boolean {
  setProfanityTerms(terms.map((term) => ({ term, severity: 2, categories: [] })));
  return (tokens) => lexiconHitsWithin(lexiconMatches(tokens), 0, tokens.length).maxProfanitySeverity > 0;
}

const messages = corpus().messages.filter((m) => m.split === 'train').map((m) => ({ lang: m.lang, text: m.text, harmful: m.labels.includes('profanity'), tokens: tokensOf(m.text) }));
const udhr = [...(await udhrParagraphs()).entries()].filter(([code]) => ['en', 'es', 'pt', 'fr', 'de'].includes(code)).flatMap(([code, ps]) => ps.map((p) => ({ code, tokens: tokensOf(p) })));
for (const raw of positionals) {
  const contains = matcherOf([foldTerm(raw)]);
  const hits = messages.filter((m) => contains(m.tokens));
  const byLang = new Map<string, [number, number]>();
  for (const m of hits) {
    const c = byLang.get(m.lang) ?? [0, 0];
    c[m.harmful ? 0 : 1]++;
    byLang.set(m.lang, c);
  }
  const harmful = hits.filter((m) => m.harmful).length;
  const u = udhr.filter((p) => contains(p.tokens)).map((p) => p.code);
  console.log(`${raw}\t${harmful}/${hits.length - harmful}\t${[...byLang].map(([l, [h, b]]) => `${l} ${h}/${b}`).join(' ')}${u.length ? `\tUDHR ${u.join(',')}` : ''}`);
  if (values.show) for (const m of hits.filter((x) => !x.harmful).slice(0, 5)) console.log(`   benign ${m.lang}: ${m.text.replace(/\s+/g, ' ').slice(0, 160)}`);
}
if (values.union) {
  const containsAny = matcherOf(positionals.map(foldTerm));
  const hits = messages.filter((m) => containsAny(m.tokens));
  const harmful = hits.filter((m) => m.harmful).length;
  const u = udhr.filter((p) => containsAny(p.tokens)).length;
  console.log(`any of the ${positionals.length} terms\t${harmful}/${hits.length - harmful}\tUDHR paragraphs ${u}`);
}
