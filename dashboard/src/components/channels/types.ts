import type { UnicodeSignal } from '../items/types.ts';

/** A policy entry of a channel, as the API stores it: id, flag, threshold and the policy's own settings. */
export interface PolicySettings {
  id: string;
  flag?: boolean;
  threshold?: number;
  mode?: string;
  signals?: Partial<Record<UnicodeSignal, boolean>>;
  [setting: string]: unknown;
}

export interface RuleCondition {
  policies?: { id: string; flagged?: boolean; minProbability?: number; maxProbability?: number }[];
  labels?: { policy?: string; label: string; minProbability?: number }[];
  trustLevel?: { min?: number; max?: number };
  authorStatus?: ('enabled' | 'suspended' | 'blocked')[];
  riskLevel?: { min?: number; max?: number };
  languages?: string[];
  metaTypes?: string[];
  contentTypes?: string[];
}

export interface RecommendationRule {
  name?: string;
  when: RuleCondition;
  action: 'allow' | 'review' | 'reject';
}

export type TriagePreset = 'lenient' | 'balanced' | 'strict';

export interface Channel {
  id: string;
  key: string;
  name: string;
  isDefault: boolean;
  policies: PolicySettings[];
  insights: string[];
  unicodeNormalization: boolean;
  triage: { review: number; reject: number; preset?: TriagePreset };
  alwaysReview: string[];
  alwaysReject: string[];
  rules: RecommendationRule[];
  dryRun: boolean;
  borderlineRescore: unknown;
  createdAt: number;
  updatedAt: number;
}

/** Where a field's values come from: the catalog's policies, their labels, or its trust levels. */
export type ChoicesSource = 'policy' | 'label' | 'trustLevel';

/** A property of an entry of a list condition (a policy condition's id, flag, score bounds). */
export type EntryProperty =
  | { key: string; title: string; description?: string; required: boolean; kind: 'string'; choicesFrom?: ChoicesSource }
  | { key: string; title: string; description?: string; required: boolean; kind: 'boolean' }
  | { key: string; title: string; description?: string; required: boolean; kind: 'number'; min: number; max: number };

/** One rule condition as the catalog describes it (derived on the server from the rule schema). */
export type ConditionField = { key: string; title: string; description: string } & (
  | { kind: 'range'; min: number; max: number; integer: boolean; choicesFrom?: ChoicesSource }
  | { kind: 'choices'; values: string[]; maxItems: number }
  | { kind: 'names'; maxItems: number; maxLength: number }
  | { kind: 'entries'; maxItems: number; properties: EntryProperty[] }
);

export interface Catalog {
  policies: { id: string; type: string; defaultThreshold: number; labels: string[] }[];
  wordlistPolicy: { prefix: string; defaultThreshold: number };
  insights: string[];
  unicodeSignals: UnicodeSignal[];
  triage: { default: { review: number; reject: number }; presets: Record<TriagePreset, { review: number; reject: number }> };
  wordlists: { id: string; key: string | null; name: string | null; wordCount: number }[];
  ruleConditions: ConditionField[];
  trustLevels: { level: number; name: string }[];
}

export interface ConfigChange {
  path: string;
  before?: unknown;
  after?: unknown;
}
