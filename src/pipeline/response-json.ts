/**
 * The policies array is the bulk of both the stored evaluation and the
 * response, and both carry the same array: it is written as JSON once and
 * spliced into both documents instead of being serialized twice per request.
 */
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
