import type { Database, Queryable } from '../db/database.ts';
import { ApiError, badRequest, conflict, notFound } from '../errors.ts';
import { newId } from '../lib/ids.ts';
import { queueFilterSql, SqlParams } from '../core/queue-filter.ts';
import { builtInActionKey, type BuiltInActionKey } from '../core/action-keys.ts';
import { isUniqueViolation } from './channels.ts';
import { authorPayloads, forgetAuthorSnapshots, setAuthorStatus, type AuthorRecord } from './authors.ts';
import { actorId, actorOf, writeAuditEntries, type Actor, type AuditEntryInput } from './audit.ts';
import { getQueue, ITEM_COLUMNS, webhookItem, type Queue } from './queues.ts';
import { actionWebhooks, emitEvents, syncActionWebhooks, type ActionWebhookInput, type EventDraft, type WebhookEventType } from './webhooks.ts';

/**
 * Moderator actions: configurable operations on items and authors. Built-in
 * actions exist in every project; executing any action writes one audit entry
 * per target and its webhook events in the same transaction as its effects.
 */

export const ACTION_TYPES = [
  'AUTHOR_BLOCK',
  'AUTHOR_BLOCK_TEMP',
  'AUTHOR_UNBLOCK',
  'AUTHOR_DELETE',
  'AUTHOR_REPORT',
  'AUTHOR_WARN',
  'AUTHOR_CUSTOM',
  'ITEM_REJECT',
  'ITEM_ALLOW',
  'ITEM_CUSTOM',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];
export type QueueBehaviour = 'REMOVE' | 'ADD' | 'NO_CHANGE';
export type ActionPosition = 'ALL_QUEUES' | 'SOME_QUEUES' | 'HIDDEN';

/** Most ids one execution accepts, per list. */
export const MAX_EXECUTE_TARGETS = 5_000;

export interface Action {
  id: string;
  projectId: string;
  key: string | null;
  name: string;
  description: string | null;
  type: ActionType | null;
  builtIn: boolean;
  queueBehaviour: QueueBehaviour;
  filterInQueueIds: string[];
  position: ActionPosition;
  possibleValues: Array<{ value: string }>;
  valueRequired: boolean;
  freeText: boolean;
  createdAt: number;
}

interface BuiltIn {
  key: BuiltInActionKey;
  name: string;
  description: string;
  type: ActionType;
  queueBehaviour: QueueBehaviour;
  freeText: boolean;
}

/** The key of each built-in action equals its type, as in the hosted product (see core/action-keys.ts). */
const BUILT_INS: BuiltIn[] = [
  { key: 'AUTHOR_BLOCK', name: 'Block author', description: 'Blocks the author until unblocked. The value is kept as the reason.', type: 'AUTHOR_BLOCK', queueBehaviour: 'REMOVE', freeText: true },
  { key: 'AUTHOR_BLOCK_TEMP', name: 'Temporarily block author', description: 'Suspends the author for `duration` milliseconds; the block ends by itself.', type: 'AUTHOR_BLOCK_TEMP', queueBehaviour: 'REMOVE', freeText: true },
  { key: 'AUTHOR_UNBLOCK', name: 'Unblock author', description: 'Enables a blocked or suspended author again.', type: 'AUTHOR_UNBLOCK', queueBehaviour: 'NO_CHANGE', freeText: true },
  { key: 'AUTHOR_DELETE', name: 'Delete author', description: 'Deletes the author and all of their stored content.', type: 'AUTHOR_DELETE', queueBehaviour: 'REMOVE', freeText: true },
  { key: 'AUTHOR_REPORT', name: 'Report author', description: "Counts a report against the author (metrics.report_count).", type: 'AUTHOR_REPORT', queueBehaviour: 'NO_CHANGE', freeText: true },
  { key: 'AUTHOR_WARN', name: 'Warn author', description: 'Records a warning; your webhook tells the author.', type: 'AUTHOR_WARN', queueBehaviour: 'NO_CHANGE', freeText: true },
  { key: 'ITEM_REJECT', name: 'Reject item', description: 'Rejects the item and resolves it in the queue.', type: 'ITEM_REJECT', queueBehaviour: 'REMOVE', freeText: true },
  { key: 'ITEM_ALLOW', name: 'Allow item', description: 'Allows the item and resolves it in the queue.', type: 'ITEM_ALLOW', queueBehaviour: 'REMOVE', freeText: true },
];

