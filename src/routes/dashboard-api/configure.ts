import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { badRequest, notFound } from '../../errors.ts';
import { diffConfig } from '../../core/config-diff.ts';
import { TRIAGE_PRESETS, DEFAULT_TRIAGE } from '../../core/recommendation.ts';
import { UNICODE_SIGNALS } from '../../core/unicode/types.ts';
import { entityNames } from '../../core/entities/settings.ts';
import { wordsFromCsv, wordsToCsv } from '../../core/wordlist/csv.ts';
import { CreateChannelBody, RuleConditions, UpdateChannelBody } from '../../schemas/channel.ts';
import { describeRuleConditions } from '../../schemas/rule-fields.ts';
import { TRUST_LEVEL_NAMES } from '../../core/trust.ts';
import { CreateQueueBody, QueueFilterSchema, UpdateQueueBody } from '../../schemas/queues.ts';
import { AddWordsBody, CreateWordlistBody, UpdateWordlistBody } from '../../schemas/wordlists.ts';
import { CreateActionBody, UpdateActionBody } from '../../schemas/actions.ts';
import { ActionOrderBody, ActionParams, ChannelParams, ProjectParams, QueueParams, WordlistParams, WordSearchQuery, WordsImportBody } from '../../schemas/dashboard.ts';
import { createChannel, deleteChannel, getChannel, listChannels, toChannelView, updateChannel, type Channel } from '../../services/channels.ts';
import { countFilterMatches, createQueue, deleteQueue, getQueue, queueView, updateQueue } from '../../services/queues.ts';
import {
  addWords,
  allWords,
  createWordlist,
  deleteWordlist,
  listWordlistOverviews,
  removeWords,
  searchWords,
  updateWordlist,
  type WordlistOverview,
} from '../../services/wordlists.ts';
import { createAction, deleteAction, getAction, listActions, reorderActions, updateAction, withWebhooks, type ActionInput } from '../../services/actions.ts';
import { writeAuditEntries } from '../../services/audit.ts';
import { policyIds, findPolicy } from '../../policies/registry.ts';
import { insightIds } from '../../policies/insights.ts';
import { WORDLIST_POLICY_PREFIX } from '../../policies/wordlist-policy.ts';
import type { QueueFilter } from '../../core/queue-filter.ts';
import { actorOfRequest, memberOf } from './access.ts';

const hide = true;
const access = 'configure' as const;
/** A CSV of 200k words of up to 200 characters is larger than the JSON body limit of other routes. */
const IMPORT_BODY_LIMIT = 16 * 1_048_576;
const WORDS_SHOWN_IN_AUDIT = 50;
/** The rule builder's fields, read from the schema the API validates rules with. */
const RULE_CONDITIONS = describeRuleConditions(RuleConditions);
const TRUST_LEVELS = Object.entries(TRUST_LEVEL_NAMES)
  .map(([level, name]) => ({ level: Number(level), name }))
  .sort((a, b) => a.level - b.level);

/**
 * The configuration pages of the dashboard (issue #29): channels and their policies, wordlists,
 * queues and actions. Bodies are validated by the /v1 schemas and the same services; every change
 * is written to the audit log (kind `config`) with what changed, before and after.
 */
