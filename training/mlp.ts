/**
 * Issue #27: trains the one-hidden-layer head of training/mlp-head.ts over the dense features of the
 * same rows and weights a linear model trains on. Deterministic: seeded initialisation and shuffling (mulberry32),
 * plain double-precision JS arithmetic in a fixed order, so the same inputs give the same weights bit for bit.
 * Mini-batch Adam on the class-balanced logistic loss (the positive class up-weighted as in logistic.ts), L2 on
 * the weights; the inputs are standardized while training and the standardization is folded into the first layer.
 */
import { HASH_SIZE } from '../src/core/classifiers/features.ts';
import { DENSE_INPUTS } from './mlp-head.ts';
import { mulberry32, shuffleInPlace, type TrainingExample } from './logistic.ts';

export interface MlpOptions {
  seed: number;
  hidden?: number;
  epochs?: number;
  learningRate?: number;
  l2?: number;
  batch?: number;
  maxClassWeight?: number;
  /**
   * Per example, a fixed margin the head's logit is added to while training (the linear model's out-of-fold margin):
   * the head then learns what the linear model gets wrong on rows it did not see, not the whole task again.
   */
  offsets?: Float64Array;
}

export interface TrainedHead {
  hidden: number;
  w1: Float64Array;
  b1: Float64Array;
  w2: Float64Array;
  b2: number;
}

/** The dense part of each example, one row of DENSE_INPUTS values per example. */
export function denseRows(examples: TrainingExample[]): Float32Array {
  const rows = new Float32Array(examples.length * DENSE_INPUTS);
  examples.forEach((example, e) => {
    const { indices, values, length } = example.features;
    for (let i = length - 1; i >= 0 && indices[i]! >= HASH_SIZE; i--) rows[e * DENSE_INPUTS + indices[i]! - HASH_SIZE] = values[i]!;
  });
  return rows;
}

/**
 * The examples' dense rows standardized in place (unweighted mean and deviation over the rows; a constant input keeps
 * deviation 1), with the positive class's weight: the weighted negatives over the weighted positives, clamped to
 * [1 / maxClassWeight, maxClassWeight].
 */
function standardizedRows(examples: TrainingExample[], maxClassWeight: number): { x: Float64Array; mean: Float64Array; deviation: Float64Array; positiveWeight: number } {
  const D = DENSE_INPUTS;
  const n = examples.length;
  const x = denseRows(examples);
  const mean = new Float64Array(D);
  const deviation = new Float64Array(D);
  for (let e = 0; e < n; e++) for (let d = 0; d < D; d++) mean[d]! += x[e * D + d]!;
  for (let d = 0; d < D; d++) mean[d]! /= Math.max(1, n);
  for (let e = 0; e < n; e++)
    for (let d = 0; d < D; d++) {
      const c = x[e * D + d]! - mean[d]!;
      deviation[d]! += c * c;
    }
  for (let d = 0; d < D; d++) {
    const s = Math.sqrt(deviation[d]! / Math.max(1, n));
    deviation[d] = s > 1e-6 ? s : 1;
  }
  for (let e = 0; e < n; e++) for (let d = 0; d < D; d++) x[e * D + d] = (x[e * D + d]! - mean[d]!) / deviation[d]!;
  const positives = examples.filter((e) => e.label === 1).reduce((sum, e) => sum + (e.weight ?? 1), 0);
  const negatives = examples.filter((e) => e.label === 0).reduce((sum, e) => sum + (e.weight ?? 1), 0);
  const positiveWeight = Math.min(maxClassWeight, Math.max(1 / maxClassWeight, negatives / Math.max(positives, 1)));
  return { x, mean, deviation, positiveWeight };
}