const fromRow = (r: Record<string, unknown>): Action => ({
  id: r.id as string,
  projectId: r.project_id as string,
  key: (r.key as string | null) ?? null,
  name: r.name as string,
  description: (r.description as string | null) ?? null,
  type: (r.type as ActionType | null) ?? null,
  builtIn: r.built_in as boolean,
  queueBehaviour: r.queue_behaviour as QueueBehaviour,
  filterInQueueIds: r.filter_in_queue_ids as string[],
  position: r.position as ActionPosition,
  possibleValues: r.possible_values as Array<{ value: string }>,
  valueRequired: r.value_required as boolean,
  freeText: r.free_text as boolean,
  createdAt: r.created_at as number,
});

export function toActionView(action: Action) {
  return {
    id: action.id,
    key: action.key,
    name: action.name,
    description: action.description,
    type: action.type,
    builtIn: action.builtIn,
    queueBehaviour: action.queueBehaviour,
    filterInQueueIds: action.filterInQueueIds,
    position: action.position,
    possibleValues: action.possibleValues,
    valueRequired: action.valueRequired,
    freeText: action.freeText,
    createdAt: new Date(action.createdAt).toISOString(),
  };
}

export async function withWebhooks(db: Queryable, projectId: string, actions: Action[]) {
  const hooks = await actionWebhooks(db, projectId, actions.map((a) => a.id));
  return actions.map((a) => ({ ...toActionView(a), webhooks: hooks.get(a.id) ?? [] }));
}

const ensured = new Set<string>();

/** Built-in actions are created on a project's first use of actions (idempotent, safe across nodes). */
export async function ensureBuiltInActions(db: Queryable, projectId: string): Promise<void> {
  if (ensured.has(projectId)) return;
  const now = Date.now();
  await db.query(
    `INSERT INTO actions (id, project_id, key, name, description, type, built_in, queue_behaviour, free_text, created_at, updated_at)
     SELECT b.id, $1, b.key, b.name, b.description, b.type, true, b.queue_behaviour, b.free_text, $2::bigint + b.ord, $2::bigint + b.ord
     FROM jsonb_to_recordset($3::jsonb) AS b(id text, key text, name text, description text, type text, queue_behaviour text, free_text boolean, ord int)
     ON CONFLICT (project_id, key) DO NOTHING`,
    [
      projectId,
      now,
      JSON.stringify(BUILT_INS.map((b, ord) => ({ id: newId('act'), key: b.key, name: b.name, description: b.description, type: b.type, queue_behaviour: b.queueBehaviour, free_text: b.freeText, ord }))),
    ],
  );
  ensured.add(projectId);
}

/** The order moderators see actions in: as arranged in the dashboard, then oldest first. */
const ACTION_ORDER = 'sort_order NULLS LAST, created_at, id';

/**
 * Puts the project's actions in the given order (ids or keys; every action exactly once), so
 * moderators see them so in queues and dialogs.
 */
export async function reorderActions(db: Database, projectId: string, order: readonly string[]): Promise<Action[]> {
  const actions = await listActions(db, projectId);
  const byRef = new Map<string, Action>();
  for (const a of actions) {
    byRef.set(a.id, a);
    if (a.key !== null) byRef.set(a.key, a);
  }
  const ids = order.map((ref) => byRef.get(ref)?.id);
  const unknown = ids.findIndex((id) => id === undefined);
  if (unknown >= 0) throw badRequest(`Action "${order[unknown]}" not found`, [{ message: 'unknown action', path: `/order/${unknown}` }]);
  if (new Set(ids).size !== ids.length) throw badRequest('An action is listed twice', [{ message: 'duplicate action', path: '/order' }]);
  if (ids.length !== actions.length) throw badRequest(`List every action once (${actions.length} in this project)`, [{ message: `expected ${actions.length} actions`, path: '/order' }]);
  await db.query(
    `UPDATE actions a SET sort_order = o.ord - 1 FROM jsonb_array_elements_text($2::jsonb) WITH ORDINALITY AS o(id, ord)
     WHERE a.project_id = $1 AND a.id = o.id`,
    [projectId, JSON.stringify(ids)],
  );
  return listActions(db, projectId);
}

