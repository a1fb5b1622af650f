/** Ranking and threshold metrics for binary scores. */
export function rocAuc(scores: number[], labels: number[]): number {
  const order = scores.map((score, i) => ({ score, label: labels[i]! })).sort((a, b) => a.score - b.score);
  let rankSumPositive = 0;
  let positives = 0;
  let i = 0;
  while (i < order.length) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]!.score === order[i]!.score) j++;
    const averageRank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) if (order[k]!.label === 1) {
      rankSumPositive += averageRank;
      positives++;
    }
    i = j + 1;
  }
  const negatives = order.length - positives;
  if (positives === 0 || negatives === 0) return Number.NaN;
  return (rankSumPositive - (positives * (positives + 1)) / 2) / (positives * negatives);
}

/** Average precision (area under the precision-recall curve, step interpolation). */
export function averagePrecision(scores: number[], labels: number[]): number {
  const order = scores.map((score, i) => ({ score, label: labels[i]! })).sort((a, b) => b.score - a.score);
  const positives = order.filter((o) => o.label === 1).length;
  if (positives === 0) return Number.NaN;
  let truePositives = 0;
  let sum = 0;
  for (let i = 0; i < order.length; i++) {
    if (order[i]!.label === 1) {
      truePositives++;
      sum += truePositives / (i + 1);
    }
  }
  return sum / positives;
}

export function thresholdMetrics(scores: number[], labels: number[], threshold: number): { precision: number; recall: number; f1: number; accuracy: number } {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  scores.forEach((score, i) => {
    const predicted = score >= threshold;
    const actual = labels[i] === 1;
    if (predicted && actual) tp++;
    else if (predicted) fp++;
    else if (actual) fn++;
    else tn++;
  });
  const precision = tp + fp > 0 ? tp / (tp + fp) : 0;
  const recall = tp + fn > 0 ? tp / (tp + fn) : 0;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1, accuracy: (tp + tn) / Math.max(1, scores.length) };
}

/**
 * A statistic of a labelled sample given a count per item (how often a bootstrap resample drew it). The item
 * order is sorted once here, so each resample costs one pass instead of a sort.
 */
export type WeightedStatistic = (counts: Uint32Array) => number;

/** ROC AUC with each item counted `counts[i]` times (ties share their average rank, as in rocAuc). */
export function weightedRocAuc(scores: number[], labels: number[]): WeightedStatistic {
  const order = scores.map((_, i) => i).sort((a, b) => scores[a]! - scores[b]!);
  return (counts) => {
    let negativesBelow = 0;
    let pairs = 0;
    let positives = 0;
    let i = 0;
    while (i < order.length) {
      let j = i;
      let groupPositives = 0;
      let groupNegatives = 0;
      while (j < order.length && scores[order[j]!] === scores[order[i]!]) {
        const item = order[j]!;
        if (labels[item] === 1) groupPositives += counts[item]!;
        else groupNegatives += counts[item]!;
        j++;
      }
      pairs += groupPositives * (negativesBelow + groupNegatives / 2);
      positives += groupPositives;
      negativesBelow += groupNegatives;
      i = j;
    }
    return positives === 0 || negativesBelow === 0 ? Number.NaN : pairs / (positives * negativesBelow);
  };
}

/** F1 at `threshold` with each item counted `counts[i]` times. */
export function weightedF1(scores: number[], labels: number[], threshold: number): WeightedStatistic {
  return (counts) => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (let i = 0; i < scores.length; i++) {
      const predicted = scores[i]! >= threshold;
      if (labels[i] === 1) {
        if (predicted) tp += counts[i]!;
        else fn += counts[i]!;
      } else if (predicted) fp += counts[i]!;
    }
    return tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
  };
}

/** The share of items that are right (1) with each item counted `counts[i]` times. */
export function weightedMean(correct: number[]): WeightedStatistic {
  return (counts) => {
    let sum = 0;
    let total = 0;
    for (let i = 0; i < correct.length; i++) {
      sum += correct[i]! * counts[i]!;
      total += counts[i]!;
    }
    return total === 0 ? Number.NaN : sum / total;
  };
}

/**
 * Percentile bootstrap interval of a statistic over `size` items: `resamples` draws of `size` items with replacement
 * from a seeded generator, so the report's intervals are reproducible. It shows how far a figure could move on another
 * sample of the same kind, which matters where a figure sits close to its bar.
 */
export function bootstrapInterval(size: number, statistic: WeightedStatistic, random: () => number, resamples = 1000, level = 0.95): [number, number] {
  const values: number[] = [];
  const counts = new Uint32Array(size);
  for (let r = 0; r < resamples; r++) {
    counts.fill(0);
    for (let k = 0; k < size; k++) counts[Math.floor(random() * size)]!++;
    const value = statistic(counts);
    if (!Number.isNaN(value)) values.push(value);
  }
  values.sort((a, b) => a - b);
  const at = (q: number) => values[Math.min(values.length - 1, Math.max(0, Math.round(q * (values.length - 1))))]!;
  return [at((1 - level) / 2), at(1 - (1 - level) / 2)];
}

/** The lowest score cut (a score at or above it flags) that leaves at least `share` of the benign scores below it. */
export function cutLeavingAlone(benign: readonly number[], share: number): number {
  const sorted = [...benign].sort((a, b) => b - a);
  // The small guard keeps 10 × (1 − 0.9) from flooring to 0 allowed flags.
  const allowedFlags = Math.floor(sorted.length * (1 - share) + 1e-9);
  return allowedFlags >= sorted.length ? 0 : sorted[allowedFlags]! + 1e-6;
}
