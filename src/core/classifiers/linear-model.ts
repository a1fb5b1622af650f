/**
 * Logistic-regression models over the shared feature vector, stored as
 * int8-quantized dense weights (one scale per model), deflated. Quantization
 * keeps ~15 models far below the size budget; the loss in AUC is negligible
 * because weights are dominated by a few hundred large values.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { FEATURE_COUNT, type TextFeatures } from './features.ts';

const MAGIC = 0x4f4d4c31; // "OML1"

export class LinearModel {
  /**
   * The weights stay int8 codes, a quarter of the memory of float weights: a message reads a
   * few hundred scattered weights of each model, and smaller arrays miss the cache less.
   * `levels` holds the float32 value of each of the 256 codes, so a weight is exactly what a
   * float32 array decoded from the same file would hold.
   */
  constructor(
    readonly name: string,
    readonly codes: Int8Array,
    readonly levels: Float32Array,
    readonly bias: number,
  ) {}

  /** Raw margin (log-odds). */
  margin(features: TextFeatures): number {
    const { indices, values, length } = features;
    const { codes, levels } = this;
    let sum = this.bias;
    for (let i = 0; i < length; i++) sum += levels[codes[indices[i]!]! + 128]! * values[i]!;
    return sum;
  }

  probability(features: TextFeatures): number {
    return 1 / (1 + Math.exp(-this.margin(features)));
  }

  /** Highest window probability of a long text (whole-text probability for short ones). */
  maxWindowProbability(features: TextFeatures): number {
    if (features.chunks.length === 0) return this.probability(features);
    let best = -Infinity;
    for (const chunk of features.chunks) best = Math.max(best, this.margin(chunk));
    return 1 / (1 + Math.exp(-best));
  }

  /**
   * Highest probability among the sentence groups of a long text; texts without groups fall back to windows.
   * The whole text is not scored beside its groups (round 5, chosen on training/dev.ts passages): the models
   * learn from sentences and short passages, and a long text's whole-text score mostly added false positives.
   */
  maxSentenceProbability(features: TextFeatures): number {
    if (features.sentenceGroups.length === 0) return this.maxWindowProbability(features);
    let best = -Infinity;
    for (const group of features.sentenceGroups) best = Math.max(best, this.margin(group));
    return 1 / (1 + Math.exp(-best));
  }
}

/**
 * The loaded models side by side, four to a block: the int8 codes of feature i for the four models of block b are
 * the 4 bytes at b * (4 × features) + 4 i. A block is scored in one pass, and one cache miss brings what its four
 * models read for a feature, where the models' own arrays cost a miss each (a message reads a few hundred
 * scattered features of each model). Each block has its table of its own (1 MB for 2^18 + a few hundred features),
 * rather than the 16 slots of a feature sharing 16 bytes: a cache line then holds 16 features of the block being
 * scored instead of 4 features of all four blocks, most of whose bytes were never read (a channel scores one or two
 * blocks per part), so the features that recur from message to message stay in the cache four times as many.
 * Margins are computed four slots at a time, each exactly as LinearModel.margin computes it: the bias, then each
 * feature's weight times its value added in index order, in float64.
 */
export class ModelTable {
  static readonly SLOTS = 16;
  /** Block b's codes start at b * blockLength. */
  readonly codes: Int8Array;
  /** The same bytes, a feature's four codes of a block as one little-endian word (read at once, then taken apart). */
  readonly words: Int32Array;
  readonly blockLength: number;
  /**
   * Slot s's 256 levels at s * 256 (zeros for an empty slot), as float64: the same values as the models' float32
   * levels (a float32 converts exactly), without a conversion per feature and slot in the sums.
   */
  readonly levels: Float64Array;
  readonly biases: Float64Array;

  constructor(readonly slots: ReadonlyArray<LinearModel | null>) {
    if (slots.length > ModelTable.SLOTS) throw new Error(`at most ${ModelTable.SLOTS} models side by side`);
    const count = slots.find((m) => m !== null)?.codes.length ?? 0;
    this.blockLength = count * 4;
    this.codes = new Int8Array(this.blockLength * (ModelTable.SLOTS / 4));
    this.words = new Int32Array(this.codes.buffer);
    this.levels = new Float64Array(ModelTable.SLOTS * 256);
    this.biases = new Float64Array(ModelTable.SLOTS);
    slots.forEach((m, slot) => {
      if (!m) return;
      if (m.codes.length !== count) throw new Error(`model ${m.name}: ${m.codes.length} features, not ${count}`);
      const offset = (slot >> 2) * this.blockLength + (slot & 3);
      for (let i = 0; i < count; i++) this.codes[offset + i * 4] = m.codes[i]!;
      this.levels.set(m.levels, slot * 256);
      this.biases[slot] = m.bias;
    });
  }