export function trainMlp(examples: TrainingExample[], options: MlpOptions): TrainedHead {
  const D = DENSE_INPUTS;
  const H = options.hidden ?? 32;
  const epochs = options.epochs ?? 8;
  const rate = options.learningRate ?? 1e-3;
  const l2 = options.l2 ?? 1e-4;
  const batch = options.batch ?? 32;
  const maxClassWeight = options.maxClassWeight ?? 8;
  const n = examples.length;
  const { x, mean, deviation, positiveWeight } = standardizedRows(examples, maxClassWeight);

  const random = mulberry32(options.seed);
  const P = D * H + 2 * H + 1; // W1 (input-major), b1, w2, b2
  const params = new Float64Array(P);
  const W1 = 0;
  const B1 = D * H;
  const W2 = B1 + H;
  const B2 = W2 + H;
  const limit1 = Math.sqrt(6 / (D + H));
  for (let k = 0; k < D * H; k++) params[W1 + k] = (2 * random() - 1) * limit1;
  const limit2 = Math.sqrt(6 / (H + 1));
  for (let j = 0; j < H; j++) params[W2 + j] = (2 * random() - 1) * limit2;
  const grad = new Float64Array(P);
  const m1 = new Float64Array(P);
  const m2 = new Float64Array(P);
  const h = new Float64Array(H);
  const dh = new Float64Array(H);
  const order = examples.map((_, i) => i);
  let step = 0;
  const beta1 = 0.9;
  const beta2 = 0.999;
  for (let epoch = 0; epoch < epochs; epoch++) {
    shuffleInPlace(order, random);
    for (let start = 0; start < n; start += batch) {
      const end = Math.min(n, start + batch);
      grad.fill(0);
      for (let b = start; b < end; b++) {
        const e = order[b]!;
        const row = e * D;
        for (let j = 0; j < H; j++) h[j] = params[B1 + j]!;
        for (let d = 0; d < D; d++) {
          const v = x[row + d]!;
          if (v === 0) continue;
          const w = W1 + d * H;
          for (let j = 0; j < H; j++) h[j]! += params[w + j]! * v;
        }
        let z = params[B2]! + (options.offsets ? options.offsets[e]! : 0);
        for (let j = 0; j < H; j++) if (h[j]! > 0) z += params[W2 + j]! * h[j]!;
        const example = examples[e]!;
        const p = 1 / (1 + Math.exp(-z));
        const g = (p - example.label) * (example.weight ?? 1) * (example.label === 1 ? positiveWeight : 1);
        grad[B2]! += g;
        for (let j = 0; j < H; j++) {
          if (h[j]! > 0) {
            grad[W2 + j]! += g * h[j]!;
            dh[j] = g * params[W2 + j]!;
          } else dh[j] = 0;
          grad[B1 + j]! += dh[j]!;
        }
        for (let d = 0; d < D; d++) {
          const v = x[row + d]!;
          if (v === 0) continue;
          const w = W1 + d * H;
          for (let j = 0; j < H; j++) grad[w + j]! += dh[j]! * v;
        }
      }
      step++;
      const scale = 1 / (end - start);
      const correction1 = 1 - beta1 ** step;
      const correction2 = 1 - beta2 ** step;
      for (let k = 0; k < P; k++) {
        let g = grad[k]! * scale;
        if (k < B1 || (k >= W2 && k < B2)) g += l2 * params[k]!;
        m1[k] = beta1 * m1[k]! + (1 - beta1) * g;
        m2[k] = beta2 * m2[k]! + (1 - beta2) * g * g;
        params[k]! -= (rate * (m1[k]! / correction1)) / (Math.sqrt(m2[k]! / correction2) + 1e-8);
      }
    }
  }
  // Fold the standardization into the first layer: W1' = W1 / s, b1' = b1 − Σ_d W1 · mean / s.
  const w1 = new Float64Array(D * H);
  const b1 = new Float64Array(H);
  for (let j = 0; j < H; j++) b1[j] = params[B1 + j]!;
  for (let d = 0; d < D; d++)
    for (let j = 0; j < H; j++) {
      const w = params[W1 + d * H + j]!;
      w1[d * H + j] = w / deviation[d]!;
      b1[j]! -= (w * mean[d]!) / deviation[d]!;
    }
  return { hidden: H, w1, b1, w2: params.slice(W2, W2 + H), b2: params[B2]! };
}

/**
 * Step 2 of the experiment (not shipped): a hidden layer over the hashed n-grams too (fastText-like: each hashed
 * feature has a row of `hidden` weights, summed times its value) beside the standardized dense features.
 * Per-example Adagrad, rows of the hashed table updated only where a text has features; deterministic.
 */
export interface SparseHead {
  hidden: number;
  /** HASH_SIZE × hidden, feature-major. */
  table: Float64Array;
  /** DENSE_INPUTS × hidden (on raw values: the standardization is folded in, as for TrainedHead). */
  w1: Float64Array;
  b1: Float64Array;
  w2: Float64Array;
  b2: number;
}

