import { openDatabase } from '../../src/db/database.ts';
import { createApiKey, generateKey, revokeApiKey } from '../../src/services/api-keys.ts';
import { firstProject } from '../../src/services/projects.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';
import { call, killNode, startCluster, storedItems, storeLoad, timeUntilEveryNode, type Cluster, type ClusterNode, type LoadResult } from './cluster.ts';

/**
 * The scale-out scenario that test/cluster.test.ts asserts on and bench/cluster.ts reports:
 * three nodes on one PostgreSQL behind a round-robin proxy, storing load through all of them,
 * changes made through one node seen by all, a node killed with SIGKILL under load, and every
 * new item announced to a webhook with one event id.
 */

export interface ScenarioOptions {
  nodes: number;
  /** Storing requests in each of the two load phases. */
  requestsPerPhase: number;
  concurrency: number;
  log?(line: string): void;
}

export interface Propagation {
  /** Each node's state just before the change (a status code, or "flagged" / "not flagged"): all must show the old one. */
  before: string[];
  /** Per node, ms from the change's commit to the node showing it (Infinity: not within the time limit). */
  ms: number[];
}

export interface ScenarioResult {
  projects: number;
  steady: LoadResult & { perNode: number[] };
  keyRevoked: Propagation;
  keyCreated: Propagation;
  channelChanged: Propagation;
  wordlistChanged: Propagation;
  kill: LoadResult & { acknowledgedAtKill: number; proxyRetried: number; proxyFailed: number; nodeDown: boolean };
  /** contentId → rows holding it, after both phases. */
  stored: Map<string, number>;
  webhooks: {
    /** contentId → distinct event ids of QUEUE_ITEM_NEW events about it. */
    eventsPerItem: Map<string, Set<string>>;
    /** Event ids whose copies did not all carry the same body. */
    bodiesDiffer: number;
    requests: number;
    distinctEvents: number;
    /** From the end of the second load phase until every stored item's event was answered 200. */
    allDeliveredMs: number;
  };
}

/** How long a change may take to reach every node before the scenario stops waiting. */
export const PROPAGATION_TIMEOUT_MS = 10_000;
const WEBHOOK_TIMEOUT_MS = 180_000;

const NODE_ENV = {
  LOG_LEVEL: 'warn',
  ALLOW_PRIVATE_OUTBOUND: 'true',
  DATABASE_POOL_SIZE: '5',
  OUTBOX_POLL_MS: '100',
  OUTBOX_LEASE_MS: '3000',
  WEBHOOK_RETRY_BASE_MS: '100',
  WEBHOOK_RETRY_CAP_MS: '1000',
  WEBHOOK_MAX_ATTEMPTS: '50',
};

export interface RunningScenario {
  cluster: Cluster;
  receiver: WebhookReceiver;
  close(): Promise<void>;
}

/** Starts the cluster and the webhook receiver; `close()` ends everything, also after a failure. */
export async function startScenario(nodes: number): Promise<RunningScenario> {
  const receiver = await startWebhookReceiver();
  try {
    const cluster = await startCluster(nodes, NODE_ENV);
    return {
      cluster,
      receiver,
      close: async () => {
        await cluster.close();
        await receiver.close();
      },
    };
  } catch (error) {
    await receiver.close();
    throw error;
  }
}

