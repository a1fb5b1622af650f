/**
 * A review queue is a saved filter over stored content. This module turns a
 * filter into one SQL condition over `content_items` (alias `ci`), so listing,
 * counting, stats and "does this new item enter the queue" share one meaning.
 * Pure: no I/O; values always travel as bound parameters.
 */

import { actionKeySpellings } from './action-keys.ts';

export type LabelCondition = 'FLAGGED' | 'NOT_FLAGGED' | 'THRESHOLDS';
export type FlaggedFilter = 'FLAGGED' | 'NOT_FLAGGED' | 'ALL';
export type RecommendationAction = 'review' | 'allow' | 'reject';

export interface FilterLabel {
  label: string;
  type: LabelCondition;
  minThreshold?: number | null;
  maxThreshold?: number | null;
}

export interface QueueFilter {
  afterDate?: string;
  beforeDate?: string;
  authorID?: string;
  conversationIds?: Array<string | null>;
  /** Items on which at least one of these actions (id or key) was taken. */
  filteredActionIds?: string[];
  /** Channel ids or keys. */
  filteredChannelIds?: string[];
  filterLabels?: FilterLabel[];
  /** Items with at least one of these labels flagged. */
  labels?: string[];
  recommendationActions?: RecommendationAction[];
  /** Whether item listings include resolved items by default. */
  showChecked?: boolean;
  /** Extension: flagged items, unflagged items or all (default). */
  flagged?: FlaggedFilter;
  /**
   * Extension: shadow-flagged items are not flagged, yet some policy reached
   * its threshold without flagging (shadow mode): the pipeline stores those
   * policy ids as `result.shadow_flagged`. Default true: they are shown.
   */
  showShadowFlagged?: boolean;
}

/** Collects bound parameters and hands out their `$n` placeholders. */
export class SqlParams {
  readonly values: unknown[];
  constructor(initial: unknown[] = []) {
    this.values = [...initial];
  }
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
  /** A list as one jsonb parameter, expanded to a set of text values. */
  list(values: readonly (string | null)[]): string {
    return `(SELECT jsonb_array_elements_text(${this.add(JSON.stringify(values.filter((v) => v !== null)))}::jsonb))`;
  }
}

/** ISO 8601 date or milliseconds since the epoch; null when neither. */
export function parseDate(value: string): number | null {
  const trimmed = value.trim();
  if (/^\d{1,15}$/.test(trimmed)) return Number(trimmed);
  if (!/^\d{4}-\d{2}-\d{2}/.test(trimmed)) return null;
  const ms = Date.parse(trimmed);
  return Number.isFinite(ms) ? ms : null;
}

export interface FilterIssue {
  message: string;
  path: string;
}

/** What the schema cannot say about a filter. */
export function validateQueueFilter(filter: QueueFilter, base = '/filter'): FilterIssue[] {
  const issues: FilterIssue[] = [];
  for (const field of ['afterDate', 'beforeDate'] as const) {
    const value = filter[field];
    if (value !== undefined && parseDate(value) === null) {
      issues.push({ message: `${field} must be an ISO 8601 date or milliseconds since the epoch`, path: `${base}/${field}` });
    }
  }
  const after = filter.afterDate === undefined ? null : parseDate(filter.afterDate);
  const before = filter.beforeDate === undefined ? null : parseDate(filter.beforeDate);
  if (after !== null && before !== null && after > before) issues.push({ message: 'afterDate is after beforeDate', path: `${base}/afterDate` });
  (filter.filterLabels ?? []).forEach((condition, i) => {
    if (condition.type !== 'THRESHOLDS') return;
    const min = condition.minThreshold ?? null;
    const max = condition.maxThreshold ?? null;
    if (min === null && max === null) {
      issues.push({ message: 'THRESHOLDS needs minThreshold or maxThreshold', path: `${base}/filterLabels/${i}` });
    }
    if (min !== null && max !== null && min > max) {
      issues.push({ message: 'minThreshold is above maxThreshold', path: `${base}/filterLabels/${i}` });
    }
  });
  return issues;
}

