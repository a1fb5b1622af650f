import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { notFound } from '../../errors.ts';
import { automaticTrustLevel, TRUST_LEVEL_NAMES } from '../../core/trust.ts';
import { explainRiskSignal } from '../../core/risk-explain.ts';
import { ListAuthorsQuery } from '../../schemas/authors.ts';
import { AuthorParams, BlockBody, ProjectParams, TrustLevelBody, UnblockBody } from '../../schemas/dashboard.ts';
import { parseListQuery } from '../authors.ts';
import { findAuthorRow, getAuthor, listAuthors, trustFactsOf, updateAuthor } from '../../services/authors.ts';
import { executeAction } from '../../services/actions.ts';
import { listAuditLog, writeAuditEntries } from '../../services/audit.ts';
import { labelsOf } from '../../services/queues.ts';
import { fetchCustomData, getCustomDataSettings } from '../../services/custom-data.ts';
import { actorOfRequest, memberOf } from './access.ts';
import { withinTransaction } from '../../db/database.ts';
import { preview } from './moderation.ts';

const hide = true;
const BUILT_IN_METADATA = ['email_verified', 'phone_verified', 'identity_verified', 'is_paying_customer'] as const;

export async function authorRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.deps;
  const P = '/projects/:projectId';

  app.get(`${P}/authors`, { config: { access: 'read' }, schema: { hide, params: ProjectParams, querystring: ListAuthorsQuery } }, async (request) =>
    listAuthors(db, memberOf(request).projectId, parseListQuery(request.query)),
  );

  app.get(`${P}/authors/:authorId`, { config: { access: 'read' }, schema: { hide, params: AuthorParams } }, async (request) => {
    const projectId = memberOf(request).projectId;
    const author = await getAuthor(db, projectId, request.params.authorId);
    const row = (await findAuthorRow(db, projectId, author.id))!;
    const now = Date.now();
    const [recent, audit, trustEntries, settings] = await Promise.all([
      db.query(
        `SELECT external_id, content, content_type, flagged, recommendation, severity_score, result::json->'policies' AS policies, created_at
         FROM content_items WHERE author_id = $1 ORDER BY created_at DESC LIMIT 20`,
        [author.id],
      ),
      listAuditLog(db, projectId, { authorId: author.id, limit: 50 }),
      listAuditLog(db, projectId, { authorId: author.id, kind: 'trust_level', limit: 1 }),
      getCustomDataSettings(db, projectId),
    ]);
    const automatic = automaticTrustLevel(trustFactsOf(row), now);
    const lastTrust = author.trust_level.manual ? (trustEntries.entries[0] ?? null) : null;
    const block = author.block
      ? { status: author.status, until: author.block.until, remainingMs: author.block.until === null ? null : Math.max(0, author.block.until - now), reason: author.block.reason }
      : null;
    return {
      author,
      block,
      trust: {
        level: author.trust_level.level,
        name: TRUST_LEVEL_NAMES[author.trust_level.level] ?? String(author.trust_level.level),
        automaticLevel: automatic,
        automaticName: TRUST_LEVEL_NAMES[automatic] ?? String(automatic),
        manual: author.trust_level.manual,
        manualLevel: author.trust_level.manual ? author.trust_level.level : null,
        manualReason: lastTrust?.comment ?? null,
        manualSetBy: lastTrust && lastTrust.actor.type === 'user' ? { userId: lastTrust.actor.userId, email: lastTrust.actor.email } : null,
        manualSetAt: lastTrust?.createdAt ?? null,
      },
      risk: {
        level: author.risk_evaluation.risk_level,
        signals: author.risk_evaluation.signals.map((s) => ({ ...s, explanation: explainRiskSignal(s, now) })),
      },
      metadataBadges: BUILT_IN_METADATA.map((key) => ({ key, value: typeof author.metadata[key] === 'boolean' ? (author.metadata[key] as boolean) : null })),
      recentContent: recent.rows.map((r) => ({
        id: r.external_id as string,
        preview: preview(r.content),
        contentType: r.content_type as string,
        flagged: r.flagged as boolean,
        recommendation: r.recommendation as string,
        severity: r.severity_score as number,
        labels: labelsOf(r.policies),
        createdAt: Number(r.created_at),
      })),
      audit: audit.entries,
      customData: { enabled: settings.enabled },
    };
  });

  app.post(`${P}/authors/:authorId/block`, { config: { access: 'moderate' }, schema: { hide, params: AuthorParams, body: BlockBody } }, async (request) => {
    const projectId = memberOf(request).projectId;
    const { reason, durationMs } = request.body;
    await executeAction(db, projectId, actorOfRequest(request), {
      actionKey: durationMs === undefined ? 'AUTHOR_BLOCK' : 'AUTHOR_BLOCK_TEMP',
      authorIds: [request.params.authorId],
      ...(reason !== undefined ? { comment: reason } : {}),
      ...(durationMs !== undefined ? { duration: durationMs } : {}),
    });
    app.deps.outbox.poke();
    return { author: await getAuthor(db, projectId, request.params.authorId) };
  });

  app.post(`${P}/authors/:authorId/unblock`, { config: { access: 'moderate' }, schema: { hide, params: AuthorParams, body: UnblockBody } }, async (request) => {
    const projectId = memberOf(request).projectId;
    await executeAction(db, projectId, actorOfRequest(request), {
      actionKey: 'AUTHOR_UNBLOCK',
      authorIds: [request.params.authorId],
      ...(request.body?.reason !== undefined ? { comment: request.body.reason } : {}),
    });
    app.deps.outbox.poke();
    return { author: await getAuthor(db, projectId, request.params.authorId) };
  });

  app.put(`${P}/authors/:authorId/trust-level`, { config: { access: 'moderate' }, schema: { hide, params: AuthorParams, body: TrustLevelBody } }, async (request) => {
    const projectId = memberOf(request).projectId;
    const { level, reason } = request.body;
    const actor = actorOfRequest(request);
    // The change and its audit entry commit together.
    const author = await db.transaction(async (tx) => {
      const updated = await updateAuthor(withinTransaction(db, tx), projectId, request.params.authorId, { manual_trust_level: level });
      await writeAuditEntries(tx, projectId, [
        {
          kind: 'trust_level',
          actorKeyId: null,
          actorUserId: actor.userId ?? null,
          actorEmail: actor.email ?? null,
          authorId: updated.id,
          authorExternalId: updated.external_id,
          value: level === null ? 'automatic' : String(level),
          comment: reason,
        },
      ]);
      return updated;
    });
    app.deps.outbox.poke();
    return { author };
  });

  app.get(`${P}/authors/:authorId/custom-data`, { config: { access: 'read' }, schema: { hide, params: AuthorParams } }, async (request) => {
    const projectId = memberOf(request).projectId;
    const row = await findAuthorRow(db, projectId, request.params.authorId);
    if (!row) throw notFound(`Author "${request.params.authorId}"`);
    return fetchCustomData(
      db,
      projectId,
      { externalId: row.external_id as string, email: (row.email as string | null) ?? null },
      { ...config.customData, allowPrivate: config.allowPrivateOutbound, ca: config.outboundCa },
    );
  });
}
