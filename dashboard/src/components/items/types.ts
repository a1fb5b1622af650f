import type { AuditEntry } from '../audit/types.ts';
import type { Claim } from '../queues/types.ts';

export type UnicodeSignal = 'mixed_script' | 'confusable_word' | 'invisible' | 'zalgo' | 'illegal';

export interface WordFinding {
  word: string;
  offset: number;
  signals: UnicodeSignal[];
  scripts: string[];
  looksLike: string;
  codePoints: string[];
  highlights: { start: number; end: number; signal: UnicodeSignal }[];
}

export interface PolicyResult {
  id: string;
  type: string;
  probability: number;
  flagged: boolean;
  flagged_fields?: string[];
  labels?: { id: string; probability: number; flagged: boolean }[];
  matches?: { match: string; probability: number; span: [number, number] }[];
  data?: Record<string, unknown>;
}

export type Content =
  | { type: 'text'; text: string }
  | { type: 'image'; url: string }
  | { type: 'object'; data: Record<string, { type: string; text?: string; url?: string }> }
  | { type: string; [key: string]: unknown };

export interface AuthorSummary {
  id: string;
  external_id: string;
  name: string | null;
  email?: string | null;
  status: string;
  trust_level?: { level: number; manual: boolean };
  block?: { until: number | null; reason: string | null } | null;
  [key: string]: unknown;
}

export interface ItemDetail {
  item: {
    id: string;
    internalId: string;
    content: Content;
    modified: Content | string | null;
    contentType: string;
    metaType: string | null;
    metadata: Record<string, unknown> | null;
    conversationId: string | null;
    channelId: string | null;
    createdAt: number;
    flagged: boolean;
    shadowFlagged: boolean;
    severity: number;
    flagProbability: number;
  };
  evaluation: { flagged: boolean; flag_probability: number; severity_score: number; unicode_spoofed?: boolean };
  recommendation: { action: 'allow' | 'review' | 'reject'; reason_codes: string[] };
  policies: PolicyResult[];
  insights: { id: string; type: string; probability?: number; value?: string }[];
  errors: { id: string; message: string }[];
  unicode: null | { field: string | null; findings: WordFinding[] }[];
  author: AuthorSummary | null;
  queue: null | { id: string; name: string; status: 'pending' | 'resolved'; resolvedAt: number | null; resolvedBy: { userId: string; email: string } | null; comment: string | null };
  claim: Claim | null;
  history: AuditEntry[];
}
