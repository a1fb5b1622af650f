// Prints the composition of the sealed set as Markdown tables (counts only, no text).
// Usage: node evaluation/sealed/stats.mjs
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const directory = dirname(fileURLToPath(import.meta.url));
const languages = ['en', 'es', 'pt', 'fr', 'de'];
const policies = ['toxicity', 'toxicity_severe', 'hate', 'violence', 'sexual', 'self_harm', 'spam', 'self_promotion', 'profanity', 'flirtation'];
const platforms = ['chat', 'forum', 'marketplace', 'game', 'dating', 'comments', 'social', 'review'];

const messages = readdirSync(directory)
  .filter((name) => name.endsWith('.jsonl'))
  .sort()
  .flatMap((name) => readFileSync(join(directory, name), 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line)));

const count = (predicate) => Object.fromEntries(languages.map((lang) => [lang, messages.filter((m) => m.lang === lang && predicate(m)).length]));
const row = (label, cells) => `| ${label} | ${cells.join(' | ')} |`;
const total = (byLang) => languages.reduce((sum, lang) => sum + byLang[lang], 0);
const hasHarm = (m) => Object.values(m.judgements).includes('harmful');
const length = (m) => [...m.text].length;

const lines = [];
lines.push(`${messages.length} messages, ${messages.reduce((n, m) => n + Object.keys(m.judgements).length, 0)} judgements.`, '');
lines.push(row('', [...languages, 'all']), row('---', [...languages, 'all'].map(() => '---:')));
for (const [label, predicate] of [
  ['messages', () => true],
  ['with a harmful judgement', hasHarm],
  ['all judgements benign', (m) => !hasHarm(m)],
  ['under 40 characters', (m) => length(m) < 40],
  ['400 characters or more', (m) => length(m) >= 400],
]) {
  const byLang = count(predicate);
  lines.push(row(label, [...languages.map((lang) => byLang[lang]), total(byLang)]));
}
lines.push('', 'Judgements per policy, harmful / benign:', '');
lines.push(row('policy', [...languages, 'all']), row('---', [...languages, 'all'].map(() => '---:')));
for (const policy of policies) {
  const harmful = count((m) => m.judgements[policy] === 'harmful');
  const benign = count((m) => m.judgements[policy] === 'benign');
  lines.push(row(policy, [...languages.map((lang) => `${harmful[lang]} / ${benign[lang]}`), `${total(harmful)} / ${total(benign)}`]));
}
lines.push('', 'Messages per platform:', '');
lines.push(row('platform', [...languages, 'all']), row('---', [...languages, 'all'].map(() => '---:')));
for (const platform of platforms) {
  const byLang = count((m) => m.platform === platform);
  lines.push(row(platform, [...languages.map((lang) => byLang[lang]), total(byLang)]));
}
console.log(lines.join('\n'));
