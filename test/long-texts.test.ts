import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startTestServer, type TestServer } from './helpers.ts';
import { defaultChannelPolicies } from '../src/policies/registry.ts';

const paragraph =
  'Thanks for the quick delivery, the lamp works fine. Honestly though, you are a worthless idiot and I will find where you live. ' +
  'Call me at +1 415 555 0134 or write to seller@example.com, visit https://example.com/deal. Ｈｅｌｌｏ wоrld with a Cyrillic o. ';
const longText = (n: number) => paragraph.repeat(Math.ceil(n / paragraph.length)).slice(0, n);

/** The answer less what differs between two runs of the same text. */
const comparable = (body: any) => ({ ...body, content: { ...body.content, id: null }, meta: { ...body.meta, timestamp: 0, processing_time: '' } });

describe('long texts are analysed in worker threads', () => {
  let inWorkers: TestServer;
  let onLoop: TestServer;
  before(async () => {
    inWorkers = await startTestServer({ TEXT_WORKERS: '1', TEXT_WORKER_MIN_CHARS: '8000' });
    onLoop = await startTestServer({ TEXT_WORKERS: '0' });
  });
  after(async () => {
    await inWorkers.close();
    await onLoop.close();
  });

  test('the verdict is the same as on the event loop, for text and object content', async () => {
    for (const content of [
      { type: 'text', text: longText(20_000) },
      { type: 'object', data: { title: { type: 'text', text: 'Lamp for sale' }, body: { type: 'text', text: longText(30_000) } } },
    ]) {
      const body = { content, doNotStore: true, policies: [...defaultChannelPolicies(), { id: 'pii' }, { id: 'url' }] };
      const a = await inWorkers.request('POST', '/v1/moderate', { body });
      const b = await onLoop.request('POST', '/v1/moderate', { body });
      assert.equal(a.status, 200, JSON.stringify(a.body));
      assert.equal(b.status, 200);
      assert.deepEqual(comparable(a.body), comparable(b.body));
      assert.equal(a.body.evaluation.flagged, true);
    }
    assert.equal(inWorkers.server.app.deps.textWorkers!.pool.busy(), 0);
  });

  test('while clients send 100,000-character texts, the event loop is never held for the length of one', async () => {
    const body = { content: { type: 'text', text: longText(100_000) }, doNotStore: true };
    /** The longest the event loop (shared by this test and the server) was held while 8 such texts were moderated. */
    const longestHold = async (server: TestServer) => {
      const delay = monitorEventLoopDelay({ resolution: 5 });
      delay.enable();
      const answers = await Promise.all(Array.from({ length: 8 }, () => server.request('POST', '/v1/moderate', { body })));
      delay.disable();
      assert.ok(answers.every((a) => a.status === 200));
      return delay.max / 1e6;
    };
    // Measured side by side, so that the comparison holds on a busy machine; up to three pairs, because other test
    // files running beside this one can stall the loop for as long as the faster featurizer takes on such a text.
    await longestHold(inWorkers);
    const pairs: string[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const withWorkers = await longestHold(inWorkers);
      const onTheLoop = await longestHold(onLoop);
      pairs.push(`${withWorkers.toFixed(1)} ms with workers, ${onTheLoop.toFixed(1)} ms without`);
      if (withWorkers < onTheLoop / 2) return;
    }
    assert.fail(`event loop held for ${pairs.join('; ')}`);
  });
});

describe('under load, short texts are analysed in worker threads too', () => {
  let busy: TestServer;
  let onLoop: TestServer;
  before(async () => {
    busy = await startTestServer({ TEXT_WORKERS: '1', TEXT_WORKER_BUSY_REQUESTS: '1', TEXT_WORKER_BUSY_QUEUE: '1000' });
    onLoop = await startTestServer({ TEXT_WORKERS: '0' });
  });
  after(async () => {
    await busy.close();
    await onLoop.close();
  });

  test('a lone request stays on the event loop; concurrent ones go to the started workers with the same verdicts', async () => {
    const pool = busy.server.app.deps.textWorkers!.pool;
    const texts = Array.from({ length: 24 }, (_, i) => `${paragraph.slice(0, 200)} message ${i}`);
    const body = (text: string) => ({ content: { type: 'text', text }, doNotStore: true, policies: [...defaultChannelPolicies(), { id: 'pii' }] });
    const lone = await busy.request('POST', '/v1/moderate', { body: body(texts[0]!) });
    assert.equal(lone.status, 200);
    assert.equal(pool.ready(), false, 'a lone request does not start the workers');
    // The first burst starts the workers (its requests run on the loop meanwhile); later bursts use them.
    for (let round = 0; round < 50 && !pool.ready(); round++) {
      const answers = await Promise.all(texts.map((text) => busy.request('POST', '/v1/moderate', { body: body(text) })));
      assert.ok(answers.every((a) => a.status === 200));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(pool.ready(), 'the workers started under load');
    // Jobs of the burst that was in flight when the workers became ready may already have gone to them.
    const answeredBefore = pool.answered();
    const inWorkers = await Promise.all(texts.map((text) => busy.request('POST', '/v1/moderate', { body: body(text) })));
    const reference = await Promise.all(texts.map((text) => onLoop.request('POST', '/v1/moderate', { body: body(text) })));
    assert.ok(pool.answered() > answeredBefore, 'a burst went to the workers');
    for (let i = 0; i < texts.length; i++) assert.deepEqual(comparable(inWorkers[i]!.body), comparable(reference[i]!.body), texts[i]);
  });
});
