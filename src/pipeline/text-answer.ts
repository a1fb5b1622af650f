/**
 * A text worker's answer on its way to the main thread. Cloned as objects, the policies' per-field results were
 * most of the cost of the message at both ends (the structured clone writes and reads every key of every small
 * object): about 15 µs for the default channel's nine results of one text. Results of the shapes the built-in
 * policies give travel instead as numbers, flags and label ids in a few flat arrays and are built again here, key
 * for key in the same order with the same values; any other result (another key, order or type) travels as it is.
 * A field's texts, which the main thread sent, do not travel back, nor does a Unicode analysis that found and
 * changed nothing (most texts): its word count is enough to build it again.
 */
import type { FieldResult } from '../core/policy.ts';
import { UNICODE_SIGNALS, type UnicodeAnalysis } from '../core/unicode/types.ts';
import type { TextAnalysis, TextJob } from './text-analysis.ts';
import { keyMask } from './response-json.ts';

/** A result's keys, in the only order packed results may have them. */
const RESULT_KEYS = ['probability', 'flagged', 'labels', 'matches', 'data'] as const;
const HAS_FLAGGED = 1 << 1;
const HAS_LABELS = 1 << 2;
const HAS_MATCHES = 1 << 3;
const HAS_DATA = 1 << 4;
/** Per label: it has `flagged`, and its value. */
const LABEL_HAS_FLAGGED = 2;
const LABEL_FLAGGED = 1;

export interface PackedTextAnalysis {
  /**
   * Per field: its normalized text (null: the text sent), and its Unicode analysis, or the word count of an analysis
   * of the text sent that found and changed nothing.
   */
  fields: Array<{ key: string | null; text: string | null; unicode: UnicodeAnalysis | number | null }>;
  /** Per entry of TextAnalysis.outcomes: as it is, or the number of its per-field results packed in the arrays below. */
  outcomes: Array<TextAnalysis['outcomes'][number] | number>;
  /** Probabilities of results and labels, in order (a plain array: cloned element by element, it cost less than a typed array's store at both ends). */
  numbers: number[];
  /** Per result: its keys (bits of RESULT_KEYS), then its flag, its label count and each label's flag bits, as present. */
  codes: number[];
  labelIds: string[];
  /** `matches` and `data` values, in order. */
  values: unknown[];
  insights: TextAnalysis['insights'];
}

/** Which of RESULT_KEYS a plain object has, one bit each, when its keys are a subsequence of them with `probability` first; -1 otherwise. */
function resultKeys(result: object): number {
  const mask = keyMask(result, RESULT_KEYS);
  return mask > 0 && (mask & 1) === 1 ? mask : -1;
}

/** A label `{id, probability}` or `{id, probability, flagged}` (plain, in that order, of those types). */
function isPackableLabel(label: unknown): boolean {
  if (typeof label !== 'object' || label === null || Object.getPrototypeOf(label) !== Object.prototype) return false;
  let count = 0;
  for (const key in label) {
    if (!Object.hasOwn(label, key) || key !== (count === 0 ? 'id' : count === 1 ? 'probability' : count === 2 ? 'flagged' : '')) return false;
    count++;
  }
  const { id, probability, flagged } = label as { id: unknown; probability: unknown; flagged?: unknown };
  return count >= 2 && typeof id === 'string' && typeof probability === 'number' && (count === 2 || typeof flagged === 'boolean');
}

function isPackable(result: FieldResult): boolean {
  if (typeof result !== 'object' || result === null) return false;
  const mask = resultKeys(result);
  if (mask < 0 || typeof result.probability !== 'number') return false;
  if ((mask & HAS_FLAGGED) !== 0 && typeof result.flagged !== 'boolean') return false;
  if ((mask & HAS_LABELS) !== 0) {
    const labels: unknown = result.labels;
    if (!Array.isArray(labels)) return false;
    for (let i = 0; i < labels.length; i++) if (!isPackableLabel(labels[i])) return false;
  }
  return true;
}

const ANALYSIS_KEYS = ['spoofed', 'signals', 'wordsTotal', 'wordsAffected', 'findings', 'normalized', 'changed'] as const;

/** True when `value` is a plain object whose own keys are `keys`, in that order. */
function hasKeys(value: unknown, keys: readonly string[]): boolean {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false;
  let k = 0;
  for (const key in value) if (!Object.hasOwn(value, key) || key !== keys[k++]) return false;
  return k === keys.length;
}

