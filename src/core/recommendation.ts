import type { Evaluation } from './evaluation.ts';

export type RecommendedAction = 'allow' | 'review' | 'reject';
export type ReasonCode =
  | 'severity_reject'
  | 'severity_review'
  | 'author_block'
  | 'dry_run'
  | 'trusted_allow'
  | 'untrusted_severity'
  | 'rule_match';

export interface Recommendation {
  action: RecommendedAction;
  reason_codes: ReasonCode[];
}

export interface TriageThresholds {
  review: number;
  reject: number;
}

export const DEFAULT_TRIAGE: TriageThresholds = { review: 0.5, reject: 0.9 };

/** Severity triage: the score against the channel's review and reject thresholds. */
export function recommend(evaluation: Evaluation, triage: TriageThresholds = DEFAULT_TRIAGE): Recommendation {
  if (evaluation.severity_score >= triage.reject) return { action: 'reject', reason_codes: ['severity_reject'] };
  if (evaluation.severity_score >= triage.review) return { action: 'review', reason_codes: ['severity_review'] };
  return { action: 'allow', reason_codes: [] };
}
