import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runScenario, startScenario, type RunningScenario, type ScenarioResult } from './support/cluster-scenario.ts';
import { percentile } from './support/cluster.ts';

/**
 * Scale-out, proven: three server processes on one PostgreSQL database behind a round-robin proxy
 * (test/support/cluster.ts) behave as one service. See docs/deployment.md.
 */

const NODES = 3;
const REQUESTS_PER_PHASE = 600;
const CONCURRENCY = 12;
/**
 * Key, channel and wordlist changes reach every node through LISTEN/NOTIFY at once. The caches
 * they drop live 5 s, and every node has just read the old state when the change is made, so a
 * node that was not told would keep showing it for about 5 s: this bound tells the two apart with
 * room for a loaded machine.
 */
const PROPAGATION_BOUND_MS = 2_500;

describe('three nodes on one PostgreSQL behind a round-robin proxy', {
  skip: !process.env.DATABASE_URL && 'needs PostgreSQL (DATABASE_URL): the embedded store is single-process by design (one process holds its data directory), so there is no cluster to test',
}, () => {
  let scenario: RunningScenario | null = null;
  let result: ScenarioResult;

  before(async () => {
    scenario = await startScenario(NODES);
    result = await runScenario(scenario, {
      nodes: NODES,
      requestsPerPhase: REQUESTS_PER_PHASE,
      concurrency: CONCURRENCY,
      log: (line) => process.stdout.write(`# cluster: ${line}\n`),
    });
    const r = result;
    const ms = (values: number[]) => values.map((v) => Math.round(v)).join('/');
    process.stdout.write(
      `# cluster: steady ${r.steady.acknowledged.size} items acknowledged, ${Math.round((r.steady.latenciesMs.length / r.steady.elapsedMs) * 1000)} req/s, ` +
        `p50 ${percentile(r.steady.latenciesMs, 50).toFixed(1)} ms, per node ${r.steady.perNode.join('/')}\n` +
        `# cluster: propagation ms per node: key revoked ${ms(r.keyRevoked.ms)}, key created ${ms(r.keyCreated.ms)}, channel ${ms(r.channelChanged.ms)}, wordlist ${ms(r.wordlistChanged.ms)}\n` +
        `# cluster: kill phase ${r.kill.acknowledged.size}/${r.kill.sent.size} acknowledged (${r.kill.acknowledgedAtKill} before the kill), statuses ${JSON.stringify(Object.fromEntries(r.kill.statuses))}, proxy 502s ${r.kill.proxyFailed}, retried ${r.kill.proxyRetried}\n` +
        `# cluster: webhooks ${r.webhooks.distinctEvents} events, ${r.webhooks.requests} requests, all delivered ${Math.round(r.webhooks.allDeliveredMs)} ms after the load\n`,
    );
  }, { timeout: 1_200_000 });

  after(async () => {
    await scenario?.close();
  });

  test('the nodes, started together, agree on one project (migration and bootstrap under advisory locks)', () => {
    assert.equal(result.projects, 1);
  });

  test('storing load through all three nodes: every acknowledged item stored once, concurrent submissions of one contentId included', () => {
    const { steady, stored } = result;
    assert.deepEqual(Object.fromEntries(steady.statuses), { 200: REQUESTS_PER_PHASE }, 'every request answered 200');
    for (const [i, answered] of steady.perNode.entries()) assert.ok(answered >= REQUESTS_PER_PHASE / NODES - 2, `node ${i} answered ${answered} requests`);
    assert.equal(steady.acknowledged.size, steady.sent.size);
    const steadyRows = [...stored.keys()].filter((id) => id.startsWith('steady-'));
    assert.equal(steadyRows.length, steady.acknowledged.size, 'rows = acknowledged contentIds');
    for (const id of steady.acknowledged) assert.equal(stored.get(id), 1, `${id} stored once`);
  });

  test('an API key revoked through one node is refused by every node at once (LISTEN/NOTIFY)', () => {
    assert.deepEqual(result.keyRevoked.before, ['200', '200', '200'], 'every node had just accepted (and cached) the key');
    for (const ms of result.keyRevoked.ms) assert.ok(ms < PROPAGATION_BOUND_MS, `refused after ${ms} ms`);
  });

  test('a key created elsewhere works on every node at once, although each had just refused it', () => {
    assert.deepEqual(result.keyCreated.before, ['401', '401', '401']);
    for (const ms of result.keyCreated.ms) assert.ok(ms < PROPAGATION_BOUND_MS, `accepted after ${ms} ms`);
  });

  test('a channel changed through one node and a wordlist changed through another are applied by every node at once', () => {
    assert.deepEqual(result.channelChanged.before, ['not flagged', 'not flagged', 'not flagged']);
    for (const ms of result.channelChanged.ms) assert.ok(ms < PROPAGATION_BOUND_MS, `channel change seen after ${ms} ms`);
    assert.deepEqual(result.wordlistChanged.before, ['not flagged', 'not flagged', 'not flagged']);
    for (const ms of result.wordlistChanged.ms) assert.ok(ms < PROPAGATION_BOUND_MS, `wordlist change seen after ${ms} ms`);
  });

  test('a node killed with SIGKILL mid-load loses nothing acknowledged; the other two keep serving', () => {
    const { kill, stored } = result;
    assert.ok(kill.nodeDown, 'the proxy saw the node go');
    assert.ok(kill.acknowledgedAtKill > 0 && kill.acknowledgedAtKill < REQUESTS_PER_PHASE, 'killed mid-load');
    // What was in flight at the kill may fail; everything after it is served by the two others.
    const unanswered = REQUESTS_PER_PHASE - (kill.statuses.get(200) ?? 0);
    assert.ok(unanswered <= CONCURRENCY * 2, `${unanswered} requests not answered 200: ${JSON.stringify(Object.fromEntries(kill.statuses))}`);
    assert.ok(kill.acknowledged.size - kill.acknowledgedAtKill > 0);
    for (const id of kill.acknowledged) assert.equal(stored.get(id), 1, `acknowledged ${id} is stored once`);
    // An item stored though its answer was lost is allowed; one that was never sent is not.
    for (const id of stored.keys()) if (id.startsWith('kill-')) assert.ok(kill.sent.has(id), `${id} was sent`);
    for (const count of stored.values()) assert.equal(count, 1);
  });

  test('each stored item announced by exactly one webhook event id; copies are redeliveries of that id with the same body', () => {
    const { webhooks, stored } = result;
    assert.equal(webhooks.bodiesDiffer, 0);
    for (const id of stored.keys()) assert.equal(webhooks.eventsPerItem.get(id)?.size, 1, `${id}: ${[...(webhooks.eventsPerItem.get(id) ?? [])].join(', ')}`);
    for (const id of webhooks.eventsPerItem.keys()) assert.ok(stored.has(id), `event about ${id}, which is not stored`);
    assert.equal(webhooks.distinctEvents, stored.size);
  });
});
