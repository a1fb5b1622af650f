/**
 * Deterministic logistic regression over sparse hashed features: Adagrad SGD
 * with L2, class-balanced sample weights, shuffled by a seeded PRNG. Pure
 * double-precision JS arithmetic, so the same inputs give bit-identical weights.
 */
import { FEATURE_COUNT, HASH_SIZE, type TextFeatures } from '../src/core/classifiers/features.ts';

export interface TrainingExample {
  features: TextFeatures;
  label: 0 | 1;
  weight?: number;
}

export interface TrainOptions {
  seed: number;
  epochs?: number;
  learningRate?: number;
  l2?: number;
  /** L2 for the dense features after the hashed n-grams (structural, lexicon, conjunction, embedding, concept); defaults to l2. */
  l2Dense?: number;
  /** Cap on the positive-class up-weighting used for balancing. */
  maxClassWeight?: number;
  /** Features at or above this index are left out (their weights stay zero). */
  featureLimit?: number;
  /** Scales each hashed n-gram by |log-count ratio|^power (NBSVM); 0 or absent: off. */
  nbPower?: number;
  /**
   * Return the average of the iterates over the last `averageEpochs` epochs instead of the last iterate (0 or absent:
   * the last iterate). With a learning rate of 1 the last iterate depends on the last examples of the last shuffle.
   */
  averageEpochs?: number;
}

/**
 * NBSVM-style scale per hashed feature: |log((p_j/|p|)/(q_j/|q|))|^power with add-one smoothing,
 * from the weighted counts in positives (p) and negatives (q). Only the hashed n-grams are scaled.
 */
export function naiveBayesScale(examples: TrainingExample[], power: number): Float64Array {
  const positive = new Float64Array(HASH_SIZE).fill(1);
  const negative = new Float64Array(HASH_SIZE).fill(1);
  let positiveTotal = HASH_SIZE;
  let negativeTotal = HASH_SIZE;
  for (const example of examples) {
    const counts = example.label === 1 ? positive : negative;
    const weight = example.weight ?? 1;
    const { indices, length } = example.features;
    for (let i = 0; i < length; i++) {
      const index = indices[i]!;
      if (index >= HASH_SIZE) break;
      counts[index]! += weight;
      if (example.label === 1) positiveTotal += weight;
      else negativeTotal += weight;
    }
  }
  const scale = new Float64Array(FEATURE_COUNT).fill(1);
  for (let j = 0; j < HASH_SIZE; j++) scale[j] = Math.abs(Math.log(positive[j]! / positiveTotal / (negative[j]! / negativeTotal))) ** power;
  return scale;
}

export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffleInPlace<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

const INITIAL_ACCUMULATOR = 1;

/**
 * The mean of a vector's values after each step of a window, kept lazily for sparse updates: a component's sum is
 * brought up to date (its value times the steps it has held) only just before it changes, and once more at the end.
 */
export class LazyAverage {
  private readonly sums: Float64Array;
  private readonly since: Float64Array;
  steps = 0;
  constructor(size: number) {
    this.sums = new Float64Array(size);
    this.since = new Float64Array(size);
  }
  /** Call with a component's value just before it changes during the current step. */
  beforeChange(index: number, value: number): void {
    this.sums[index]! += value * (this.steps - this.since[index]!);
    this.since[index] = this.steps;
  }
  step(): void {
    this.steps++;
  }
  /** Replaces `values` (the current ones) by their means over the window. */
  finish(values: Float64Array): void {
    for (let j = 0; j < values.length; j++) values[j] = (this.sums[j]! + values[j]! * (this.steps - this.since[j]!)) / this.steps;
  }
}

export function trainLogistic(examples: TrainingExample[], options: TrainOptions): { weights: Float64Array; bias: number } {
  const epochs = options.epochs ?? 6;
  const learningRate = options.learningRate ?? 1;
  const l2 = options.l2 ?? 1e-6;
  const l2Dense = options.l2Dense ?? l2;
  const positives = examples.filter((e) => e.label === 1).reduce((sum, e) => sum + (e.weight ?? 1), 0);
  const negatives = examples.filter((e) => e.label === 0).reduce((sum, e) => sum + (e.weight ?? 1), 0);
  const maxClassWeight = options.maxClassWeight ?? 8;
  const positiveWeight = Math.min(maxClassWeight, Math.max(1 / maxClassWeight, negatives / Math.max(positives, 1)));

  const featureLimit = options.featureLimit ?? FEATURE_COUNT;
  const weights = new Float64Array(FEATURE_COUNT);
  const squaredGradients = new Float64Array(FEATURE_COUNT);
  const scale = options.nbPower ? naiveBayesScale(examples, options.nbPower) : undefined;
  let bias = 0;
  let biasSquared = 0;
  const order = examples.map((_, i) => i);
  const random = mulberry32(options.seed);
  const averagedFrom = epochs - Math.min(epochs, Math.max(0, options.averageEpochs ?? 0));
  const average = averagedFrom < epochs ? new LazyAverage(FEATURE_COUNT) : undefined;
  let biasSum = 0;
  for (let epoch = 0; epoch < epochs; epoch++) {
    shuffleInPlace(order, random);
    const averageThisEpoch = average !== undefined && epoch >= averagedFrom;
    for (const exampleIndex of order) {
      const example = examples[exampleIndex]!;
      const { indices, values } = example.features;
      let length = example.features.length;
      // Dense features come last and in increasing index order, so the excluded ones are a suffix.
      while (length > 0 && indices[length - 1]! >= featureLimit) length--;
      let margin = bias;
      for (let i = 0; i < length; i++) margin += weights[indices[i]!]! * values[i]! * (scale ? scale[indices[i]!]! : 1);
      const predicted = 1 / (1 + Math.exp(-margin));
      const sampleWeight = (example.weight ?? 1) * (example.label === 1 ? positiveWeight : 1);
      const gradient = (predicted - example.label) * sampleWeight;
      for (let i = 0; i < length; i++) {
        const index = indices[i]!;
        const g = gradient * values[i]! * (scale ? scale[index]! : 1) + (index < HASH_SIZE ? l2 : l2Dense) * weights[index]!;
        squaredGradients[index]! += g * g;
        if (averageThisEpoch) average.beforeChange(index, weights[index]!);
        // The initial accumulator damps the first steps: without it Adagrad moves a
        // feature seen once by a full learning rate, and thousands of rare n-grams
        // from the (much larger) negative pool drag every long text down.
        weights[index]! -= (learningRate * g) / Math.sqrt(squaredGradients[index]! + INITIAL_ACCUMULATOR);
      }
      biasSquared += gradient * gradient;
      bias -= (learningRate * gradient) / Math.sqrt(biasSquared + 1e-8);
      if (averageThisEpoch) {
        biasSum += bias;
        average.step();
      }
    }
  }
  if (average && average.steps > 0) {
    bias = biasSum / average.steps;
    average.finish(weights);
  }
  // The scale folds into the weights, so scoring is unchanged.
  if (scale) for (let j = 0; j < HASH_SIZE; j++) weights[j]! *= scale[j]!;
  return { weights, bias };
}
