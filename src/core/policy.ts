/**
 * The policy contract. A policy scores one text field at a time; the pipeline
 * runs it over every text field of a submission and merges the field results
 * into the response's policy result. Policies are pure: no I/O unless they are
 * explicitly asynchronous (a model backend), and then they honour `ctx.signal`.
 */

export type PolicyType = 'classifier' | 'entity_matcher';

export interface Label {
  id: string;
  probability: number;
  flagged: boolean;
}

export interface EntityMatch {
  match: string;
  probability: number;
  /** [start, end) in UTF-16 code units of the text the policy saw. */
  span: [number, number];
  /** When set, the pipeline replaces the span with this text in `content.modified`. */
  replacement?: string;
}

/**
 * One policy's settings, as stored on a channel or sent in the per-request
 * `policies` override. `flag: false` keeps scoring but never flags.
 */
export interface PolicySettings {
  id: string;
  flag: boolean;
  threshold?: number;
  [setting: string]: unknown;
}

/** A policy's verdict on one text field. */
export interface FieldResult {
  probability: number;
  /** Sub-labels; `flagged` is computed by the pipeline when omitted. */
  labels?: Array<{ id: string; probability: number; flagged?: boolean }>;
  matches?: EntityMatch[];
  data?: Record<string, unknown>;
  /** Overrides `probability >= threshold` (for example shadow modes). */
  flagged?: boolean;
}

export interface PolicyContext {
  /** The field key inside object content; null for plain text. */
  fieldKey: string | null;
  /** The text as submitted, before Unicode normalization. */
  original: string;
  /** Shared, lazily filled per-field analyses (e.g. Unicode findings), keyed by producer. */
  analyses: Map<string, unknown>;
  /** Aborted when the request's policy time budget runs out. */
  signal?: AbortSignal;
}

export interface Policy {
  id: string;
  type: PolicyType;
  /** Impact weight in [0, 1] used by the severity score. */
  severity: number;
  defaultThreshold: number;
  /** The label ids this policy may return, for the configuration screens (absent: it returns none, or its labels are listed elsewhere). */
  labels?: readonly string[];
  evaluate(text: string, settings: PolicySettings, ctx: PolicyContext): FieldResult | Promise<FieldResult>;
  /**
   * Combines per-field `data` for object content (fields in submission order).
   * Without it the pipeline keeps the data of the highest-scoring field.
   */
  mergeData?(perField: Array<Record<string, unknown> | undefined>): Record<string, unknown> | undefined;
}

/** A policy's merged result, exactly as it appears in `policies` of the response. */
export interface PolicyResult {
  id: string;
  type: PolicyType;
  probability: number;
  flagged: boolean;
  flagged_fields?: string[];
  labels?: Label[];
  matches?: Array<{ match: string; probability: number; span: [number, number] }>;
  data?: Record<string, unknown>;
}
