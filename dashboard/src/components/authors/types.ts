import type { AuditEntry } from '../audit/types.ts';

export interface AuthorRecord {
  id: string;
  external_id: string;
  name: string | null;
  email: string | null;
  profile_picture: string | null;
  external_link: string | null;
  first_seen: number | null;
  last_seen: number | null;
  last_incident: number | null;
  status: 'enabled' | 'suspended' | 'blocked' | string;
  block: { until: number | null; reason: string | null } | null;
  trust_level: { level: number; manual: boolean };
  risk_evaluation: { risk_level: number | null; signals?: { id: string; value: unknown; contribution: number }[] } | null;
  metrics: Record<string, number | null>;
  metadata: Record<string, unknown> | null;
  content_types?: string[];
}

export interface AuthorList {
  authors: AuthorRecord[];
  pagination: { total: number; pageSize: number; pageNumber: number; hasNextPage: boolean; hasPreviousPage: boolean };
}

export interface AuthorDetail {
  author: AuthorRecord;
  block: null | { status: 'suspended' | 'blocked'; until: number | null; remainingMs: number | null; reason: string | null };
  trust: { level: number; name: string; automaticLevel: number; automaticName: string; manual: boolean; manualLevel: number | null; manualReason: string | null; manualSetBy: { userId: string; email: string } | null; manualSetAt: number | null };
  risk: { level: number; signals: { id: string; value: unknown; contribution: number; explanation: string }[] };
  metadataBadges: { key: string; value: boolean | null }[];
  recentContent: { id: string; preview: string; contentType: string; flagged: boolean; recommendation: string; severity: number; labels: { label: string; score: number; flagged: boolean }[]; createdAt: number }[];
  audit: AuditEntry[];
  customData: { enabled: boolean };
}
