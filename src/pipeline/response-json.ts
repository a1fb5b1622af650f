/**
 * The stored evaluation's policies array, written as JSON by a shape-aware writer (the batch writer splices it
 * into the stored row). The response is written by one JSON.stringify of the whole body (routes/moderate.ts):
 * splicing this text into it cost more than serializing the array again, since the pieces had to be
 * stringified one by one and the resulting rope flattened to be written (10.7-12.8 against 2.9-4.2 µs for the
 * default channel's response, docs/benchmarks.md).
 */
import type { Label, PolicyResult } from '../core/policy.ts';

/**
 * JSON.stringify(policies), byte for byte: a policy result has a known shape,
 * so its keys are written as constants instead of being discovered, escaped and
 * dispatched one by one. It took about half of JSON.stringify's time in the
 * micro-benchmark it was written against; on the server's real results a later
 * host measured the two alike (docs/benchmarks.md, run L). If any policy or label
 * departs from that shape (another key or order, another type, an inherited
 * or hidden property, a value JSON has no text for), the whole array is left
 * to JSON.stringify, so the output is the same for any input.
 */
export function policiesToJson(policies: readonly PolicyResult[]): string {
  // Gathered as parts and joined once: the text is one flat string. Appended piece by piece it
  // would be a rope of a few hundred pieces, walked again each time it is copied (into the stored
  // row, into the response) or measured.
  const parts: string[] = ['['];
  for (let i = 0; i < policies.length; i++) {
    if (i > 0) parts.push(',');
    if (!writePolicy(policies[i], parts)) return JSON.stringify(policies);
  }
  parts.push(']');
  return parts.join('');
}

const POLICY_KEYS = ['id', 'type', 'probability', 'flagged', 'flagged_fields', 'labels', 'matches', 'data'] as const;
const LABEL_KEYS = ['id', 'probability', 'flagged'] as const;
const REQUIRED_POLICY_KEYS = 0b1111;
const ALL_LABEL_KEYS = 0b111;

/**
 * Which of `order`'s keys a plain object has, one bit each, when its own enumerable keys are
 * a subsequence of `order` (for...in gives insertion order for string keys); -1 otherwise.
 */
export function keyMask(value: object, order: readonly string[]): number {
  if (Object.getPrototypeOf(value) !== Object.prototype) return -1;
  let k = 0;
  let mask = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) return -1;
    while (k < order.length && order[k] !== key) k++;
    if (k === order.length) return -1;
    mask |= 1 << k;
    k++;
  }
  return mask;
}

/** Arrays and plain objects without toJSON: JSON.stringify writes them the same at any depth. */
const isPlainData = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { toJSON?: unknown }).toJSON !== 'function' &&
  (Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype);

/** An optional key: absent, or enumerated (bit set) with plain data. */
const optionalOk = (value: unknown, mask: number, bit: number, array: boolean): boolean =>
  value === undefined || ((mask & (1 << bit)) !== 0 && isPlainData(value) && (!array || Array.isArray(value)));

/** Appends the policy's JSON to `parts`; false when it departs from the known shape (the caller then discards `parts`). */
function writePolicy(policy: PolicyResult | undefined, parts: string[]): boolean {
  if (typeof policy !== 'object' || policy === null || typeof (policy as { toJSON?: unknown }).toJSON === 'function') return false;
  const mask = keyMask(policy, POLICY_KEYS);
  if (mask < 0 || (mask & REQUIRED_POLICY_KEYS) !== REQUIRED_POLICY_KEYS) return false;
  const { id, type, probability, flagged, flagged_fields, labels, matches, data } = policy;
  if (typeof id !== 'string' || typeof type !== 'string' || typeof probability !== 'number' || typeof flagged !== 'boolean') return false;
  if (!optionalOk(flagged_fields, mask, 4, true) || !optionalOk(labels, mask, 5, true) || !optionalOk(matches, mask, 6, true) || !optionalOk(data, mask, 7, false)) return false;
  parts.push('{"id":', stringJson(id), ',"type":', stringJson(type), ',"probability":', numberJson(probability), flagged ? ',"flagged":true' : ',"flagged":false');
  if (flagged_fields !== undefined) parts.push(',"flagged_fields":', JSON.stringify(flagged_fields));
  if (labels !== undefined) {
    parts.push(',"labels":[');
    if (!writeLabels(labels, parts)) return false;
    parts.push(']');
  }
  if (matches !== undefined) parts.push(',"matches":', JSON.stringify(matches));
  if (data !== undefined) parts.push(',"data":', JSON.stringify(data));
  parts.push('}');
  return true;
}

function writeLabels(labels: readonly Label[], parts: string[]): boolean {
  for (let i = 0; i < labels.length; i++) {
    const label: unknown = labels[i];
    if (typeof label !== 'object' || label === null || typeof (label as { toJSON?: unknown }).toJSON === 'function' || keyMask(label, LABEL_KEYS) !== ALL_LABEL_KEYS) return false;
    const { id, probability, flagged } = label as Label;
    if (typeof id !== 'string' || typeof probability !== 'number' || typeof flagged !== 'boolean') return false;
    parts.push(i > 0 ? ',{"id":' : '{"id":', stringJson(id), ',"probability":', numberJson(probability), flagged ? ',"flagged":true}' : ',"flagged":false}');
  }
  return true;
}

// Policy and label ids are plain identifiers; anything else is escaped by JSON.stringify.
const PLAIN = /^[\w .:-]*$/;
const stringJson = (text: string): string => (PLAIN.test(text) ? `"${text}"` : JSON.stringify(text));
const numberJson = (value: number): string => (Number.isFinite(value) ? String(value) : 'null');
