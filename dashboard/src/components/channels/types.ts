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

export interface Catalog {
  policies: { id: string; type: string; defaultThreshold: number; labels: string[] }[];
  wordlistPolicy: { prefix: string; defaultThreshold: number };
  insights: string[];
  unicodeSignals: UnicodeSignal[];
  triage: { default: { review: number; reject: number }; presets: Record<TriagePreset, { review: number; reject: number }> };
  wordlists: { id: string; key: string | null; name: string | null; wordCount: number }[];
}

export interface ConfigChange {
  path: string;
  before?: unknown;
  after?: unknown;
}
