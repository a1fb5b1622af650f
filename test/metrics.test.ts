import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';

const DOCUMENTED_SERIES = [
  'om_http_requests_total',
  'om_http_request_duration_seconds_bucket',
  'om_moderation_verdicts_total',
  'om_moderation_policy_flags_total',
  'om_group_commit_batch_size_bucket',
  'om_group_commit_wait_seconds_bucket',
  'om_group_commit_queued_writes',
  'om_store_connections',
  'om_outbox_pending_events',
  'om_outbox_lag_seconds',
  'om_queue_backlog_items',
  'om_process_cpu_seconds_total',
];

/** The value of one sample line, e.g. sample(text, 'om_moderation_verdicts_total{action="reject"}'). */
const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('GET /metrics', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  test('a loopback scrape shows the documented series, counting what the server did', async () => {
    const queue = await t.request('POST', '/v1/queue', { body: { name: 'everything flagged' } });
    assert.ok(queue.status < 300, JSON.stringify(queue.body));
    const texts = ['Have a nice day', 'What the fuck is wrong with you, you worthless idiot', 'See you tomorrow'];
    for (const text of texts) assert.equal((await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text } } })).status, 200);
    assert.equal((await t.request('GET', '/v1/authors/nobody')).status, 404);

    const scraped = await t.request('GET', '/metrics', { key: null });
    assert.equal(scraped.status, 200);
    assert.match(scraped.headers.get('content-type') ?? '', /^text\/plain/);
    const text = scraped.body as string;
    for (const series of DOCUMENTED_SERIES) assert.ok(text.includes(`\n${series}`), `missing ${series}`);
    assert.equal(sample(text, 'om_http_requests_total{route="/v1/moderate",method="POST",status="200"}'), 3);
    assert.equal(sample(text, 'om_http_requests_total{route="/v1/authors/:id",method="GET",status="404"}'), 1);
    const verdicts = ['allow', 'review', 'reject'].reduce((n, action) => n + (sample(text, `om_moderation_verdicts_total{action="${action}"}`) ?? 0), 0);
    assert.equal(verdicts, 3);
    assert.ok((sample(text, 'om_moderation_policy_flags_total{policy="profanity"}') ?? 0) >= 1, 'the profane message flags profanity');
    assert.equal(sample(text, 'om_group_commit_batch_size_count'), 3);
    assert.ok(text.includes(`om_queue_backlog_items{project_id="${t.projectId}",queue_id="${queue.body.queue.id}"}`), 'the queue backlog is reported');
  });
});

describe('GET /metrics: queue backlogs from the background counts', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ QUEUE_COUNT_INTERVAL_MS: '3600000' });
  });
  after(() => t.close());

  test('a queue the job has counted is reported from its count, without counting its items again', async () => {
    const queue = await t.request('POST', '/v1/queue', { body: { name: 'counted in the background' } });
    assert.ok(queue.status < 300, JSON.stringify(queue.body));
    const id = queue.body.queue.id as string;
    const counted = async () => (await t.server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM queue_open_counts WHERE queue_id = $1 AND open_count IS NOT NULL', [id])).rows[0]!.n;
    for (let i = 0; i < 100 && (await counted()) === 0; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(await counted(), 1, 'the new queue was counted at once');
    // A figure no count of the (empty) queue could give shows which one the scrape read.
    await t.server.db.query('UPDATE queue_open_counts SET open_count = 4242 WHERE queue_id = $1', [id]);
    const scraped = await t.request('GET', '/metrics', { key: null });
    assert.equal(sample(scraped.body as string, `om_queue_backlog_items{project_id="${t.projectId}",queue_id="${id}"}`), 4242);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestServer;
  const token = 'scrape-token-0123456789';
  before(async () => {
    t = await startTestServer({ METRICS_TOKEN: token });
  });
  after(() => t.close());

  test('answers only a request carrying the token, even from loopback', async () => {
    const without = await t.request('GET', '/metrics', { key: null });
    assert.equal(without.status, 401);
    assert.equal(without.body.code, 'UNAUTHORIZED');
    assert.equal((await t.request('GET', '/metrics', { key: 'wrong-token-0123456789' })).status, 401);
    // An API key is not the metrics token.
    assert.equal((await t.request('GET', '/metrics')).status, 401);
    const withToken = await t.request('GET', '/metrics', { key: token });
    assert.equal(withToken.status, 200);
    assert.match(withToken.body as string, /om_http_requests_total/);
  });
});
