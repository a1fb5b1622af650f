/**
 * npm run bench:cluster: the scale-out scenario of test/cluster.test.ts with more load, reported
 * instead of asserted. Three server processes on one PostgreSQL database (a fresh one, dropped at
 * the end) behind a round-robin proxy on 127.0.0.1; then, for comparison, one node behind the same
 * proxy with the same storing load.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:cluster
 *
 * BENCH_CLUSTER_REQUESTS (storing requests per phase, default 1500), BENCH_CLUSTER_CONCURRENCY
 * (requests in flight, default 24), BENCH_CLUSTER_BASELINE=0 skips the one-node run.
 */
import { runScenario, startScenario, type RunningScenario } from '../test/support/cluster-scenario.ts';
import { call, percentile, startCluster, storeLoad, type Cluster, type LoadResult } from '../test/support/cluster.ts';
import { startWebhookReceiver } from '../test/support/webhook-receiver.ts';

const NODES = 3;
const REQUESTS = Number(process.env.BENCH_CLUSTER_REQUESTS ?? 1500);
const CONCURRENCY = Number(process.env.BENCH_CLUSTER_CONCURRENCY ?? 24);

if (!process.env.DATABASE_URL) {
  console.error('Set DATABASE_URL to a PostgreSQL server (the bench creates and drops its own database). The embedded store is single-process: there is no cluster of it.');
  process.exit(2);
}

const rate = (load: LoadResult) => Math.round((load.latenciesMs.length / load.elapsedMs) * 1000);
const latency = (load: LoadResult) => `p50 ${percentile(load.latenciesMs, 50).toFixed(1)} ms, p99 ${percentile(load.latenciesMs, 99).toFixed(1)} ms`;
const perNode = (ms: number[]) => ms.map((v) => (Number.isFinite(v) ? `${Math.round(v)}` : 'never')).join(' / ');

async function main(): Promise<void> {
  const log = (line: string) => console.log(`  ${line}`);
  console.log(`bench:cluster: ${NODES} nodes on one PostgreSQL, ${REQUESTS} storing requests per phase, ${CONCURRENCY} in flight`);
  let scenario: RunningScenario | null = null;
  let single: Cluster | null = null;
  // Interrupted: the servers are killed and the database dropped all the same.
  process.once('SIGINT', () => {
    void Promise.all([scenario?.close(), single?.close()]).finally(() => process.exit(130));
  });
  try {
    scenario = await startScenario(NODES);
    const r = await runScenario(scenario, { nodes: NODES, requestsPerPhase: REQUESTS, concurrency: CONCURRENCY, log });
    await scenario.close();
    scenario = null;

    const killStored = [...r.stored.keys()].filter((id) => id.startsWith('kill-'));
    const lost = [...r.kill.acknowledged].filter((id) => !r.stored.has(id)).length + [...r.steady.acknowledged].filter((id) => !r.stored.has(id)).length;
    const duplicated = [...r.stored.values()].filter((n) => n > 1).length;
    const itemsWithOneEvent = [...r.stored.keys()].filter((id) => r.webhooks.eventsPerItem.get(id)?.size === 1).length;
    const lines = [
      '',
      `| ${NODES} nodes, one PostgreSQL | figure |`,
      '| --- | --- |',
      `| storing load (${REQUESTS} requests, ${r.steady.acknowledged.size} distinct contentIds) | ${rate(r.steady)} req/s, ${latency(r.steady)}; answered per node ${r.steady.perNode.join(' / ')}; statuses ${JSON.stringify(Object.fromEntries(r.steady.statuses))} |`,
      `| API key revoked, refused by every node after (ms per node) | ${perNode(r.keyRevoked.ms)} |`,
      `| API key created, accepted by every node after (ms per node) | ${perNode(r.keyCreated.ms)} |`,
      `| channel changed through node 2, applied by every node after (ms) | ${perNode(r.channelChanged.ms)} |`,
      `| wordlist changed through node 3, applied by every node after (ms) | ${perNode(r.wordlistChanged.ms)} |`,
      `| SIGKILL of node 2 after ${r.kill.acknowledgedAtKill} acknowledged | ${r.kill.acknowledged.size} of ${r.kill.sent.size} contentIds acknowledged; statuses ${JSON.stringify(Object.fromEntries(r.kill.statuses))}; ${rate(r.kill)} req/s, ${latency(r.kill)}; stored ${killStored.length} (${killStored.length - r.kill.acknowledged.size} stored but unacknowledged) |`,
      `| acknowledged items lost / stored twice | ${lost} / ${duplicated} |`,
      `| webhook events (QUEUE_ITEM_NEW) | ${r.webhooks.distinctEvents} events for ${r.stored.size} stored items, ${itemsWithOneEvent} items with exactly one event id; ${r.webhooks.requests} requests (${r.webhooks.requests - r.webhooks.distinctEvents} redeliveries of the same id), ${r.webhooks.bodiesDiffer} with differing bodies; all delivered ${(r.webhooks.allDeliveredMs / 1000).toFixed(1)} s after the load ended |`,
    ];
    console.log(lines.join('\n'));

    if (process.env.BENCH_CLUSTER_BASELINE !== '0') {
      log('one node behind the same proxy, same storing load ...');
      single = await startCluster(1, { LOG_LEVEL: 'warn', DATABASE_POOL_SIZE: '5', ALLOW_PRIVATE_OUTBOUND: 'true', OUTBOX_POLL_MS: '100' });
      // The same work as the three nodes' steady phase: every new item also becomes a webhook delivery.
      const receiver = await startWebhookReceiver();
      const setUp = [
        await call(single.proxy.url, 'POST', '/v1/webhooks', single.apiKey, { name: 'new items', url: receiver.url, events: ['QUEUE_ITEM_NEW'] }),
        await call(single.proxy.url, 'POST', '/v1/queue', single.apiKey, { name: 'everything' }),
      ];
      if (setUp.some((answer) => answer.status !== 201)) throw new Error(`one-node set-up failed: ${JSON.stringify(setUp)}`);
      const load = await storeLoad(single.proxy.url, single.apiKey, { prefix: 'single', requests: REQUESTS, concurrency: CONCURRENCY });
      await single.close();
      await receiver.close();
      single = null;
      console.log(`| 1 node, one PostgreSQL: storing load (same requests, webhook subscribed) | ${rate(load)} req/s, ${latency(load)}; statuses ${JSON.stringify(Object.fromEntries(load.statuses))} |`);
    }
  } finally {
    await scenario?.close();
    await single?.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