/** The word count of an analysis of `original` that found and changed nothing, key for key as analyzeUnicode writes one; -1 for any other. */
function cleanWordCount(unicode: UnicodeAnalysis | null, original: string): number {
  if (!hasKeys(unicode, ANALYSIS_KEYS)) return -1;
  const { spoofed, signals, wordsTotal, wordsAffected, findings, normalized, changed } = unicode!;
  if (spoofed !== false || wordsAffected !== 0 || changed !== false || normalized !== original || typeof wordsTotal !== 'number') return -1;
  if (!Array.isArray(findings) || findings.length !== 0 || Object.getPrototypeOf(findings) !== Array.prototype || Object.keys(findings).length !== 0) return -1;
  if (!hasKeys(signals, UNICODE_SIGNALS)) return -1;
  for (const signal of UNICODE_SIGNALS) if (signals[signal] !== false) return -1;
  return wordsTotal;
}

function cleanAnalysis(original: string, wordsTotal: number): UnicodeAnalysis {
  const signals = {} as UnicodeAnalysis['signals'];
  for (const signal of UNICODE_SIGNALS) signals[signal] = false;
  return { spoofed: false, signals, wordsTotal, wordsAffected: 0, findings: [], normalized: original, changed: false };
}

export function packTextAnalysis(analysis: TextAnalysis): PackedTextAnalysis {
  const numbers: number[] = [];
  const codes: number[] = [];
  const labelIds: string[] = [];
  const values: unknown[] = [];
  const outcomes = analysis.outcomes.map((outcome) => {
    if (outcome === null || !('perField' in outcome) || !outcome.perField.every(isPackable)) return outcome;
    for (const result of outcome.perField) {
      const mask = resultKeys(result);
      codes.push(mask);
      numbers.push(result.probability);
      if ((mask & HAS_FLAGGED) !== 0) codes.push(result.flagged ? 1 : 0);
      if ((mask & HAS_LABELS) !== 0) {
        codes.push(result.labels!.length);
        for (const label of result.labels!) {
          codes.push(label.flagged === undefined ? 0 : LABEL_HAS_FLAGGED | (label.flagged ? LABEL_FLAGGED : 0));
          labelIds.push(label.id);
          numbers.push(label.probability);
        }
      }
      if ((mask & HAS_MATCHES) !== 0) values.push(result.matches);
      if ((mask & HAS_DATA) !== 0) values.push(result.data);
    }
    return outcome.perField.length;
  });
  const fields = analysis.fields.map(({ key, original, text, unicode }) => {
    const words = cleanWordCount(unicode, original);
    return { key, text: text === original ? null : text, unicode: words >= 0 ? words : unicode };
  });
  return { fields, outcomes, numbers, codes, labelIds, values, insights: analysis.insights };
}

/** The analysis of `job` from its packed answer. */
export function unpackTextAnalysis(packed: PackedTextAnalysis, job: TextJob): TextAnalysis {
  if (packed.fields.length !== job.fields.length) throw new Error('The text worker answered for other fields');
  const fields = packed.fields.map(({ key, text, unicode }, i) => {
    const original = job.fields[i]!.text;
    return { key, original, text: text ?? original, unicode: typeof unicode === 'number' ? cleanAnalysis(original, unicode) : unicode };
  });
  const { numbers, codes, labelIds, values } = packed;
  let n = 0;
  let c = 0;
  let l = 0;
  let v = 0;
  const outcomes = packed.outcomes.map((outcome) => {
    if (typeof outcome !== 'number') return outcome;
    const perField: FieldResult[] = [];
    for (let i = 0; i < outcome; i++) {
      const mask = codes[c++]!;
      const result: FieldResult = { probability: numbers[n++]! };
      if ((mask & HAS_FLAGGED) !== 0) result.flagged = codes[c++] === 1;
      if ((mask & HAS_LABELS) !== 0) {
        const count = codes[c++]!;
        const labels: NonNullable<FieldResult['labels']> = [];
        for (let j = 0; j < count; j++) {
          const flags = codes[c++]!;
          labels.push(
            (flags & LABEL_HAS_FLAGGED) !== 0
              ? { id: labelIds[l++]!, probability: numbers[n++]!, flagged: (flags & LABEL_FLAGGED) !== 0 }
              : { id: labelIds[l++]!, probability: numbers[n++]! },
          );
        }
        result.labels = labels;
      }
      if ((mask & HAS_MATCHES) !== 0) result.matches = values[v++] as FieldResult['matches'];
      if ((mask & HAS_DATA) !== 0) result.data = values[v++] as FieldResult['data'];
      perField.push(result);
    }
    return { perField };
  });
  return { fields, outcomes, insights: packed.insights };
}

