import type { Queryable } from '../../src/db/database.ts';

/**
 * Copies of a stored item dated in the past, as if it had been submitted then: each copy gets a
 * new id and contentId and the given created_at. They go in through a plain INSERT, so the store's
 * triggers (the overview rollup) see them as they see the write path's rows.
 */
export async function copyItemAt(db: Queryable, projectId: string, templateExternalId: string, copies: { externalId: string; at: number }[]): Promise<void> {
  await db.query(
    `INSERT INTO content_items (id, project_id, external_id, channel_id, author_id, conversation_id, meta_type, content_type, recommendation,
       content, modified, metadata, result, flagged, shadow_flagged, flag_probability, severity_score, submitted_at, created_at, updated_at)
     SELECT 'cnt_seed_' || c.external_id, t.project_id, c.external_id, t.channel_id, t.author_id, t.conversation_id, t.meta_type, t.content_type, t.recommendation,
       t.content, t.modified, t.metadata, t.result, t.flagged, t.shadow_flagged, t.flag_probability, t.severity_score, c.at, c.at, c.at
     FROM content_items t, jsonb_to_recordset($3::jsonb) AS c(external_id text, at bigint)
     WHERE t.project_id = $1 AND t.external_id = $2`,
    [projectId, templateExternalId, JSON.stringify(copies.map((c) => ({ external_id: c.externalId, at: c.at })))],
  );
}