export async function listActions(db: Queryable, projectId: string, queueId?: string): Promise<Action[]> {
  await ensureBuiltInActions(db, projectId);
  if (queueId === undefined) {
    const { rows } = await db.query(`SELECT * FROM actions WHERE project_id = $1 ORDER BY ${ACTION_ORDER}`, [projectId]);
    return rows.map(fromRow);
  }
  await getQueue(db, projectId, queueId);
  const { rows } = await db.query(
    `SELECT * FROM actions WHERE project_id = $1
       AND (position = 'ALL_QUEUES' OR (position = 'SOME_QUEUES' AND filter_in_queue_ids @> jsonb_build_array($2::text)))
     ORDER BY ${ACTION_ORDER}`,
    [projectId, queueId],
  );
  return rows.map(fromRow);
}

/**
 * By id or key. A built-in key or its legacy alias finds the built-in action
 * of that type whatever key it is stored under (a project whose custom action
 * already used `AUTHOR_BLOCK` kept its built-in under `block`); an exact id or
 * key match wins.
 */
export async function getAction(db: Queryable, projectId: string, idOrKey: string): Promise<Action> {
  await ensureBuiltInActions(db, projectId);
  const { rows } = await db.query(
    `SELECT * FROM actions WHERE project_id = $1 AND (id = $2 OR key = $2 OR (built_in AND type = $3))
     ORDER BY (id = $2) DESC, (key IS NOT DISTINCT FROM $2) DESC LIMIT 1`,
    [projectId, idOrKey, builtInActionKey(idOrKey)],
  );
  if (!rows[0]) throw notFound(`Action "${idOrKey}"`);
  return fromRow(rows[0]);
}

export interface ActionInput {
  key?: string | null;
  name?: string;
  description?: string | null;
  type?: ActionType | null;
  builtIn?: boolean | null;
  queueBehaviour?: QueueBehaviour;
  filterInQueueIds?: string[];
  position?: ActionPosition;
  possibleValues?: Array<{ value: string }>;
  valueRequired?: boolean;
  freeText?: boolean;
  webhooks?: ActionWebhookInput[];
}

async function checkInput(db: Queryable, projectId: string, input: ActionInput): Promise<void> {
  if (input.possibleValues) {
    const values = input.possibleValues.map((v) => v.value);
    if (new Set(values).size !== values.length) throw badRequest('possibleValues lists a value twice', [{ message: 'duplicate value', path: '/possibleValues' }]);
  }
  if (input.filterInQueueIds && input.filterInQueueIds.length > 0) {
    const { rows } = await db.query<{ id: string }>(
      'SELECT id FROM queues WHERE project_id = $1 AND id IN (SELECT jsonb_array_elements_text($2::jsonb))',
      [projectId, JSON.stringify(input.filterInQueueIds)],
    );
    const known = new Set(rows.map((r) => r.id));
    const index = input.filterInQueueIds.findIndex((id) => !known.has(id));
    if (index >= 0) throw badRequest(`Queue "${input.filterInQueueIds[index]}" not found`, [{ message: 'unknown queue', path: `/filterInQueueIds/${index}` }]);
  }
}

const duplicateKey = (key: string | null | undefined) => conflict(`An action with key "${key}" already exists`, [{ message: 'duplicate key', path: '/key' }]);

/** Built-in keys and their aliases name the built-in actions; a custom action taking one would be ambiguous. */
function checkKeyNotReserved(key: string | null | undefined): void {
  if (key == null) return;
  const builtIn = builtInActionKey(key);
  if (builtIn !== null) throw conflict(`The key "${key}" belongs to the built-in action ${builtIn}`, [{ message: 'reserved key', path: '/key' }]);
}

