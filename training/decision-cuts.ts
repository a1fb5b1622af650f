/**
 * The cuts read off the corpus's dev split (round 22, `training/dev-corpus.ts --target 0.97` on every corpus file of
 * the snapshot): the lowest cut that leaves 97 % of the policy's benign dev messages alone, its own look-alikes and
 * all benign messages counted half each, for models trained without that split. `hate` and `self_harm` keep round
 * 11's cuts (0.389 and 0.703): they are in NOT_RAISED, and the dev run asked for 0.567 and 0.715. The realistic dev
 * set moves cuts from these; a policy in NOT_RAISED never goes above its value here.
 */
export const CORPUS_DEV_CUTS = {
  toxicity_severe: 0.465,
  toxicity: 0.791,
  hate: 0.389,
  sexual: 0.57,
  violence: 0.538,
  self_harm: 0.703,
  flirtation: 0.534,
  spam: 0.161,
  self_promotion: 0.791,
} as const satisfies Record<string, number>;

/**
 * Each corpus model's decision cut: the model's own probability at which the service flags (train-all.ts folds it into
 * the bias, so a shipped model flags at 0.5). CORPUS_DEV_CUTS but for `self_harm`, `violence` and `toxicity_severe`,
 * each moved as said below. Round 14 moved every cut on the realistic dev set (training/dev-realistic/, never trained
 * on, so the shipped models themselves can be scored there, unlike the corpus's dev split, whose dev models' operating
 * points move by up to 0.14 from run to run), and that round was scored once and rejected
 * (evaluation/rounds/round-14.md). Round 23 lowered `self_harm`'s on a check file written for it
 * (training/corpus/writer-shcheck/: veiled ideation beside support messages, which round 22's models caught less of
 * than round 11's), the dev set's benign judgements held at 95 % (evaluation/rounds/round-23.md). Round 26 moved
 * `violence`'s (0.538 → 0.488, `movedDecisionCut(0.538, 0.45)`) for the model trained with writer-hobby, on the check
 * file training/corpus/writer-vpcheck/ with the dev set's `violence` judgements held at 85 % caught and 95 % left alone
 * (evaluation/rounds/round-26.md). Round 31 took `toxicity_severe`'s from round 28's dev run (0.465 → 0.459), fitted
 * while writer-hostile also trained the violence model that severe reads beside its own, and kept unchanged rather than
 * fitted again for the shipped scope. `toxicity` keeps its own: the same run's 0.760 flagged more counter-speech, news
 * and complaints on the realistic dev set and two more benign judgements on the fourth sealed set (round 29), which is
 * what round 31 was designed after (evaluation/rounds/round-29.md to round-31.md).
 * `npx tsx training/dev-realistic.ts --propose-cuts` prints what realisticDevThresholds asks of the models in use.
 */
export const DECISION_CUTS: Readonly<Record<keyof typeof CORPUS_DEV_CUTS, number>> = { ...CORPUS_DEV_CUTS, self_harm: 0.56, violence: 0.488, toxicity_severe: 0.459 };

/** A policy's decision cut, or undefined for a policy without one (profanity: a word list's model). */
export function decisionCutOf(policy: string, cuts: Readonly<Record<string, number>> = DECISION_CUTS): number | undefined {
  return Object.hasOwn(cuts, policy) ? cuts[policy] : undefined;
}

const logit = (p: number) => Math.log(p / (1 - p));
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/**
 * The targets on fresh text, overall and in each of TARGET_LANGUAGES (scripts/eval-realistic.ts's
 * SEALED_TARGETS and SEALED_LANGUAGES; a test keeps them equal): the cuts keep as far above them as the dev set allows.
 */
export const CAUGHT_TARGET = 0.85;
export const LEFT_ALONE_TARGET = 0.95;
export const TARGET_LANGUAGES: readonly string[] = ['es', 'pt', 'fr', 'de'];
/** The share of its harmful judgements a policy's threshold must still catch (the per-policy floor is 75 %). */
export const REALISTIC_CAUGHT_FLOOR = 0.8;
/** Thresholds stay inside this range, so that a policy with few dev judgements cannot be switched off or on for all text. */
const THRESHOLD_RANGE = [0.15, 0.95] as const;

