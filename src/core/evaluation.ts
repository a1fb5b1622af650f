import type { PolicyResult } from './policy.ts';

export interface Evaluation {
  flagged: boolean;
  flag_probability: number;
  severity_score: number;
  unicode_spoofed?: boolean;
}

export interface ScoredPolicy {
  result: PolicyResult;
  /** Whether the policy may flag (`flag: true` in its settings). */
  flagEnabled: boolean;
  /** Impact weight in [0, 1]. */
  severity: number;
}

/**
 * Severity answers "how bad is this if it is what the policies think": a
 * flagged policy puts the message at 0.5 or above (so the default review
 * threshold catches every flag) and climbs towards 1 with its probability and
 * impact weight; unflagged scores stay below 0.5. The highest policy decides.
 */
export function severityOf(policy: ScoredPolicy): number {
  if (!policy.flagEnabled) return 0;
  const weighted = policy.result.probability * policy.severity;
  return policy.result.flagged ? 0.5 + 0.5 * weighted : 0.5 * weighted;
}

export function evaluate(policies: readonly ScoredPolicy[]): Evaluation {
  let flagged = false;
  let flagProbability = 0;
  let severity = 0;
  for (const policy of policies) {
    if (policy.result.flagged) flagged = true;
    if (policy.flagEnabled && policy.result.probability > flagProbability) flagProbability = policy.result.probability;
    const s = severityOf(policy);
    if (s > severity) severity = s;
  }
  return { flagged, flag_probability: round(flagProbability), severity_score: round(severity) };
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;