export async function runScenario({ cluster, receiver }: RunningScenario, options: ScenarioOptions): Promise<ScenarioResult> {
  const log = options.log ?? (() => {});
  const { nodes, proxy, apiKey } = cluster;
  const must = async (what: string, answer: Promise<{ status: number; body: any }>, status = 200) => {
    const got = await answer;
    if (got.status !== status) throw new Error(`${what}: expected ${status}, got ${got.status} ${JSON.stringify(got.body)}`);
    return got.body;
  };
  // A handle of our own on the shared database, for what only the CLI can do (keys): the same service code.
  const db = await openDatabase({ databaseUrl: cluster.databaseUrl, poolSize: 2 });
  try {
    const project = await firstProject(db);
    const { rows } = await db.query<{ n: number }>('SELECT count(*) AS n FROM projects');

    await must('webhook', call(proxy.url, 'POST', '/v1/webhooks', apiKey, { name: 'new items', url: receiver.url, events: ['QUEUE_ITEM_NEW'] }), 201);
    await must('queue', call(proxy.url, 'POST', '/v1/queue', apiKey, { name: 'everything' }), 201);

    // 1. Storing load through all nodes.
    log(`storing ${options.requestsPerPhase} items through the proxy (${options.concurrency} in flight) ...`);
    const answeredBefore = nodes.map((n) => proxy.answered.get(n.url) ?? 0);
    const steadyLoad = await storeLoad(proxy.url, apiKey, { prefix: 'steady', requests: options.requestsPerPhase, concurrency: options.concurrency });
    const steady = { ...steadyLoad, perNode: nodes.map((n, i) => (proxy.answered.get(n.url) ?? 0) - answeredBefore[i]!) };

    // 2. Changes made through one node (or the CLI's code on the shared database), seen by all.
    log('propagation of key, channel and wordlist changes ...');
    const keyStatus = (key: string) => async (node: ClusterNode) => String((await call(node.url, 'GET', '/v1/wordlist', key)).status);
    const propagate = async (read: (node: ClusterNode) => Promise<string>, newState: string, change: () => Promise<unknown>): Promise<Propagation> => {
      // The old state, read on every node right before the change: each node now holds it in its cache.
      const before = await Promise.all(nodes.map(read));
      await change();
      const ms = await timeUntilEveryNode(nodes, async (node) => (await read(node)) === newState, PROPAGATION_TIMEOUT_MS);
      return { before, ms };
    };

    const revocable = await createApiKey(db, project!.id, 'cluster revocation probe');
    const keyRevoked = await propagate(keyStatus(revocable.key), '401', () => revokeApiKey(db, revocable.info.id));

    const lateKey = generateKey();
    const keyCreated = await propagate(keyStatus(lateKey), '200', () => createApiKey(db, project!.id, 'cluster late key', lateKey));

    const [first, second, third] = [nodes[0]!, nodes[1 % nodes.length]!, nodes[2 % nodes.length]!];
    await must('wordlist', call(first.url, 'POST', '/v1/wordlist', apiKey, { name: 'Cluster words', key: 'cluster', words: ['zorblax'] }), 201);
    await must('channel', call(first.url, 'POST', '/v1/channels', apiKey, { key: 'probe', name: 'Probe', policies: [{ id: 'toxicity' }] }), 201);
    const flaggedByWordlist = (text: string) => async (node: ClusterNode) => {
      const answer = await call(node.url, 'POST', '/v1/moderate', apiKey, { content: { type: 'text', text }, channel: 'probe', doNotStore: true });
      if (answer.status !== 200) throw new Error(`probe on ${node.url}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return (answer.body.policies as Array<{ id: string; flagged: boolean }>).some((p) => p.id === 'wordlist_cluster' && p.flagged) ? 'flagged' : 'not flagged';
    };
    const channelChanged = await propagate(flaggedByWordlist('zorblax'), 'flagged', () =>
      must('channel update', call(second.url, 'PUT', '/v1/channels/probe', apiKey, { policies: [{ id: 'toxicity' }, { id: 'wordlist_cluster' }] })),
    );
    const wordlistChanged = await propagate(flaggedByWordlist('quibbleflop'), 'flagged', () =>
      must('words', call(third.url, 'POST', '/v1/wordlist/cluster/words', apiKey, { words: ['quibbleflop'] })),
    );

    // 3. A node killed with SIGKILL a third into the second load phase.
    const victim = nodes[1]!;
    log(`storing ${options.requestsPerPhase} more, killing ${victim.url} (SIGKILL) a third of the way ...`);
    const killAt = Math.floor(options.requestsPerPhase / 3);
    let killing: Promise<void> | null = null;
    let acknowledgedAtKill = 0;
    const retriedBefore = proxy.retried;
    const failedBefore = proxy.failed;
    const killLoad = await storeLoad(proxy.url, apiKey, {
      prefix: 'kill',
      requests: options.requestsPerPhase,
      concurrency: options.concurrency,
      onAcknowledged: (count) => {
        if (count < killAt || killing) return;
        acknowledgedAtKill = count;
        killing = killNode(victim);
      },
    });
    await killing;
    const loadEnded = performance.now();
    const kill = {
      ...killLoad,
      acknowledgedAtKill,
      proxyRetried: proxy.retried - retriedBefore,
      proxyFailed: proxy.failed - failedBefore,
      nodeDown: proxy.down.has(victim.url),
    };

    // 4. Every stored item announced, with one event id each.
    const stored = await storedItems(cluster.databaseUrl);
    log(`waiting for the webhook events of ${stored.size} stored items ...`);
    const deliveredItems = () => {
      const items = new Set<string>();
      for (const request of receiver.received) if (request.status === 200 && request.json?.type === 'QUEUE_ITEM_NEW') items.add(request.json.item?.id);
      return items;
    };
    await receiver.waitFor(() => {
      const delivered = deliveredItems();
      for (const contentId of stored.keys()) if (!delivered.has(contentId)) return false;
      return true;
    }, WEBHOOK_TIMEOUT_MS);
    const allDeliveredMs = performance.now() - loadEnded;
    // A little longer, so that late copies are counted too.
    await new Promise((r) => setTimeout(r, 1_500));
    const eventsPerItem = new Map<string, Set<string>>();
    const bodies = new Map<string, Set<string>>();
    for (const request of receiver.received) {
      const eventId = String(request.headers['x-om-event-id']);
      const itemId = String(request.json?.item?.id);
      if (request.json?.id !== eventId) throw new Error(`webhook body id ${request.json?.id} differs from its header ${eventId}`);
      eventsPerItem.set(itemId, (eventsPerItem.get(itemId) ?? new Set()).add(eventId));
      bodies.set(eventId, (bodies.get(eventId) ?? new Set()).add(request.raw.toString('utf8')));
    }
    const webhooks = {
      eventsPerItem,
      bodiesDiffer: [...bodies.values()].filter((set) => set.size > 1).length,
      requests: receiver.received.length,
      distinctEvents: bodies.size,
      allDeliveredMs,
    };
    return { projects: rows[0]!.n, steady, keyRevoked, keyCreated, channelChanged, wordlistChanged, kill, stored, webhooks };
  } finally {
    await db.close();
  }
}
