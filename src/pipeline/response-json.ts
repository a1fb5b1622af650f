/**
 * The policies array is the bulk of both the stored evaluation and the
 * response, and both carry the same array: it is written as JSON once and
 * spliced into both documents instead of being serialized twice per request.
 */
import type { ModerateResponse } from '../schemas/moderate.ts';

const POLICIES_JSON = Symbol('policiesJson');

type WithPoliciesJson = ModerateResponse & { [POLICIES_JSON]?: string };

/** Marks `response` as carrying its `policies` already serialized (symbol keys are invisible to JSON.stringify). */
export function attachPoliciesJson(response: ModerateResponse, policiesJson: string): ModerateResponse {
  (response as WithPoliciesJson)[POLICIES_JSON] = policiesJson;
  return response;
}

// Every response field, in the order JSON.stringify would write them; the check below
// fails to compile when the schema gains a field this writer does not know.
const FIELDS = ['content', 'author', 'evaluation', 'recommendation', 'policies', 'insights', 'meta', 'errors'] as const;
type Unwritten = Exclude<keyof ModerateResponse, (typeof FIELDS)[number]>;
const everyFieldWritten: [Unwritten] extends [never] ? true : never = true;
void everyFieldWritten;

/** The response body, identical to JSON.stringify(response). */
export function moderateResponseJson(response: ModerateResponse): string {
  const policiesJson = (response as WithPoliciesJson)[POLICIES_JSON];
  if (policiesJson === undefined) return JSON.stringify(response);
  let out = '{';
  for (const field of FIELDS) {
    const value = response[field];
    if (value === undefined) continue;
    if (out.length > 1) out += ',';
    out += `"${field}":${field === 'policies' ? policiesJson : JSON.stringify(value)}`;
  }
  return `${out}}`;
}
