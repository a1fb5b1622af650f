/**
 * `npx tsx training/dev-spam-cv.ts`: five-fold cross-validation of the spam model over the
 * SMS train part (never the test rows): each fold is the dev split once (OPEN_MODERATION_SMS_DEV_FOLD)
 * and the out-of-fold scores are pooled. Five times the positives of the single dev split,
 * so spam variants are compared with less noise. Each fold's boundary is fit on that fold,
 * so the F1 at 0.5 is optimistic alike for every variant; AUC and AP are threshold-free.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { averagePrecision, rocAuc, thresholdMetrics } from './metrics.ts';

const directory = mkdtempSync(join(tmpdir(), 'om-spam-cv-'));
const scores: number[] = [];
const labels: number[] = [];
for (let fold = 0; fold < 5; fold++) {
  const out = join(directory, `fold${fold}.json`);
  execFileSync(process.execPath, ['--import', 'tsx', 'training/dev.ts', '--only', 'spam'], {
    env: { ...process.env, OPEN_MODERATION_SMS_DEV_FOLD: String(fold), OPEN_MODERATION_DEV_SCORES: out },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const result = JSON.parse(readFileSync(out, 'utf8')) as { scores: number[]; labels: number[] };
  scores.push(...result.scores);
  labels.push(...result.labels);
}
rmSync(directory, { recursive: true, force: true });
const at = thresholdMetrics(scores, labels, 0.5);
console.log(`SMS 5-fold CV +${labels.filter((l) => l === 1).length} -${labels.filter((l) => l === 0).length}: AUC ${rocAuc(scores, labels).toFixed(4)} AP ${averagePrecision(scores, labels).toFixed(4)} P ${at.precision.toFixed(3)} R ${at.recall.toFixed(3)} F1 ${at.f1.toFixed(4)}`);