/**
 * Policies whose cut may fall below CORPUS_DEV_CUTS but not rise above it. Issue #4 holds hate and spam to bars on
 * public sets made mostly of what they must catch (HateCheck accuracy ≥ 0.72, round 13's higher hate cut gave 0.709;
 * SMS spam F1 ≥ 0.94), which a few hundred realistic judgements cannot weigh against. self_harm: a missed message of
 * suicidal intent costs more than a support message sent to review, and round 14 showed what a raise fitted on 99
 * judgements does (evaluation/rounds/round-14.md: cut 0.703 → 0.946, caught 57.7 % and 72.4 % on the sealed sets).
 */
export const NOT_RAISED: Readonly<Record<string, string>> = {
  hate: 'HateCheck accuracy ≥ 0.72 (issue #4)',
  spam: 'SMS spam F1 ≥ 0.94 (issue #4)',
  self_harm: 'a missed message of suicidal intent costs more than a false flag (round 14)',
};

/**
 * The highest threshold a policy may take, in the probabilities of models trained with the decision cut `now`: for a
 * policy in NOT_RAISED the threshold at which it flags as it would with its corpus cut `base`.
 */
export function highestThreshold(policy: string, base = decisionCutOf(policy, CORPUS_DEV_CUTS), now = decisionCutOf(policy)): number {
  if (!Object.hasOwn(NOT_RAISED, policy) || base === undefined || now === undefined) return THRESHOLD_RANGE[1];
  return sigmoid(logit(base) - logit(now));
}

export interface PolicyScores {
  policy: string;
  harmful: readonly number[];
  benign: readonly number[];
  /** The language of each harmful and benign judgement, for the per-language targets (optional). */
  harmfulLanguages?: readonly string[];
  benignLanguages?: readonly string[];
  /** False for a policy without a decision cut (profanity, a word list's model): it keeps flagging at 0.5. */
  movable: boolean;
}

interface Candidate {
  threshold: number;
  caught: number;
  flagged: number;
}

/**
 * The thresholds a policy may take, each with what it catches and flags: one in every gap between two distinct scores
 * (midway, or 0.5 itself when 0.5 lies in the gap), and the limits themselves. Limits, in the order they win: the
 * catch floor (never catching less than REALISTIC_CAUGHT_FLOOR of the harm), then the NOT_RAISED cap, then
 * THRESHOLD_RANGE. A policy without harmful judgements keeps 0.5.
 */
function candidatesOf(scores: PolicyScores): Candidate[] {
  if (!scores.movable || scores.harmful.length === 0) return [{ threshold: 0.5, caught: 0, flagged: 0 }];
  const ascending = [...scores.harmful].sort((a, b) => a - b);
  // The highest threshold still catching the floor share: the score of the harmful judgement at that quantile.
  const floorCut = ascending[Math.floor(ascending.length * (1 - REALISTIC_CAUGHT_FLOOR) + 1e-9)]!;
  const upper = Math.min(floorCut, highestThreshold(scores.policy));
  const lower = Math.min(THRESHOLD_RANGE[0], upper);
  const distinct = [...new Set([...scores.harmful, ...scores.benign])].sort((a, b) => b - a);
  const thresholds = new Set([upper, lower]);
  for (let i = 0; i < distinct.length; i++) {
    const score = distinct[i]!;
    const below = i + 1 < distinct.length ? distinct[i + 1]! : 0;
    thresholds.add(below < 0.5 && 0.5 <= score ? 0.5 : (score + below) / 2);
  }
  return [...thresholds]
    .filter((t) => t >= lower && t <= upper)
    .map((threshold) => ({ threshold, caught: scores.harmful.filter((p) => p >= threshold).length, flagged: scores.benign.filter((p) => p >= threshold).length }));
}