export async function createAction(db: Database, projectId: string, input: ActionInput & { name: string }, allowPrivate: boolean): Promise<Action> {
  if (input.builtIn === true) throw badRequest('Built-in actions are provided by the service; custom actions have builtIn false', [{ message: 'must be false', path: '/builtIn' }]);
  checkKeyNotReserved(input.key);
  await ensureBuiltInActions(db, projectId);
  await checkInput(db, projectId, input);
  try {
    return await db.transaction(async (tx) => {
      const now = Date.now();
      const { rows } = await tx.query(
        `INSERT INTO actions (id, project_id, key, name, description, type, built_in, queue_behaviour, filter_in_queue_ids, position,
           possible_values, value_required, free_text, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, false, $7, $8, $9, $10, $11, $12, $13, $13) RETURNING *`,
        [
          newId('act'),
          projectId,
          input.key ?? null,
          input.name,
          input.description ?? null,
          input.type ?? null,
          input.queueBehaviour ?? 'NO_CHANGE',
          JSON.stringify(input.filterInQueueIds ?? []),
          input.position ?? 'ALL_QUEUES',
          JSON.stringify(input.possibleValues ?? []),
          input.valueRequired ?? false,
          input.freeText ?? false,
          now,
        ],
      );
      const action = fromRow(rows[0]!);
      if (input.webhooks) await syncActionWebhooks(tx, projectId, action.id, input.webhooks, allowPrivate);
      return action;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateKey(input.key);
    throw error;
  }
}

export async function updateAction(db: Database, projectId: string, idOrKey: string, input: ActionInput, allowPrivate: boolean): Promise<Action> {
  const current = await getAction(db, projectId, idOrKey);
  if (current.builtIn) {
    const locked = (['key', 'type'] as const).find((f) => input[f] !== undefined && input[f] !== current[f]);
    if (locked) throw badRequest(`The ${locked} of a built-in action cannot change`, [{ message: 'built-in', path: `/${locked}` }]);
  }
  if (input.builtIn != null && input.builtIn !== current.builtIn) throw badRequest('builtIn cannot change', [{ message: 'read-only', path: '/builtIn' }]);
  if (!current.builtIn && input.key !== current.key) checkKeyNotReserved(input.key);
  await checkInput(db, projectId, input);
  const next = {
    key: input.key === undefined ? current.key : input.key,
    name: input.name ?? current.name,
    description: input.description === undefined ? current.description : input.description,
    type: input.type === undefined ? current.type : input.type,
    queueBehaviour: input.queueBehaviour ?? current.queueBehaviour,
    filterInQueueIds: input.filterInQueueIds ?? current.filterInQueueIds,
    position: input.position ?? current.position,
    possibleValues: input.possibleValues ?? current.possibleValues,
    valueRequired: input.valueRequired ?? current.valueRequired,
    freeText: input.freeText ?? current.freeText,
  };
  try {
    return await db.transaction(async (tx) => {
      const { rows } = await tx.query(
        `UPDATE actions SET key = $3, name = $4, description = $5, type = $6, queue_behaviour = $7, filter_in_queue_ids = $8,
           position = $9, possible_values = $10, value_required = $11, free_text = $12, updated_at = $13
         WHERE project_id = $1 AND id = $2 RETURNING *`,
        [
          projectId,
          current.id,
          next.key,
          next.name,
          next.description,
          next.type,
          next.queueBehaviour,
          JSON.stringify(next.filterInQueueIds),
          next.position,
          JSON.stringify(next.possibleValues),
          next.valueRequired,
          next.freeText,
          Date.now(),
        ],
      );
      if (input.webhooks) await syncActionWebhooks(tx, projectId, current.id, input.webhooks, allowPrivate);
      return fromRow(rows[0]!);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateKey(input.key);
    throw error;
  }
}

export async function deleteAction(db: Queryable, projectId: string, idOrKey: string): Promise<{ id: string; deleted: boolean }> {
  const current = await getAction(db, projectId, idOrKey);
  if (current.builtIn) throw badRequest('Built-in actions cannot be deleted; set position HIDDEN to hide one');
  await db.query('DELETE FROM actions WHERE project_id = $1 AND id = $2', [projectId, current.id]);
  return { id: current.id, deleted: true };
}

// ---------------------------------------------------------------- execute

export interface ExecuteInput {
  actionKey: string;
  authorIds?: string[];
  contentIds?: string[];
  value?: string;
  queueId?: string;
  duration?: number;
  comment?: string;
  /** With queueId: refuse (409) when one of the items is already resolved in that queue, instead of acting again. */
  refuseResolved?: boolean;
}

/** Most targets one dashboard execution accepts (contentIds and authorIds together). */
export const MAX_DASHBOARD_TARGETS = 1_000;

export interface ExecuteResult {
  action: Action;
  contentIds: string[];
  authorIds: string[];
}

const AUTHOR_STATUS_EFFECTS: Partial<Record<ActionType, { status: 'enabled' | 'suspended' | 'blocked'; event: WebhookEventType }>> = {
  AUTHOR_BLOCK: { status: 'blocked', event: 'AUTHOR_BLOCKED' },
  AUTHOR_BLOCK_TEMP: { status: 'suspended', event: 'AUTHOR_SUSPENDED' },
  AUTHOR_UNBLOCK: { status: 'enabled', event: 'AUTHOR_UNBLOCKED' },
};

const jsonList = (values: readonly string[]) => JSON.stringify(values);

function checkValue(action: Action, value: string | undefined): void {
  if (value === undefined || value === '') {
    if (action.valueRequired) throw badRequest(`Action "${action.name}" requires a value`, [{ message: 'value is required', path: '/value' }]);
    return;
  }
  if (action.freeText) return;
  const allowed = action.possibleValues.map((v) => v.value);
  if (!allowed.includes(value)) {
    const hint = allowed.length > 0 ? `one of: ${allowed.join(', ')}` : 'no value (the action has no possible values and takes no free text)';
    throw badRequest(`Invalid value for action "${action.name}": expected ${hint}`, [{ message: 'value not allowed', path: '/value' }]);
  }
}

function missing(kind: string, asked: readonly string[], found: Set<string>): void {
  const absent = [...new Set(asked)].filter((id) => !found.has(id));
  if (absent.length === 0) return;
  const shown = absent.slice(0, 10).map((id) => `"${id}"`).join(', ');
  throw new ApiError('NOT_FOUND', `${absent.length} ${kind} not found: ${shown}${absent.length > 10 ? ', ...' : ''}`, absent.slice(0, 10).map((id) => ({ message: `${kind} "${id}" not found` })));
}

/** Items by the caller's contentId, falling back to our id, with one statement per lookup kind. */
async function loadItems(tx: Queryable, projectId: string, ids: readonly string[]): Promise<Array<Record<string, unknown>>> {
  if (ids.length === 0) return [];
  const select = `SELECT ${ITEM_COLUMNS} FROM content_items ci LEFT JOIN authors a ON a.id = ci.author_id WHERE ci.project_id = $1`;
  const { rows } = await tx.query(`${select} AND ci.external_id IN (SELECT jsonb_array_elements_text($2::jsonb))`, [projectId, jsonList(ids)]);
  const found = new Set(rows.map((r) => r.external_id as string));
  const rest = ids.filter((id) => !found.has(id));
  if (rest.length > 0) {
    const { rows: byId } = await tx.query(`${select} AND ci.id IN (SELECT jsonb_array_elements_text($2::jsonb))`, [projectId, jsonList(rest)]);
    for (const r of byId) if (!rows.some((x) => x.id === r.id)) rows.push(r);
    for (const r of byId) found.add(r.id as string);
  }
  missing('content items', ids, found);
  return rows;
}

async function loadAuthors(tx: Queryable, projectId: string, ids: readonly string[]): Promise<Array<{ id: string; external_id: string }>> {
  if (ids.length === 0) return [];
  const { rows } = await tx.query<{ id: string; external_id: string }>(
    `SELECT id, external_id FROM authors WHERE project_id = $1
       AND (external_id IN (SELECT jsonb_array_elements_text($2::jsonb)) OR id IN (SELECT jsonb_array_elements_text($2::jsonb)))`,
    [projectId, jsonList(ids)],
  );
  missing('authors', ids, new Set(rows.flatMap((r) => [r.id, r.external_id])));
  const unique = new Map(rows.map((r) => [r.id, r]));
  return [...unique.values()];
}

/**
 * Runs an action on items and/or authors in one transaction: effects, queue
 * behaviour, one audit entry per target, webhook events. Invalid input changes
 * nothing.
 */
export async function executeAction(db: Database, projectId: string, by: string | Actor, input: ExecuteInput): Promise<ExecuteResult> {
  const actor = actorOf(by);
  const who = { actorKeyId: actor.keyId, actorUserId: actor.userId ?? null, actorEmail: actor.email ?? null };
  const contentIds = input.contentIds ?? [];
  const authorIds = input.authorIds ?? [];
  if (contentIds.length === 0 && authorIds.length === 0) {
    throw badRequest('Give contentIds or authorIds (or both)', [{ message: 'no target', path: '/contentIds' }]);
  }
  const action = await getAction(db, projectId, input.actionKey);
  checkValue(action, input.value);
  const type = action.type;
  const isAuthorAction = type !== null && type.startsWith('AUTHOR_');
  if ((type === 'ITEM_REJECT' || type === 'ITEM_ALLOW' || type === 'ITEM_CUSTOM') && contentIds.length === 0) {
    throw badRequest(`Action "${action.name}" acts on content items: give contentIds`, [{ message: 'contentIds required', path: '/contentIds' }]);
  }
  if (type === 'AUTHOR_BLOCK_TEMP' && (input.duration === undefined || input.duration <= 0)) {
    throw badRequest('A temporary block needs a duration in milliseconds', [{ message: 'duration is required', path: '/duration' }]);
  }
  let queue: Queue | null = null;
  if (input.queueId !== undefined) {
    queue = await getQueue(db, projectId, input.queueId);
    if (action.position === 'SOME_QUEUES' && !action.filterInQueueIds.includes(queue.id)) {
      throw badRequest(`Action "${action.name}" is not available in queue "${queue.name}"`, [{ message: 'not available in this queue', path: '/queueId' }]);
    }
  }

  return db.transaction(async (tx) => {
    const now = Date.now();
    const items = await loadItems(tx, projectId, contentIds);
    if (queue !== null && input.refuseResolved && items.length > 0) await refuseResolvedItems(tx, queue, items);
    const explicitAuthors = await loadAuthors(tx, projectId, authorIds);
    const actionRef = { id: action.id, key: action.key, name: action.name, type: action.type };
    const actionPayload = { id: action.id, key: action.key, name: action.name, value: input.value ?? null, type: action.type };

    // Author actions run on named authors and on the authors of named items.
    const affectedAuthorIds = new Set(explicitAuthors.map((a) => a.id));
    if (isAuthorAction) for (const item of items) if (item.author_id != null) affectedAuthorIds.add(item.author_id as string);
    if (isAuthorAction && affectedAuthorIds.size === 0) {
      throw badRequest(`Action "${action.name}" acts on authors, and none of the items has an author`, [{ message: 'no author', path: '/contentIds' }]);
    }
    const authorsBefore = await authorPayloads(tx, projectId, [...affectedAuthorIds, ...items.map((i) => i.author_id as string).filter(Boolean)]);
    const authorsAfter = new Map<string, AuthorRecord>(authorsBefore);
    const drafts: EventDraft[] = [];

    // Queue behaviour first: deleted authors take their items with them.
    if (queue !== null && items.length > 0 && type !== 'AUTHOR_DELETE') {
      const ids = jsonList(items.map((i) => i.id as string));
      if (action.queueBehaviour === 'REMOVE') {
        const params = new SqlParams([projectId, queue.id, now, actorId(actor), input.comment ?? input.value ?? null, ids]);
        const { rows } = await tx.query<{ content_id: string }>(
          `INSERT INTO queue_resolutions (queue_id, content_id, project_id, resolved_at, resolved_by, comment)
           SELECT $2, ci.id, $1, $3, $4, $5 FROM content_items ci
           WHERE ${queueFilterSql(queue.filter, params, '$1')} AND ci.id IN (SELECT jsonb_array_elements_text($6::jsonb))
           ON CONFLICT (queue_id, content_id) DO NOTHING RETURNING content_id`,
          params.values,
        );
        const resolved = new Set(rows.map((r) => r.content_id));
        for (const item of items) {
          if (!resolved.has(item.id as string)) continue;
          drafts.push({
            type: 'QUEUE_ITEM_COMPLETED',
            data: { item: webhookItem(item), queue: { id: queue.id, name: queue.name }, author: authorsBefore.get(item.author_id as string) ?? null, action: actionPayload },
          });
        }
      } else if (action.queueBehaviour === 'ADD') {
        await tx.query(`DELETE FROM queue_resolutions WHERE queue_id = $1 AND content_id IN (SELECT jsonb_array_elements_text($2::jsonb))`, [queue.id, ids]);
      }
    }

    // Effects on authors.
    const statusEffect = type === null ? undefined : AUTHOR_STATUS_EFFECTS[type];
    if (statusEffect) {
      for (const authorId of affectedAuthorIds) {
        const record = await setAuthorStatus(tx, projectId, authorId, {
          status: statusEffect.status,
          until: statusEffect.status === 'suspended' ? now + input.duration! : undefined,
          reason: input.value ?? input.comment ?? null,
        });
        authorsAfter.set(authorId, record);
        drafts.push({ type: statusEffect.event, data: { author: record, action: actionPayload } });
      }
    } else if (type === 'AUTHOR_REPORT') {
      await tx.query(
        `UPDATE authors SET report_count = report_count + 1, updated_at = $3 WHERE project_id = $1 AND id IN (SELECT jsonb_array_elements_text($2::jsonb))`,
        [projectId, jsonList([...affectedAuthorIds]), now],
      );
    }

    // Audit: one entry per item, and one per named author.
    const entries: AuditEntryInput[] = items.map((item) => ({
      kind: 'action',
      ...who,
      action: actionRef,
      queueId: queue?.id ?? null,
      contentId: item.id as string,
      contentExternalId: item.external_id as string,
      authorId: (item.author_id as string | null) ?? null,
      authorExternalId: (item.author_external_id as string | null) ?? null,
      value: input.value ?? null,
      comment: input.comment ?? null,
      itemCreatedAt: item.created_at as number,
    }));
    for (const author of explicitAuthors) {
      entries.push({ kind: 'action', ...who, action: actionRef, queueId: queue?.id ?? null, authorId: author.id, authorExternalId: author.external_id, value: input.value ?? null, comment: input.comment ?? null });
    }
    await writeAuditEntries(tx, projectId, entries, now);

    const queueRef = queue === null ? undefined : { id: queue.id, name: queue.name };
    for (const item of items) {
      drafts.push({
        type: 'QUEUE_ITEM_ACTION',
        actionId: action.id,
        data: { item: webhookItem(item), ...(queueRef ? { queue: queueRef } : {}), author: authorsAfter.get(item.author_id as string) ?? null, action: actionPayload },
      });
    }
    for (const author of explicitAuthors) {
      drafts.push({ type: 'AUTHOR_ACTION', actionId: action.id, data: { author: authorsAfter.get(author.id) ?? null, action: actionPayload, ...(queueRef ? { queue: queueRef } : {}) } });
    }

    if (type === 'AUTHOR_DELETE') {
      for (const authorId of affectedAuthorIds) drafts.push({ type: 'AUTHOR_DELETED', data: { author: authorsBefore.get(authorId) ?? null, action: actionPayload } });
      // Erasure: content_items cascade with their author.
      await tx.query('DELETE FROM authors WHERE project_id = $1 AND id IN (SELECT jsonb_array_elements_text($2::jsonb))', [projectId, jsonList([...affectedAuthorIds])]);
      forgetAuthorSnapshots(projectId);
    }

    await emitEvents(tx, projectId, drafts, now);
    return { action, contentIds: items.map((i) => i.external_id as string), authorIds: explicitAuthors.map((a) => a.external_id) };
  });
}

async function refuseResolvedItems(tx: Queryable, queue: Queue, items: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  const { rows } = await tx.query<{ external_id: string; resolved_at: number; email: string | null }>(
    `SELECT ci.external_id, r.resolved_at, u.email FROM queue_resolutions r JOIN content_items ci ON ci.id = r.content_id
     LEFT JOIN dashboard_users u ON u.id = r.resolved_by
     WHERE r.queue_id = $1 AND r.content_id IN (SELECT jsonb_array_elements_text($2::jsonb)) ORDER BY ci.external_id`,
    [queue.id, jsonList(items.map((i) => i.id as string))],
  );
  if (rows.length === 0) return;
  const first = rows[0]!;
  const by = first.email ? ` by ${first.email}` : '';
  const message =
    rows.length === 1
      ? `Item "${first.external_id}" was already resolved in queue "${queue.name}"${by} at ${new Date(Number(first.resolved_at)).toISOString()}; nothing was done`
      : `${rows.length} of the items were already resolved in queue "${queue.name}"; nothing was done`;
  throw conflict(message, rows.slice(0, 20).map((r) => ({ message: `already resolved: ${r.external_id}`, path: '/contentIds' })));
}
