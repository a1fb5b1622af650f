import type { Evaluation } from './evaluation.ts';
import type { PolicyResult } from './policy.ts';
import { matchingRule, type RecommendationRule } from './rules.ts';

export type RecommendedAction = 'allow' | 'review' | 'reject';
export type ReasonCode =
  | 'severity_reject'
  | 'severity_review'
  | 'author_block'
  | 'dry_run'
  | 'trusted_allow'
  | 'untrusted_severity'
  | 'rule_match'
  /** Media (image, video, audio, url) in the content was not analysed: a person looks before it is published. */
  | 'media_not_analysed';

export interface Recommendation {
  action: RecommendedAction;
  reason_codes: ReasonCode[];
}

export interface TriageThresholds {
  review: number;
  reject: number;
}

export const DEFAULT_TRIAGE: TriageThresholds = { review: 0.5, reject: 0.9 };

/** Named threshold sets a channel can pick instead of numbers. */
export const TRIAGE_PRESETS = {
  lenient: { review: 0.7, reject: 0.95 },
  balanced: { ...DEFAULT_TRIAGE },
  strict: { review: 0.3, reject: 0.7 },
} as const satisfies Record<string, TriageThresholds>;
export type TriagePreset = keyof typeof TRIAGE_PRESETS;

/** Authors at or above this trust level get `trusted_allow` for content that would only be reviewed. */
export const TRUSTED_ALLOW_MIN_LEVEL = 3;
/** Untrusted authors (level −1) are triaged against thresholds scaled by this factor. */
export const UNTRUSTED_THRESHOLD_FACTOR = 0.5;

export interface RecommendationSettings {
  triage: TriageThresholds;
  /** Policy ids whose flag always sends the content to review / always rejects it. */
  alwaysReview: readonly string[];
  alwaysReject: readonly string[];
  rules: readonly RecommendationRule[];
}

export const DEFAULT_RECOMMENDATION_SETTINGS: RecommendationSettings = { triage: DEFAULT_TRIAGE, alwaysReview: [], alwaysReject: [], rules: [] };

/** What the recommendation may look at besides the evaluation. */
export interface RecommendationInput {
  evaluation: Evaluation;
  policies: readonly PolicyResult[];
  author: { status: 'enabled' | 'suspended' | 'blocked'; trustLevel: number; riskLevel: number } | null;
  contentType: string;
  metaType: string | null;
  /** Detected language (the language insight's value), when it ran. */
  language: string | null;
}

const severityAction = (score: number, triage: TriageThresholds): RecommendedAction =>
  score >= triage.reject ? 'reject' : score >= triage.review ? 'review' : 'allow';

const RANK: Record<RecommendedAction, number> = { allow: 0, review: 1, reject: 2 };

/**
 * The recommended action, first decision wins (docs/recommendation.md):
 *  1. author_block        the author is blocked or suspended → reject
 *  2. rule_match          the first channel rule whose conditions all hold → its action
 *  3. always reject/review a flagged policy listed in alwaysReject / alwaysReview
 *  4. severity triage     against the channel thresholds, adjusted by trust:
 *                         untrusted authors against lowered thresholds (untrusted_severity),
 *                         trusted authors allowed where others would be reviewed (trusted_allow)
 * Dry run is applied afterwards, to what the API answers (see `dryRunView`).
 */
export function recommend(input: RecommendationInput, settings?: RecommendationSettings): Recommendation;
/** Severity triage alone: an evaluation against thresholds. */
export function recommend(evaluation: Evaluation, triage?: TriageThresholds): Recommendation;
export function recommend(
  inputOrEvaluation: RecommendationInput | Evaluation,
  settingsOrTriage?: RecommendationSettings | TriageThresholds,
): Recommendation {
  const input: RecommendationInput =
    'severity_score' in inputOrEvaluation
      ? { evaluation: inputOrEvaluation, policies: [], author: null, contentType: 'text', metaType: null, language: null }
      : inputOrEvaluation;
  const settings: RecommendationSettings =
    settingsOrTriage === undefined
      ? DEFAULT_RECOMMENDATION_SETTINGS
      : 'rules' in settingsOrTriage
        ? settingsOrTriage
        : { ...DEFAULT_RECOMMENDATION_SETTINGS, triage: settingsOrTriage };
  const { evaluation, policies, author } = input;
  if (author && (author.status === 'blocked' || author.status === 'suspended')) return { action: 'reject', reason_codes: ['author_block'] };

  const rule = matchingRule(settings.rules, input);
  if (rule) return { action: rule.action, reason_codes: ['rule_match'] };

  const flaggedIds = new Set(policies.filter((p) => p.flagged).map((p) => p.id));
  if (settings.alwaysReject.some((id) => flaggedIds.has(id))) return { action: 'reject', reason_codes: ['severity_reject'] };
  const forcedReview = settings.alwaysReview.some((id) => flaggedIds.has(id));

  const score = evaluation.severity_score;
  const action = severityAction(score, settings.triage);
  if (forcedReview && action === 'allow') return { action: 'review', reason_codes: ['severity_review'] };

  if (author && author.trustLevel < 0) {
    const lowered = { review: settings.triage.review * UNTRUSTED_THRESHOLD_FACTOR, reject: settings.triage.review };
    const stricter = severityAction(score, lowered);
    if (RANK[stricter] > RANK[action]) return { action: stricter, reason_codes: ['untrusted_severity'] };
  }
  if (author && author.trustLevel >= TRUSTED_ALLOW_MIN_LEVEL && action === 'review' && !forcedReview) {
    return { action: 'allow', reason_codes: ['trusted_allow'] };
  }
  if (action === 'reject') return { action, reason_codes: ['severity_reject'] };
  if (action === 'review') return { action, reason_codes: ['severity_review'] };
  return { action: 'allow', reason_codes: [] };
}

/**
 * Content with media that nothing analysed is never allowed by default: an
 * `allow` becomes `review` (media_not_analysed) unless the channel says
 * `unanalysedMedia: 'allow'` or one of its own rules chose the allow.
 */
export function guardUnanalysedMedia(recommendation: Recommendation, unanalysedFields: number, setting: 'review' | 'allow'): Recommendation {
  if (unanalysedFields === 0 || setting === 'allow' || recommendation.action !== 'allow') return recommendation;
  if (recommendation.reason_codes.includes('rule_match')) return recommendation;
  return { action: 'review', reason_codes: ['media_not_analysed'] };
}

/**
 * A dry-run channel answers as if nothing were found (not flagged, allow)
 * while the stored item keeps the real evaluation and recommendation.
 */
export function dryRunView(evaluation: Evaluation): { evaluation: Evaluation; recommendation: Recommendation } {
  return { evaluation: { ...evaluation, flagged: false }, recommendation: { action: 'allow', reason_codes: ['dry_run'] } };
}