/** One policy's threshold at an exchange rate (realisticDevThresholds picks the rate). */
export function policyThresholdAt(scores: PolicyScores, exchangeRate: number): number {
  return bestAt(candidatesOf(scores), exchangeRate);
}

/** The candidate maximising caught − exchangeRate × false flags; of equally good ones, the nearest 0.5 (the cut in use). */
function bestAt(candidates: readonly Candidate[], exchangeRate: number): number {
  let best = candidates[0]!;
  let bestValue = best.caught - exchangeRate * best.flagged;
  for (const candidate of candidates) {
    const value = candidate.caught - exchangeRate * candidate.flagged;
    if (value > bestValue + 1e-9 || (Math.abs(value - bestValue) <= 1e-9 && Math.abs(candidate.threshold - 0.5) < Math.abs(best.threshold - 0.5))) {
      best = candidate;
      bestValue = value;
    }
  }
  return best.threshold;
}

/**
 * The thresholds, in the shipped models' probabilities (flagging at 0.5), that the realistic dev set asks for. One
 * exchange rate for all policies — how many caught judgements one false flag must buy — so the false flags go where
 * they catch the most; each policy flags where caught − rate × false flags is highest within its limits (candidatesOf:
 * the catch floor, the NOT_RAISED cap, THRESHOLD_RANGE). The rate is
 * the one whose thresholds keep the issue's targets — caught and left alone, overall and in each of TARGET_LANGUAGES
 * — furthest above their bars: the largest smallest margin.
 */
export function realisticDevThresholds(policies: readonly PolicyScores[]): Map<string, number> {
  const candidates = policies.map((p) => candidatesOf(p));
  const at = (rate: number) => new Map(policies.map((p, i) => [p.policy, bestAt(candidates[i]!, rate)]));
  const margin = (thresholds: Map<string, number>) => {
    const tallies = new Map<string, { harmful: number; caught: number; benign: number; leftAlone: number }>();
    const tally = (group: string | undefined) => {
      if (group === undefined) return null;
      const found = tallies.get(group) ?? { harmful: 0, caught: 0, benign: 0, leftAlone: 0 };
      tallies.set(group, found);
      return found;
    };
    for (const p of policies) {
      const threshold = thresholds.get(p.policy)!;
      p.harmful.forEach((score, i) => {
        const language = p.harmfulLanguages?.[i];
        for (const t of [tally('all'), TARGET_LANGUAGES.includes(language ?? '') ? tally(language) : null]) {
          if (!t) continue;
          t.harmful++;
          if (score >= threshold) t.caught++;
        }
      });
      p.benign.forEach((score, i) => {
        const language = p.benignLanguages?.[i];
        for (const t of [tally('all'), TARGET_LANGUAGES.includes(language ?? '') ? tally(language) : null]) {
          if (!t) continue;
          t.benign++;
          if (score < threshold) t.leftAlone++;
        }
      });
    }
    let smallest = Infinity;
    for (const t of tallies.values()) {
      if (t.harmful > 0) smallest = Math.min(smallest, t.caught / t.harmful - CAUGHT_TARGET);
      if (t.benign > 0) smallest = Math.min(smallest, t.leftAlone / t.benign - LEFT_ALONE_TARGET);
    }
    return smallest;
  };
  // Rates from 1/16 to 64 caught judgements per false flag, on a log scale; of equally good rates the lowest, which
  // catches the most.
  let best: { margin: number; thresholds: Map<string, number> } | null = null;
  for (let step = 0; step <= 120; step++) {
    const thresholds = at(2 ** (-4 + step / 12));
    const value = margin(thresholds);
    if (best === null || value > best.margin + 1e-12) best = { margin: value, thresholds };
  }
  return best!.thresholds;
}

/** The decision cut, in the model's own probability, that makes the shipped model flag at `threshold` instead of 0.5. */
export function movedDecisionCut(decisionCut: number, threshold: number): number {
  return sigmoid(logit(decisionCut) + logit(threshold));
}
