/**
 * The public sets added for issue #27 (../shared/datasets/README.md): EDOS, Latent Hatred (implicit hate),
 * ConvAbuse, the online-misogyny set and the Reddit C-SSRS set. Their train parts train; their dev parts
 * are for training/dev.ts; the test parts of EDOS, ConvAbuse and online-misogyny are reported by
 * scripts/eval.ts and never trained on.
 */
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { parseCsvObjects } from './csv.ts';
import { DATASETS_DIR } from './datasets.ts';

export type PublicSplit = 'train' | 'dev' | 'test';

/** A labelled text of a public set: one flag per policy it informs (absent: says nothing about it). */
export interface PublicExample {
  text: string;
  source: string;
  hate?: 0 | 1;
  toxicity?: 0 | 1;
  violence?: 0 | 1;
  sexual?: 0 | 1;
  self_harm?: 0 | 1;
}

const read = (path: string): string => readFileSync(resolve(DATASETS_DIR, path), 'utf8');
const bit = (value: boolean): 0 | 1 => (value ? 1 : 0);
/** Sets without a dev split: every fifth text by SHA-256 is dev. */
const hashDev = (text: string): boolean => createHash('sha256').update(text).digest()[0]! % 5 === 0;

/**
 * EDOS (Kirk et al. 2023): sexist posts are hate (sex is a protected attribute); category 1 (threats, plans
 * to harm, incitement) is violence too; vector 2.3 (dehumanising attacks and overt sexual objectification)
 * is not used for sexual, which it only partly is. Its own train / dev / test splits.
 */
export function edos(split: PublicSplit): PublicExample[] {
  return parseCsvObjects(read('edos/edos_labelled_aggregated.csv'))
    .filter((row) => row.split === split)
    .map((row) => {
      const sexist = row.label_sexist === 'sexist';
      return { text: row.text ?? '', source: 'edos', hate: bit(sexist), violence: bit((row.label_category ?? '').startsWith('1.')) };
    });
}

/**
 * Latent Hatred (ElSherief et al. 2021): implicit and explicit hate are hate; stage 2's "threatening" posts are
 * violence. No splits of its own: a fifth by hash is dev; there is no test part (it is not reported).
 */
export function implicitHate(split: Exclude<PublicSplit, 'test'>): PublicExample[] {
  const threatening = new Set(
    parseCsvObjects(read('implicit-hate/implicit_hate_v1_stg2_posts.tsv'), '\t')
      .filter((row) => row.implicit_class === 'threatening' || row.extra_implicit_class === 'threatening')
      .map((row) => row.post ?? ''),
  );
  return parseCsvObjects(read('implicit-hate/implicit_hate_v1_stg1_posts.tsv'), '\t')
    .filter((row) => hashDev(row.post ?? '') === (split === 'dev'))
    .map((row) => {
      const text = row.post ?? '';
      const hateful = row.class === 'implicit_hate' || row.class === 'explicit_hate';
      return { text, source: 'implicit-hate', hate: bit(hateful), ...(threatening.has(text) ? { violence: 1 as const } : {}) };
    });
}

/**
 * ConvAbuse (Cercas Curry et al. 2021): the user's turn to a conversational agent. Abusive when most of its
 * annotators rated it -1 to -3; sexual harassment when most of them ticked it. Its train / valid / test files.
 */
export function convAbuse(split: PublicSplit): PublicExample[] {
  const file = split === 'train' ? 'ConvAbuseEMNLPtrain.csv' : split === 'dev' ? 'ConvAbuseEMNLPvalid.csv' : 'ConvAbuseEMNLPtest.csv';
  return parseCsvObjects(read(`convabuse/${file}`)).map((row) => {
    let annotators = 0;
    let abusive = 0;
    let harassment = 0;
    for (let a = 1; a <= 8; a++) {
      const p = `Annotator${a}_`;
      const votes = ['1', '0', '-1', '-2', '-3'].map((level) => row[`${p}is_abuse.${level}`]);
      if (!votes.some((v) => v === '1')) continue;
      annotators++;
      if (votes.slice(2).some((v) => v === '1')) abusive++;
      if (row[`${p}sex_harassment`] === '1') harassment++;
    }
    const majority = (n: number) => annotators > 0 && n * 2 > annotators;
    return { text: row.user ?? '', source: 'convabuse', toxicity: bit(majority(abusive)), sexual: bit(majority(harassment)) };
  });
}

/**
 * Online misogyny (Guest et al. 2021): misogynistic Reddit posts are hate and toxicity; "Threatening_Physical_violence"
 * and "Threatening_Sexual_violence" are violence. Its train split trains (a fifth by hash is dev), its test split is reported.
 */
export function onlineMisogyny(split: PublicSplit): PublicExample[] {
  return parseCsvObjects(read('online-misogyny/final_labels.csv'))
    .filter((row) => (split === 'test' ? row.split === 'test' : row.split === 'train' && hashDev(row.body ?? '') === (split === 'dev')))
    .filter((row) => (row.body ?? '').trim() !== '' && row.body !== '[deleted]' && row.body !== '[removed]')
    .map((row) => {
      const misogynistic = row.level_1 === 'Misogynistic';
      const threatening = (row.level_3 ?? '').startsWith('Threatening_') && (row.level_3 ?? '').includes('violence');
      return { text: row.body ?? '', source: 'online-misogyny', hate: bit(misogynistic), toxicity: bit(misogynistic), ...(threatening ? { violence: 1 as const } : {}) };
    });
}

/**
 * Reddit C-SSRS (Gaur et al. 2019): labels are per user, not per post, so each post of a user rated ideation,
 * behaviour or attempt is a weak self_harm positive and each post of a "supportive" user (people answering
 * others in crisis: benign look-alikes) a negative; "indicator" users are left out. A fifth of users by hash is dev.
 */
export function cssrsReddit(split: Exclude<PublicSplit, 'test'>): PublicExample[] {
  const out: PublicExample[] = [];
  for (const row of parseCsvObjects(read('cssrs-reddit/500_Reddit_users_posts_labels.csv'))) {
    if (hashDev(row.User ?? '') !== (split === 'dev')) continue;
    const label = row.Label ?? '';
    if (label === 'Indicator') continue;
    const positive = label === 'Ideation' || label === 'Behavior' || label === 'Attempt';
    for (const post of pythonStringList(row.Post ?? '')) if (post.trim().length >= 20) out.push({ text: post.slice(0, 2000), source: 'cssrs-reddit', self_harm: bit(positive) });
  }
  return out;
}

/** The items of a Python list literal of strings ("['a', \"b's\"]"), as the C-SSRS file stores each user's posts. */
export function pythonStringList(literal: string): string[] {
  const out: string[] = [];
  let i = literal.indexOf('[') + 1;
  while (i > 0 && i < literal.length) {
    const quote = literal[i];
    if (quote !== "'" && quote !== '"') {
      i++;
      continue;
    }
    let value = '';
    i++;
    while (i < literal.length && literal[i] !== quote) {
      if (literal[i] === '\\' && i + 1 < literal.length) {
        const next = literal[i + 1]!;
        value += next === 'n' ? '\n' : next === 't' ? '\t' : next;
        i += 2;
      } else value += literal[i++];
    }
    out.push(value);
    i++;
  }
  return out;
}
