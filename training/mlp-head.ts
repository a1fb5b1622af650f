/**
 * Issue #27 experiment (training/dev-mlp.ts), kept under training/ because the service does not load it: models.ts and policies.ts do not read
 * heads, because on the OpenAI dev half the heads did not improve violence or hate by the 0.02 required to ship them
 * (figures in training/dev-mlp.ts).
 *
 * A small non-linear head beside a linear model. One hidden layer (ReLU) over the DENSE part of the
 * feature vector (structural, lexicon, interaction, embedding mean+max and concept features: every index at or
 * above HASH_SIZE); its output logit is added to the linear model's margin, times a blend weight:
 *
 *   margin = linear margin + blend × (b2 + Σ_j w2_j · relu(b1_j + Σ_d W1_dj · x_d))
 *
 * The training standardization (mean, standard deviation per input) is folded into W1 and b1 when the file is
 * written, so scoring reads the raw feature values. Only the dense features a text has (non-zero values) are
 * read; the hidden activations go into a buffer allocated once per head (no allocation per message).
 *
 * File "OMH1", raw-deflated: magic u32, inputs u32, hidden u32, blend f32, b2 f32; then b1 (hidden f32),
 * w2 (hidden f32), W1 (inputs × hidden f32, input-major).
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { FEATURE_COUNT, HASH_SIZE, type TextFeatures } from '../src/core/classifiers/features.ts';

const MAGIC = 0x4f4d4831; // "OMH1"
/** The head's inputs: the feature indices HASH_SIZE … FEATURE_COUNT − 1. */
export const DENSE_INPUTS = FEATURE_COUNT - HASH_SIZE;
const HEADER_BYTES = 20;

export class MlpHead {
  private readonly hiddenValues: Float64Array;

  constructor(
    readonly name: string,
    readonly hidden: number,
    /** Input-major: input d's weights to the hidden units at d × hidden. */
    readonly w1: Float32Array,
    readonly b1: Float32Array,
    readonly w2: Float32Array,
    readonly b2: number,
    readonly blend: number,
  ) {
    if (w1.length !== DENSE_INPUTS * hidden || b1.length !== hidden || w2.length !== hidden) throw new Error(`head ${name}: inconsistent shapes`);
    this.hiddenValues = new Float64Array(hidden);
  }

  /** The head's own logit for a text, window or sentence group. */
  logit(features: TextFeatures): number {
    const { indices, values, length } = features;
    const { hidden, w1, b1, w2 } = this;
    const h = this.hiddenValues;
    for (let j = 0; j < hidden; j++) h[j] = b1[j]!;
    // Dense features come last, in increasing index order.
    let start = length;
    while (start > 0 && indices[start - 1]! >= HASH_SIZE) start--;
    for (let i = start; i < length; i++) {
      const value = values[i]!;
      const row = (indices[i]! - HASH_SIZE) * hidden;
      for (let j = 0; j < hidden; j++) h[j]! += w1[row + j]! * value;
    }
    let out = this.b2;
    for (let j = 0; j < hidden; j++) {
      const a = h[j]!;
      if (a > 0) out += w2[j]! * a;
    }
    return out;
  }

  /** What the head adds to the linear margin. */
  contribution(features: TextFeatures): number {
    return this.blend * this.logit(features);
  }
}

/** The uncompressed payload (what reproducibility hashes compare). */
export function encodeHead(head: { hidden: number; w1: ArrayLike<number>; b1: ArrayLike<number>; w2: ArrayLike<number>; b2: number; blend: number }): Buffer {
  const { hidden } = head;
  const payload = Buffer.alloc(HEADER_BYTES + 4 * (2 * hidden + DENSE_INPUTS * hidden));
  payload.writeUInt32LE(MAGIC, 0);
  payload.writeUInt32LE(DENSE_INPUTS, 4);
  payload.writeUInt32LE(hidden, 8);
  payload.writeFloatLE(head.blend, 12);
  payload.writeFloatLE(head.b2, 16);
  let offset = HEADER_BYTES;
  for (let j = 0; j < hidden; j++, offset += 4) payload.writeFloatLE(head.b1[j]!, offset);
  for (let j = 0; j < hidden; j++, offset += 4) payload.writeFloatLE(head.w2[j]!, offset);
  for (let k = 0; k < DENSE_INPUTS * hidden; k++, offset += 4) payload.writeFloatLE(head.w1[k]!, offset);
  return payload;
}

export const compressHead = (payload: Buffer): Buffer => deflateRawSync(payload, { level: 9 });

export function decodeHead(name: string, file: Buffer): MlpHead {
  let payload: Buffer;
  try {
    payload = inflateRawSync(file);
  } catch {
    throw new Error(`head ${name}: not a deflated OMH1 file`);
  }
  if (payload.length < HEADER_BYTES || payload.readUInt32LE(0) !== MAGIC) throw new Error(`head ${name}: bad format`);
  const inputs = payload.readUInt32LE(4);
  if (inputs !== DENSE_INPUTS) throw new Error(`head ${name}: expects ${inputs} dense features, featurizer has ${DENSE_INPUTS}`);
  const hidden = payload.readUInt32LE(8);
  if (hidden < 1 || hidden > 1024 || payload.length !== HEADER_BYTES + 4 * (2 * hidden + inputs * hidden)) throw new Error(`head ${name}: truncated or wrong size`);
  const floats = (offset: number, count: number): Float32Array => {
    const out = new Float32Array(count);
    for (let k = 0; k < count; k++) out[k] = payload.readFloatLE(offset + 4 * k);
    return out;
  };
  const b1 = floats(HEADER_BYTES, hidden);
  const w2 = floats(HEADER_BYTES + 4 * hidden, hidden);
  const w1 = floats(HEADER_BYTES + 8 * hidden, inputs * hidden);
  const blend = payload.readFloatLE(12);
  const b2 = payload.readFloatLE(16);
  for (const array of [b1, w2, w1]) for (let k = 0; k < array.length; k++) if (!Number.isFinite(array[k]!)) throw new Error(`head ${name}: non-finite weight`);
  if (!Number.isFinite(blend) || !Number.isFinite(b2)) throw new Error(`head ${name}: non-finite weight`);
  return new MlpHead(name, hidden, w1, b1, w2, b2, blend);
}
