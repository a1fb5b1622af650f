/**
 * The policies array is the bulk of both the stored evaluation and the
 * response, and both carry the same array: it is written as JSON once and
 * spliced into both documents instead of being serialized twice per request.
 */
import type { Label, PolicyResult } from '../core/policy.ts';
import type { ModerateResponse } from '../schemas/moderate.ts';

const POLICIES_JSON = Symbol('policiesJson');

/** The array that was serialized, so that a response whose policies were replaced since is not written with stale text. */
type WithPoliciesJson = ModerateResponse & { [POLICIES_JSON]?: { of: ModerateResponse['policies']; json: string } };

/** Marks `response` as carrying its `policies` already serialized (symbol keys are invisible to JSON.stringify). */
export function attachPoliciesJson(response: ModerateResponse, policiesJson: string): ModerateResponse {
  (response as WithPoliciesJson)[POLICIES_JSON] = { of: response.policies, json: policiesJson };
  return response;
}

// Every response field, in the order JSON.stringify would write them; the check below
// fails to compile when the schema gains a field this writer does not know.
const FIELDS = ['content', 'author', 'evaluation', 'recommendation', 'policies', 'insights', 'meta', 'errors'] as const;
type Unwritten = Exclude<keyof ModerateResponse, (typeof FIELDS)[number]>;
const everyFieldWritten: [Unwritten] extends [never] ? true : never = true;
void everyFieldWritten;

/** The response body, identical to JSON.stringify(body); error bodies and unmarked responses take that path. */
export function moderateResponseJson(body: unknown): string {
  const response = body as WithPoliciesJson;
  const mark = typeof body === 'object' && body !== null ? response[POLICIES_JSON] : undefined;
  if (mark === undefined || mark.of !== response.policies) return JSON.stringify(body);
  const policiesJson = mark.json;
  let out = '{';
  for (const field of FIELDS) {
    const value = response[field];
    if (value === undefined) continue;
    if (out.length > 1) out += ',';
    out += `"${field}":${field === 'policies' ? policiesJson : JSON.stringify(value)}`;
  }
  return `${out}}`;
}

/**
 * JSON.stringify(policies), byte for byte, in about half the time: a policy
 * result has a known shape, so its keys are written as constants instead of
 * being discovered, escaped and dispatched one by one. A policy or label that
 * departs from that shape (another key, another order, another type) is left
 * to JSON.stringify.
 */
export function policiesToJson(policies: readonly PolicyResult[]): string {
  let out = '[';
  for (let i = 0; i < policies.length; i++) {
    if (i > 0) out += ',';
    out += policyJson(policies[i]!);
  }
  return `${out}]`;
}

const POLICY_KEYS = ['id', 'type', 'probability', 'flagged', 'flagged_fields', 'labels', 'matches', 'data'] as const;
const LABEL_KEYS = ['id', 'probability', 'flagged'] as const;

/** Whether the object's own keys are a subsequence of `order` (for...in gives insertion order for string keys). */
function keysFollow(value: object, order: readonly string[]): boolean {
  let k = 0;
  for (const key in value) {
    while (k < order.length && order[k] !== key) k++;
    if (k === order.length) return false;
    k++;
  }
  return Object.getPrototypeOf(value) === Object.prototype;
}

function policyJson(policy: PolicyResult): string {
  const { id, type, probability, flagged, flagged_fields, labels, matches, data } = policy;
  if (typeof id !== 'string' || typeof type !== 'string' || typeof probability !== 'number' || typeof flagged !== 'boolean' || !keysFollow(policy, POLICY_KEYS)) {
    return JSON.stringify(policy);
  }
  let out = `{"id":${stringJson(id)},"type":${stringJson(type)},"probability":${numberJson(probability)},"flagged":${flagged}`;
  if (flagged_fields !== undefined) out += `,"flagged_fields":${JSON.stringify(flagged_fields)}`;
  if (labels !== undefined) out += `,"labels":${labelsJson(labels)}`;
  if (matches !== undefined) out += `,"matches":${JSON.stringify(matches)}`;
  if (data !== undefined) out += `,"data":${JSON.stringify(data)}`;
  return `${out}}`;
}

function labelsJson(labels: readonly Label[]): string {
  if (!Array.isArray(labels)) return JSON.stringify(labels);
  let out = '[';
  for (let i = 0; i < labels.length; i++) {
    const label: unknown = labels[i];
    if (i > 0) out += ',';
    out += isPlainLabel(label) ? `{"id":${stringJson(label.id)},"probability":${numberJson(label.probability)},"flagged":${label.flagged}}` : (JSON.stringify(label) ?? 'null');
  }
  return `${out}]`;
}

function isPlainLabel(label: unknown): label is Label {
  if (typeof label !== 'object' || label === null) return false;
  const { id, probability, flagged } = label as Label;
  return typeof id === 'string' && typeof probability === 'number' && typeof flagged === 'boolean' && keysFollow(label, LABEL_KEYS);
}

// Policy and label ids are plain identifiers; anything else is escaped by JSON.stringify.
const PLAIN = /^[\w .:-]*$/;
const stringJson = (text: string): string => (PLAIN.test(text) ? `"${text}"` : JSON.stringify(text));
const numberJson = (value: number): string => (Number.isFinite(value) ? String(value) : 'null');
