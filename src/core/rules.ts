import type { PolicyResult } from './policy.ts';

/**
 * Channel recommendation rules: an ordered list, each a set of conditions
 * that must all hold, and the action to recommend when they do. The first
 * matching rule decides. Pure: evaluated against the submission's results.
 */

export type RuleAction = 'allow' | 'review' | 'reject';
export type AuthorStatusName = 'enabled' | 'suspended' | 'blocked';

export interface Range {
  min?: number;
  max?: number;
}

export interface PolicyCondition {
  id: string;
  /** Whether the policy flagged the content. */
  flagged?: boolean;
  minProbability?: number;
  maxProbability?: number;
}

export interface LabelCondition {
  /** Limit the label to one policy (any policy when absent), e.g. `unicode_spoofing`. */
  policy?: string;
  /** Label id, e.g. `confusable_word`, `zalgo`, `mixed_script`, `invisible`, `illegal`. */
  label: string;
  /** Probability the label must reach; 0.5 when absent. */
  minProbability?: number;
}

export interface RuleConditions {
  policies?: PolicyCondition[];
  labels?: LabelCondition[];
  /** Conditions on the author never hold for content without an author. */
  trustLevel?: Range;
  authorStatus?: AuthorStatusName[];
  riskLevel?: Range;
  languages?: string[];
  metaTypes?: string[];
  contentTypes?: string[];
}

export interface RecommendationRule {
  name?: string;
  when: RuleConditions;
  action: RuleAction;
}

export interface RuleFacts {
  policies: readonly PolicyResult[];
  author: { status: AuthorStatusName; trustLevel: number; riskLevel: number } | null;
  contentType: string;
  metaType: string | null;
  language: string | null;
}

const DEFAULT_LABEL_PROBABILITY = 0.5;

const inRange = (value: number, range: Range) => (range.min === undefined || value >= range.min) && (range.max === undefined || value <= range.max);

function policyHolds(condition: PolicyCondition, policies: readonly PolicyResult[]): boolean {
  const result = policies.find((p) => p.id === condition.id);
  if (!result) return false;
  if (condition.flagged !== undefined && result.flagged !== condition.flagged) return false;
  return inRange(result.probability, { min: condition.minProbability, max: condition.maxProbability });
}

function labelHolds(condition: LabelCondition, policies: readonly PolicyResult[]): boolean {
  const threshold = condition.minProbability ?? DEFAULT_LABEL_PROBABILITY;
  return policies.some(
    (p) =>
      (condition.policy === undefined || p.id === condition.policy) &&
      (p.labels ?? []).some((label) => label.id === condition.label && label.probability >= threshold),
  );
}

export function ruleHolds(when: RuleConditions, facts: RuleFacts): boolean {
  if (when.policies && !when.policies.every((c) => policyHolds(c, facts.policies))) return false;
  if (when.labels && !when.labels.every((c) => labelHolds(c, facts.policies))) return false;
  const needsAuthor = when.trustLevel !== undefined || when.authorStatus !== undefined || when.riskLevel !== undefined;
  if (needsAuthor) {
    const author = facts.author;
    if (!author) return false;
    if (when.trustLevel && !inRange(author.trustLevel, when.trustLevel)) return false;
    if (when.riskLevel && !inRange(author.riskLevel, when.riskLevel)) return false;
    if (when.authorStatus && !when.authorStatus.includes(author.status)) return false;
  }
  if (when.languages && (facts.language === null || !when.languages.includes(facts.language))) return false;
  if (when.metaTypes && (facts.metaType === null || !when.metaTypes.includes(facts.metaType))) return false;
  if (when.contentTypes && !when.contentTypes.includes(facts.contentType)) return false;
  return true;
}

export function matchingRule(rules: readonly RecommendationRule[], facts: RuleFacts): RecommendationRule | undefined {
  return rules.find((rule) => ruleHolds(rule.when, facts));
}