export function trainSparseMlp(examples: TrainingExample[], options: MlpOptions): SparseHead {
  const D = DENSE_INPUTS;
  const H = options.hidden ?? 16;
  const epochs = options.epochs ?? 4;
  const rate = options.learningRate ?? 0.05;
  const l2 = options.l2 ?? 1e-6;
  const maxClassWeight = options.maxClassWeight ?? 8;
  const n = examples.length;
  const { x, mean, deviation, positiveWeight } = standardizedRows(examples, maxClassWeight);
  const random = mulberry32(options.seed);
  const table = new Float64Array(HASH_SIZE * H);
  const tableG = new Float64Array(HASH_SIZE * H);
  const w1 = new Float64Array(D * H);
  const w1G = new Float64Array(D * H);
  const limit1 = Math.sqrt(6 / (D + H));
  for (let k = 0; k < D * H; k++) w1[k] = (2 * random() - 1) * limit1;
  const b1 = new Float64Array(H);
  const b1G = new Float64Array(H);
  const w2 = new Float64Array(H);
  const w2G = new Float64Array(H);
  const limit2 = Math.sqrt(6 / (H + 1));
  for (let j = 0; j < H; j++) w2[j] = (2 * random() - 1) * limit2;
  let b2 = 0;
  let b2G = 0;
  const INITIAL = 0.1;
  const h = new Float64Array(H);
  const dh = new Float64Array(H);
  const order = examples.map((_, i) => i);
  const step = (params: Float64Array, squares: Float64Array, k: number, g: number) => {
    squares[k]! += g * g;
    params[k]! -= (rate * g) / Math.sqrt(squares[k]! + INITIAL);
  };
  for (let epoch = 0; epoch < epochs; epoch++) {
    shuffleInPlace(order, random);
    for (const e of order) {
      const { indices, values, length } = examples[e]!.features;
      const row = e * D;
      for (let j = 0; j < H; j++) h[j] = b1[j]!;
      for (let i = 0; i < length; i++) {
        const index = indices[i]!;
        if (index >= HASH_SIZE) break;
        const v = values[i]!;
        const base = index * H;
        for (let j = 0; j < H; j++) h[j]! += table[base + j]! * v;
      }
      for (let d = 0; d < D; d++) {
        const v = x[row + d]!;
        const base = d * H;
        for (let j = 0; j < H; j++) h[j]! += w1[base + j]! * v;
      }
      let z = b2;
      for (let j = 0; j < H; j++) if (h[j]! > 0) z += w2[j]! * h[j]!;
      const example = examples[e]!;
      const p = 1 / (1 + Math.exp(-z));
      const g = (p - example.label) * (example.weight ?? 1) * (example.label === 1 ? positiveWeight : 1);
      for (let j = 0; j < H; j++) dh[j] = h[j]! > 0 ? g * w2[j]! : 0;
      for (let j = 0; j < H; j++) if (h[j]! > 0) step(w2, w2G, j, g * h[j]! + l2 * w2[j]!);
      b2G += g * g;
      b2 -= (rate * g) / Math.sqrt(b2G + INITIAL);
      for (let j = 0; j < H; j++) if (dh[j] !== 0) step(b1, b1G, j, dh[j]!);
      for (let i = 0; i < length; i++) {
        const index = indices[i]!;
        if (index >= HASH_SIZE) break;
        const v = values[i]!;
        const base = index * H;
        for (let j = 0; j < H; j++) if (dh[j] !== 0) step(table, tableG, base + j, dh[j]! * v + l2 * table[base + j]!);
      }
      for (let d = 0; d < D; d++) {
        const v = x[row + d]!;
        const base = d * H;
        for (let j = 0; j < H; j++) if (dh[j] !== 0) step(w1, w1G, base + j, dh[j]! * v + l2 * w1[base + j]!);
      }
    }
  }
  const w1Raw = new Float64Array(D * H);
  const b1Raw = Float64Array.from(b1);
  for (let d = 0; d < D; d++)
    for (let j = 0; j < H; j++) {
      w1Raw[d * H + j] = w1[d * H + j]! / deviation[d]!;
      b1Raw[j]! -= (w1[d * H + j]! * mean[d]!) / deviation[d]!;
    }
  return { hidden: H, table, w1: w1Raw, b1: b1Raw, w2, b2 };
}

/** The logit of a SparseHead for a text, window or sentence group (`buffer`: hidden values, reused). */
export function sparseLogit(head: SparseHead, features: { indices: Int32Array; values: Float32Array; length: number }, buffer: Float64Array): number {
  const { hidden: H, table, w1, b1, w2 } = head;
  const { indices, values, length } = features;
  for (let j = 0; j < H; j++) buffer[j] = b1[j]!;
  for (let i = 0; i < length; i++) {
    const index = indices[i]!;
    const v = values[i]!;
    const base = index < HASH_SIZE ? index * H : (index - HASH_SIZE) * H;
    const weights = index < HASH_SIZE ? table : w1;
    for (let j = 0; j < H; j++) buffer[j]! += weights[base + j]! * v;
  }
  let out = head.b2;
  for (let j = 0; j < H; j++) if (buffer[j]! > 0) out += w2[j]! * buffer[j]!;
  return out;
}
