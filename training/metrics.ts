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