  /** The margins of the slots 4 block to 4 block + 3 for `features`, into `out` at those slots. */
  block(features: TextFeatures, block: number, out: Float64Array | number[]): void {
    const { indices, values, length } = features;
    if (!LITTLE_ENDIAN) return this.blockByBytes(features, block, out);
    const { words, levels } = this;
    const first = block * 4;
    const offset = block * (this.blockLength >> 2);
    const l0 = first * 256 + 128;
    const l1 = l0 + 256;
    const l2 = l1 + 256;
    const l3 = l2 + 256;
    let s0 = this.biases[first]!;
    let s1 = this.biases[first + 1]!;
    let s2 = this.biases[first + 2]!;
    let s3 = this.biases[first + 3]!;
    for (let i = 0; i < length; i++) {
      // Slot 4 block + k's code is byte k of the word, sign-extended.
      const word = words[offset + indices[i]!]!;
      const value = values[i]!;
      s0 += levels[l0 + ((word << 24) >> 24)]! * value;
      s1 += levels[l1 + ((word << 16) >> 24)]! * value;
      s2 += levels[l2 + ((word << 8) >> 24)]! * value;
      s3 += levels[l3 + (word >> 24)]! * value;
    }
    out[first] = s0;
    out[first + 1] = s1;
    out[first + 2] = s2;
    out[first + 3] = s3;
  }

  /** `block` reading the codes byte by byte: what a big-endian host runs (public so any host can test it). */
  blockByBytes(features: TextFeatures, block: number, out: Float64Array | number[]): void {
    const { indices, values, length } = features;
    const { codes, levels } = this;
    const first = block * 4;
    const offset = block * this.blockLength;
    const l0 = first * 256 + 128;
    let s0 = this.biases[first]!;
    let s1 = this.biases[first + 1]!;
    let s2 = this.biases[first + 2]!;
    let s3 = this.biases[first + 3]!;
    for (let i = 0; i < length; i++) {
      const base = offset + indices[i]! * 4;
      const value = values[i]!;
      s0 += levels[l0 + codes[base]!]! * value;
      s1 += levels[l0 + 256 + codes[base + 1]!]! * value;
      s2 += levels[l0 + 512 + codes[base + 2]!]! * value;
      s3 += levels[l0 + 768 + codes[base + 3]!]! * value;
    }
    out[first] = s0;
    out[first + 1] = s1;
    out[first + 2] = s2;
    out[first + 3] = s3;
  }
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Quantizes weights to int8 and returns the uncompressed payload (what reproducibility hashes compare). */
export function encodeModel(weights: Float64Array | Float32Array, bias: number): Buffer {
  let maxAbs = 0;
  for (let i = 0; i < weights.length; i++) maxAbs = Math.max(maxAbs, Math.abs(weights[i]!));
  const scale = maxAbs > 0 ? maxAbs / 127 : 1;
  const header = Buffer.alloc(16);
  header.writeUInt32LE(MAGIC, 0);
  header.writeUInt32LE(weights.length, 4);
  header.writeFloatLE(scale, 8);
  header.writeFloatLE(bias, 12);
  const body = Buffer.alloc(weights.length);
  for (let i = 0; i < weights.length; i++) body.writeInt8(Math.max(-127, Math.min(127, Math.round(weights[i]! / scale))), i);
  return Buffer.concat([header, body]);
}

export function compressModel(payload: Buffer): Buffer {
  return deflateRawSync(payload, { level: 9 });
}

export function decompressModel(file: Buffer): Buffer {
  return inflateRawSync(file);
}

export function decodeModel(name: string, payload: Buffer): LinearModel {
  if (payload.readUInt32LE(0) !== MAGIC) throw new Error(`model ${name}: bad format`);
  const count = payload.readUInt32LE(4);
  if (count !== FEATURE_COUNT) throw new Error(`model ${name}: expects ${count} features, featurizer has ${FEATURE_COUNT}`);
  const scale = payload.readFloatLE(8);
  const bias = payload.readFloatLE(12);
  const codes = new Int8Array(count);
  codes.set(new Int8Array(payload.buffer, payload.byteOffset + 16, count));
  const levels = new Float32Array(256);
  for (let code = -128; code <= 127; code++) levels[code + 128] = code * scale;
  return new LinearModel(name, codes, levels, bias);
}