/**
 * A batch's answers in one message (up to 16 jobs, text-workers.ts): the packed answers' arrays laid end to end, the
 * numbers and codes in typed arrays and each label id once. Cloned, an object costs its keys and a plain array each
 * element's tag, at both ends; a typed array is copied as one block, worth its own store once there are a batch's
 * numbers rather than one answer's (a batch of 16 packed, posted, received and unpacked: 11.0–11.4 µs per job as
 * separate answers, 7.8–7.9 µs so; docs/benchmarks.md).
 */
export interface PackedBatch {
  /** Per job: its error, or null when its answer is in the arrays below. */
  errors: Array<string | null>;
  /** Per job, seven counts: its entries of fields, outcomes, numbers, codes, labels, values and insights (zeros for an error). */
  counts: Int32Array;
  fields: PackedTextAnalysis['fields'];
  outcomes: PackedTextAnalysis['outcomes'];
  numbers: Float64Array;
  codes: Int32Array;
  /** Each label's id, as its index in labelIds. */
  labels: Int32Array;
  labelIds: string[];
  values: unknown[];
  insights: PackedTextAnalysis['insights'];
}

export type TextAnswer = { result: PackedTextAnalysis } | { error: string };

export function packBatch(answers: readonly TextAnswer[]): PackedBatch {
  const counts = new Int32Array(answers.length * 7);
  const errors: Array<string | null> = [];
  const fields: PackedBatch['fields'] = [];
  const outcomes: PackedBatch['outcomes'] = [];
  const values: unknown[] = [];
  const insights: PackedBatch['insights'] = [];
  let numberCount = 0;
  let codeCount = 0;
  let labelCount = 0;
  for (const answer of answers) {
    if ('result' in answer) {
      numberCount += answer.result.numbers.length;
      codeCount += answer.result.codes.length;
      labelCount += answer.result.labelIds.length;
    }
  }
  const numbers = new Float64Array(numberCount);
  const codes = new Int32Array(codeCount);
  const labels = new Int32Array(labelCount);
  const labelIds: string[] = [];
  const labelIndex = new Map<string, number>();
  let n = 0;
  let c = 0;
  let l = 0;
  answers.forEach((answer, j) => {
    if (!('result' in answer)) {
      errors.push(answer.error);
      return;
    }
    errors.push(null);
    const packed = answer.result;
    const at = j * 7;
    counts[at] = packed.fields.length;
    counts[at + 1] = packed.outcomes.length;
    counts[at + 2] = packed.numbers.length;
    counts[at + 3] = packed.codes.length;
    counts[at + 4] = packed.labelIds.length;
    counts[at + 5] = packed.values.length;
    counts[at + 6] = packed.insights.length;
    for (const field of packed.fields) fields.push(field);
    for (const outcome of packed.outcomes) outcomes.push(outcome);
    for (const value of packed.values) values.push(value);
    for (const insight of packed.insights) insights.push(insight);
    for (let i = 0; i < packed.numbers.length; i++) numbers[n++] = packed.numbers[i]!;
    for (let i = 0; i < packed.codes.length; i++) codes[c++] = packed.codes[i]!;
    for (const id of packed.labelIds) {
      let index = labelIndex.get(id);
      if (index === undefined) {
        index = labelIds.length;
        labelIds.push(id);
        labelIndex.set(id, index);
      }
      labels[l++] = index;
    }
  });
  return { errors, counts, fields, outcomes, numbers, codes, labels, labelIds, values, insights };
}

/** The answers of packBatch, each as packTextAnalysis gave it (or its error). */
export function unpackBatch(batch: PackedBatch): TextAnswer[] {
  const { counts, numbers, codes, labels, labelIds } = batch;
  let f = 0;
  let o = 0;
  let n = 0;
  let c = 0;
  let l = 0;
  let v = 0;
  let s = 0;
  return batch.errors.map((error, j): TextAnswer => {
    if (error !== null) return { error };
    const at = j * 7;
    const jobNumbers: number[] = [];
    for (let end = n + counts[at + 2]!; n < end; n++) jobNumbers.push(numbers[n]!);
    const jobCodes: number[] = [];
    for (let end = c + counts[at + 3]!; c < end; c++) jobCodes.push(codes[c]!);
    const jobLabelIds: string[] = [];
    for (let end = l + counts[at + 4]!; l < end; l++) jobLabelIds.push(labelIds[labels[l]!]!);
    const result: PackedTextAnalysis = {
      fields: batch.fields.slice(f, (f += counts[at]!)),
      outcomes: batch.outcomes.slice(o, (o += counts[at + 1]!)),
      numbers: jobNumbers,
      codes: jobCodes,
      labelIds: jobLabelIds,
      values: batch.values.slice(v, (v += counts[at + 5]!)),
      insights: batch.insights.slice(s, (s += counts[at + 6]!)),
    };
    return { result };
  });
}