export async function configureRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.deps;
  const P = '/projects/:projectId';
  const projectOf = (request: FastifyRequest) => memberOf(request).projectId;

  const audit = (request: FastifyRequest, value: string, before: unknown, after: unknown, comment: string | null = null) => {
    const actor = actorOfRequest(request);
    return writeAuditEntries(db, projectOf(request), [
      { kind: 'config', actorKeyId: null, actorUserId: actor.userId ?? null, actorEmail: actor.email ?? null, value, comment, diff: diffConfig(before, after) },
    ]);
  };

  // ------------------------------------------------------------ catalog

  app.get(`${P}/config/catalog`, { config: { access }, schema: { hide, params: ProjectParams } }, async (request) => ({
    policies: policyIds().map((id) => {
      const { policy } = findPolicy(id)!;
      const labels = id === 'unicode_spoofing' ? [...UNICODE_SIGNALS] : id === 'pii' || id === 'url' ? [...entityNames(id)] : [...(policy.labels ?? [])];
      return { id, type: policy.type, defaultThreshold: policy.defaultThreshold, labels };
    }),
    wordlistPolicy: { prefix: WORDLIST_POLICY_PREFIX, defaultThreshold: findPolicy(`${WORDLIST_POLICY_PREFIX}x`)!.policy.defaultThreshold },
    insights: insightIds(),
    unicodeSignals: UNICODE_SIGNALS,
    triage: { default: DEFAULT_TRIAGE, presets: TRIAGE_PRESETS },
    ruleConditions: RULE_CONDITIONS,
    trustLevels: TRUST_LEVELS,
    wordlists: (await listWordlistOverviews(db, projectOf(request))).map((w) => ({ id: w.id, key: w.key, name: w.name, wordCount: w.wordCount })),
  }));

  // ------------------------------------------------------------ channels

  const channelView = (channel: Channel) => toChannelView(channel);

  app.get(`${P}/channels`, { config: { access }, schema: { hide, params: ProjectParams } }, async (request) => ({
    channels: (await listChannels(db, projectOf(request))).map(channelView),
  }));

  app.get(`${P}/channels/:channelId`, { config: { access }, schema: { hide, params: ChannelParams } }, async (request) => ({
    channel: channelView(await getChannel(db, projectOf(request), request.params.channelId)),
  }));

  app.post(`${P}/channels`, { config: { access }, schema: { hide, params: ProjectParams, body: CreateChannelBody } }, async (request, reply) => {
    const channel = channelView(await createChannel(db, projectOf(request), request.body));
    await audit(request, `channel ${channel.key}: created`, null, settingsOf(channel));
    return reply.status(201).send({ channel });
  });

  app.put(`${P}/channels/:channelId`, { config: { access }, schema: { hide, params: ChannelParams, body: UpdateChannelBody } }, async (request) => {
    const before = channelView(await getChannel(db, projectOf(request), request.params.channelId));
    const channel = channelView(await updateChannel(db, projectOf(request), before.id, request.body));
    const changes = diffConfig(settingsOf(before), settingsOf(channel));
    if (changes.length > 0) await audit(request, `channel ${channel.key}: updated`, settingsOf(before), settingsOf(channel));
    return { channel, changes };
  });

  app.delete(`${P}/channels/:channelId`, { config: { access }, schema: { hide, params: ChannelParams } }, async (request) => {
    const channel = channelView(await deleteChannel(db, projectOf(request), request.params.channelId));
    await audit(request, `channel ${channel.key}: deleted`, settingsOf(channel), null);
    return { deleted: true, channel };
  });

  // ------------------------------------------------------------ wordlists

  /** Channels whose policies run the list (`wordlist_<key>` or `wordlist_<id>`). */
  const usersOf = (channels: Channel[], list: { id: string; key: string | null }) =>
    channels
      .filter((c) => c.config.policies.some((p) => p.id === `${WORDLIST_POLICY_PREFIX}${list.id}` || (list.key !== null && p.id === `${WORDLIST_POLICY_PREFIX}${list.key}`)))
      .map((c) => ({ id: c.id, key: c.key, name: c.name }));

  const overviewOf = async (projectId: string, idOrKey: string) => {
    const lists = await listWordlistOverviews(db, projectId);
    const list = lists.find((w) => w.id === idOrKey) ?? lists.find((w) => w.key === idOrKey);
    if (!list) throw notFound(`Wordlist "${idOrKey}"`);
    return { ...list, usedBy: usersOf(await listChannels(db, projectId), list) };
  };
  const metaOf = (w: WordlistOverview) => ({ key: w.key, name: w.name, description: w.description, wordCount: w.wordCount });

  app.get(`${P}/wordlists`, { config: { access }, schema: { hide, params: ProjectParams } }, async (request) => {
    const [lists, channels] = await Promise.all([listWordlistOverviews(db, projectOf(request)), listChannels(db, projectOf(request))]);
    return { wordlists: lists.map((w) => ({ ...w, usedBy: usersOf(channels, w) })) };
  });

  app.get(`${P}/wordlists/:wordlistId`, { config: { access }, schema: { hide, params: WordlistParams } }, async (request) => ({
    wordlist: await overviewOf(projectOf(request), request.params.wordlistId),
  }));

  app.post(`${P}/wordlists`, { config: { access }, schema: { hide, params: ProjectParams, body: CreateWordlistBody } }, async (request, reply) => {
    const created = await createWordlist(db, projectOf(request), request.body);
    const wordlist = await overviewOf(projectOf(request), created.id);
    await audit(request, `wordlist ${wordlist.key ?? wordlist.id}: created`, null, metaOf(wordlist));
    return reply.status(201).send({ wordlist });
  });

  app.put(`${P}/wordlists/:wordlistId`, { config: { access }, schema: { hide, params: WordlistParams, body: UpdateWordlistBody } }, async (request) => {
    const before = await overviewOf(projectOf(request), request.params.wordlistId);
    await updateWordlist(db, projectOf(request), before.id, request.body);
    const wordlist = await overviewOf(projectOf(request), before.id);
    await audit(request, `wordlist ${wordlist.key ?? wordlist.id}: updated`, metaOf(before), metaOf(wordlist), request.body.words ? 'every word replaced' : null);
    return { wordlist };
  });

  app.delete(`${P}/wordlists/:wordlistId`, { config: { access }, schema: { hide, params: WordlistParams } }, async (request) => {
    const before = await overviewOf(projectOf(request), request.params.wordlistId);
    await deleteWordlist(db, projectOf(request), before.id);
    await audit(request, `wordlist ${before.key ?? before.id}: deleted`, metaOf(before), null);
    return { deleted: true, usedBy: before.usedBy };
  });

  app.get(`${P}/wordlists/:wordlistId/words`, { config: { access }, schema: { hide, params: WordlistParams, querystring: WordSearchQuery } }, async (request) => {
    const limit = request.query.limit === undefined ? 100 : Number(request.query.limit);
    if (limit < 1 || limit > 500) throw badRequest('limit must be from 1 to 500', [{ message: 'out of range', path: '/querystring/limit' }]);
    return searchWords(db, projectOf(request), request.params.wordlistId, {
      contains: request.query.contains ?? '',
      limit,
      ...(request.query.after !== undefined ? { after: request.query.after } : {}),
    });
  });

  const auditWords = (request: FastifyRequest, list: string, verb: 'added' | 'removed', words: string[], total: number) =>
    audit(
      request,
      `wordlist ${list}: ${words.length} word(s) ${verb}`,
      verb === 'removed' ? { words: words.slice(0, WORDS_SHOWN_IN_AUDIT) } : { words: [] },
      verb === 'added' ? { words: words.slice(0, WORDS_SHOWN_IN_AUDIT) } : { words: [] },
      `${total} word(s) now${words.length > WORDS_SHOWN_IN_AUDIT ? `; the first ${WORDS_SHOWN_IN_AUDIT} ${verb} are listed` : ''}`,
    );

  app.post(`${P}/wordlists/:wordlistId/words`, { config: { access }, schema: { hide, params: WordlistParams, body: AddWordsBody } }, async (request) => {
    const list = await overviewOf(projectOf(request), request.params.wordlistId);
    const result = await addWords(db, projectOf(request), list.id, request.body.words);
    if (result.addedCount > 0) await auditWords(request, list.key ?? list.id, 'added', result.addedWords, result.totalCount);
    return result;
  });

  app.post(`${P}/wordlists/:wordlistId/words/remove`, { config: { access }, schema: { hide, params: WordlistParams, body: AddWordsBody } }, async (request) => {
    const list = await overviewOf(projectOf(request), request.params.wordlistId);
    const result = await removeWords(db, projectOf(request), list.id, request.body.words);
    if (result.removedCount > 0) await auditWords(request, list.key ?? list.id, 'removed', result.removedWords, result.totalCount);
    return result;
  });

  app.post(
    `${P}/wordlists/:wordlistId/import`,
    { config: { access }, bodyLimit: IMPORT_BODY_LIMIT, schema: { hide, params: WordlistParams, body: WordsImportBody } },
    async (request) => {
      const list = await overviewOf(projectOf(request), request.params.wordlistId);
      const words = wordsFromCsv(request.body.csv);
      if (words.length === 0) throw badRequest('The file holds no words', [{ message: 'expected one word per row in the first column', path: '/csv' }]);
      if (request.body.replace) {
        await updateWordlist(db, projectOf(request), list.id, { words });
        const after = await overviewOf(projectOf(request), list.id);
        await audit(request, `wordlist ${list.key ?? list.id}: replaced from CSV`, metaOf(list), metaOf(after), `${after.wordCount} word(s) now`);
        return { imported: words.length, addedCount: after.wordCount, totalCount: after.wordCount, replaced: true };
      }
      const result = await addWords(db, projectOf(request), list.id, words);
      if (result.addedCount > 0) await auditWords(request, list.key ?? list.id, 'added', result.addedWords, result.totalCount);
      return { imported: words.length, addedCount: result.addedCount, totalCount: result.totalCount, replaced: false };
    },
  );

  app.get(`${P}/wordlists/:wordlistId/export`, { config: { access }, schema: { hide, params: WordlistParams } }, async (request, reply) => {
    const { id, key, words } = await allWords(db, projectOf(request), request.params.wordlistId);
    const name = (key ?? id).replace(/[^a-zA-Z0-9_-]/g, '_');
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="wordlist-${name}.csv"`)
      .send(wordsToCsv(words));
  });

  // ------------------------------------------------------------ queues

  app.post(`${P}/queues/preview`, { config: { access }, schema: { hide, params: ProjectParams, body: Type.Object({ filter: QueueFilterSchema }, { additionalProperties: false }) } }, async (request) =>
    countFilterMatches(db, projectOf(request), request.body.filter as QueueFilter),
  );

  app.post(`${P}/queues`, { config: { access }, schema: { hide, params: ProjectParams, body: CreateQueueBody } }, async (request, reply) => {
    const queue = await queueView(db, await createQueue(db, projectOf(request), request.body as { name: string; description?: string; filter?: QueueFilter }));
    await audit(request, `queue ${queue.name}: created`, null, queueSettings(queue));
    app.deps.queueCounts.poke();
    return reply.status(201).send({ queue });
  });

  app.put(`${P}/queues/:queueId`, { config: { access }, schema: { hide, params: QueueParams, body: UpdateQueueBody } }, async (request) => {
    const before = await getQueue(db, projectOf(request), request.params.queueId);
    const queue = await queueView(db, await updateQueue(db, projectOf(request), before.id, request.body as { name?: string; description?: string; filter?: QueueFilter }));
    await audit(request, `queue ${queue.name}: updated`, queueSettings(before), queueSettings(queue));
    app.deps.queueCounts.poke();
    return { queue };
  });

  app.delete(`${P}/queues/:queueId`, { config: { access }, schema: { hide, params: QueueParams } }, async (request) => {
    const queue = await deleteQueue(db, projectOf(request), request.params.queueId);
    await audit(request, `queue ${queue.name}: deleted`, queueSettings(queue), null);
    return { deleted: true };
  });

  // ------------------------------------------------------------ actions

  const actionSettings = (a: Awaited<ReturnType<typeof withWebhooks>>[number]) => {
    const { id: _id, createdAt: _createdAt, ...settings } = a;
    return { ...settings, webhooks: a.webhooks.map((w) => ({ name: w.name, url: w.url, description: w.description })) };
  };
  const actionView = async (projectId: string, idOrKey: string) => (await withWebhooks(db, projectId, [await getAction(db, projectId, idOrKey)]))[0]!;

  app.get(`${P}/actions`, { config: { access }, schema: { hide, params: ProjectParams } }, async (request) => ({
    actions: await withWebhooks(db, projectOf(request), await listActions(db, projectOf(request))),
  }));

  app.post(`${P}/actions`, { config: { access }, schema: { hide, params: ProjectParams, body: CreateActionBody } }, async (request, reply) => {
    const created = await createAction(db, projectOf(request), request.body as ActionInput & { name: string }, config.allowPrivateOutbound);
    const action = await actionView(projectOf(request), created.id);
    await audit(request, `action ${action.name}: created`, null, actionSettings(action));
    return reply.status(201).send({ action });
  });

  app.put(`${P}/actions/order`, { config: { access }, schema: { hide, params: ProjectParams, body: ActionOrderBody } }, async (request) => {
    const before = await listActions(db, projectOf(request));
    const after = await reorderActions(db, projectOf(request), request.body.order);
    await audit(request, 'actions: reordered', { order: before.map((a) => a.name) }, { order: after.map((a) => a.name) });
    return { actions: await withWebhooks(db, projectOf(request), after) };
  });

  app.put(`${P}/actions/:actionId`, { config: { access }, schema: { hide, params: ActionParams, body: UpdateActionBody } }, async (request) => {
    const before = await actionView(projectOf(request), request.params.actionId);
    await updateAction(db, projectOf(request), before.id, request.body as ActionInput, config.allowPrivateOutbound);
    const action = await actionView(projectOf(request), before.id);
    await audit(request, `action ${action.name}: updated`, actionSettings(before), actionSettings(action));
    return { action };
  });

  app.delete(`${P}/actions/:actionId`, { config: { access }, schema: { hide, params: ActionParams } }, async (request) => {
    const before = await actionView(projectOf(request), request.params.actionId);
    await deleteAction(db, projectOf(request), before.id);
    await audit(request, `action ${before.name}: deleted`, actionSettings(before), null);
    return { deleted: true };
  });
}

/** A channel's settings as the audit diff compares them (ids and timestamps left out). */
function settingsOf(channel: ReturnType<typeof toChannelView>) {
  const { id: _id, createdAt: _createdAt, updatedAt: _updatedAt, ...settings } = channel;
  return settings;
}

const queueSettings = (queue: { name: string; description: string; filter: QueueFilter }) => ({ name: queue.name, description: queue.description, filter: queue.filter });