const policyExists = (condition: string) =>
  `EXISTS (SELECT 1 FROM json_array_elements(ci.result::json->'policies') AS p WHERE ${condition})`;

/**
 * The SQL condition selecting the filter's items of one project. `projectParam`
 * is the placeholder already holding the project id. Assumes a validated filter.
 */
export function queueFilterSql(filter: QueueFilter, params: SqlParams, projectParam: string): string {
  const where: string[] = [`ci.project_id = ${projectParam}`];
  if (filter.afterDate !== undefined) where.push(`ci.created_at >= ${params.add(parseDate(filter.afterDate))}`);
  if (filter.beforeDate !== undefined) where.push(`ci.created_at <= ${params.add(parseDate(filter.beforeDate))}`);
  if (filter.authorID !== undefined) {
    const author = params.add(filter.authorID);
    where.push(`ci.author_id IN (SELECT a.id FROM authors a WHERE a.project_id = ${projectParam} AND (a.id = ${author} OR a.external_id = ${author}))`);
  }
  if (filter.conversationIds !== undefined && filter.conversationIds.length > 0) {
    const parts = [`ci.conversation_id IN ${params.list(filter.conversationIds)}`];
    if (filter.conversationIds.includes(null)) parts.push('ci.conversation_id IS NULL');
    where.push(`(${parts.join(' OR ')})`);
  }
  if (filter.filteredChannelIds !== undefined && filter.filteredChannelIds.length > 0) {
    const channels = params.list(filter.filteredChannelIds);
    where.push(`ci.channel_id IN (SELECT c.id FROM channels c WHERE c.project_id = ${projectParam} AND (c.id IN ${channels} OR c.key IN ${channels}))`);
  }
  if (filter.filteredActionIds !== undefined && filter.filteredActionIds.length > 0) {
    const actions = params.list(actionKeySpellings(filter.filteredActionIds));
    where.push(
      `EXISTS (SELECT 1 FROM audit_log l WHERE l.project_id = ${projectParam} AND l.content_id = ci.id AND l.kind = 'action' AND (l.action_id IN ${actions} OR l.action_key IN ${actions}))`,
    );
  }
  if (filter.recommendationActions !== undefined && filter.recommendationActions.length > 0) {
    where.push(`ci.recommendation IN ${params.list(filter.recommendationActions)}`);
  }
  if (filter.labels !== undefined && filter.labels.length > 0) {
    where.push(policyExists(`p->>'id' IN ${params.list(filter.labels)} AND (p->>'flagged')::boolean`));
  }
  for (const condition of filter.filterLabels ?? []) {
    const label = params.add(condition.label);
    if (condition.type === 'FLAGGED') where.push(policyExists(`p->>'id' = ${label} AND (p->>'flagged')::boolean`));
    else if (condition.type === 'NOT_FLAGGED') where.push(`NOT ${policyExists(`p->>'id' = ${label} AND (p->>'flagged')::boolean`)}`);
    else {
      const bounds = [`p->>'id' = ${label}`];
      if (condition.minThreshold != null) bounds.push(`(p->>'probability')::float8 >= ${params.add(condition.minThreshold)}`);
      if (condition.maxThreshold != null) bounds.push(`(p->>'probability')::float8 <= ${params.add(condition.maxThreshold)}`);
      where.push(policyExists(bounds.join(' AND ')));
    }
  }
  const shadow = `(NOT ci.flagged AND ci.shadow_flagged)`;
  const flagged = filter.flagged ?? 'ALL';
  const showShadow = filter.showShadowFlagged ?? true;
  if (flagged === 'FLAGGED') where.push(showShadow ? `(ci.flagged OR ${shadow})` : 'ci.flagged');
  else if (flagged === 'NOT_FLAGGED') where.push(showShadow ? 'NOT ci.flagged' : `(NOT ci.flagged AND NOT ${shadow})`);
  else if (!showShadow) where.push(`NOT ${shadow}`);
  return where.join(' AND ');
}
