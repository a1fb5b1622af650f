import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';
import { startFakeOpenAI, type FakeOpenAI } from './support/fake-openai.ts';

const noSelling = { id: 'guideline', flag: true, guidelineKey: 'no_selling', instructions: 'No offers to sell items: flag mentions of "for sale" or "dm me for price".' };
const noPolitics = { id: 'guideline', flag: true, guidelineKey: 'no_politics', instructions: 'No talk about "elections".' };

const moderateBody = (text: string, policies: unknown[]) => ({ content: { type: 'text', text }, policies, doNotStore: true });

describe('guidelines judged by an OpenAI-compatible backend', () => {
  let fake: FakeOpenAI;
  let t: TestServer;
  before(async () => {
    fake = await startFakeOpenAI({ apiKey: 'sk-test' });
    t = await startTestServer({
      MODEL_BACKEND_URL: fake.url,
      MODEL_BACKEND_API_KEY: 'sk-test',
      MODEL_BACKEND_MODEL: 'fake-judge',
      MODEL_BACKEND_TIMEOUT_MS: '500',
      ALLOW_PRIVATE_OUTBOUND: 'true',
    });
  });
  after(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.behaviour.delayMs = undefined;
    fake.behaviour.failWithStatus = undefined;
    fake.behaviour.rawContent = undefined;
  });

  test('each guideline is its own classifier policy, id = guidelineKey', async () => {
    const response = await t.request('POST', '/v1/moderate', { body: moderateBody('Bike for sale, barely used', [noSelling, noPolitics]) });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const { policies, evaluation, meta } = response.body;
    assert.equal(meta.status, 'success');
    const selling = policies.find((p: { id: string }) => p.id === 'no_selling');
    const politics = policies.find((p: { id: string }) => p.id === 'no_politics');
    assert.deepEqual({ type: selling.type, probability: selling.probability, flagged: selling.flagged }, { type: 'classifier', probability: 0.92, flagged: true });
    assert.match(selling.data.reason, /for sale/);
    assert.deepEqual({ probability: politics.probability, flagged: politics.flagged }, { probability: 0.04, flagged: false });
    assert.equal(evaluation.flagged, true);

    const sent = fake.requests.at(-1)!;
    assert.equal(sent.headers.authorization, 'Bearer sk-test');
    assert.equal((sent.body as { model: string }).model, 'fake-judge');
  });

  test("a guideline's threshold and flag are honoured", async () => {
    const strict = await t.request('POST', '/v1/moderate', { body: moderateBody('for sale', [{ ...noSelling, threshold: 0.95 }]) });
    assert.equal(strict.body.policies[0].flagged, false);
    const shadow = await t.request('POST', '/v1/moderate', { body: moderateBody('for sale', [{ ...noSelling, flag: false }]) });
    assert.equal(shadow.body.policies[0].probability, 0.92);
    assert.equal(shadow.body.policies[0].flagged, false);
  });

  test('a channel can hold guidelines', async () => {
    const created = await t.request('POST', '/v1/channels', { body: { key: 'market', name: 'Market', policies: [noSelling, { id: 'toxicity' }] } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const response = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text: 'DM me for price' }, channel: 'market', doNotStore: true } });
    const selling = response.body.policies.find((p: { id: string }) => p.id === 'no_selling');
    assert.equal(selling.flagged, true);
  });

  test('invalid guideline entries are a 400', async () => {
    const cases: Array<[Record<string, unknown>[], string]> = [
      [[{ id: 'guideline', instructions: 'x' }], '/policies/0/guidelineKey'],
      [[{ id: 'guideline', guidelineKey: 'k' }], '/policies/0/instructions'],
      [[{ id: 'guideline', guidelineKey: 'toxicity', instructions: 'x' }], '/policies/0/guidelineKey'],
      [[noSelling, { ...noSelling }], '/policies/1/guidelineKey'],
    ];
    for (const [policies, path] of cases) {
      const response = await t.request('POST', '/v1/moderate', { body: moderateBody('hello', policies) });
      assert.equal(response.status, 400, JSON.stringify(policies));
      assert.ok(response.body.issues.some((i: { path: string }) => i.path === path), JSON.stringify(response.body));
    }
  });

  test('backend failure (500) becomes an errors entry; the request still succeeds', async () => {
    fake.behaviour.failWithStatus = 500;
    const response = await t.request('POST', '/v1/moderate', { body: moderateBody('for sale', [noSelling, { id: 'toxicity' }]) });
    assert.equal(response.status, 200);
    assert.equal(response.body.meta.status, 'partial_success');
    assert.equal(response.body.errors.length, 1);
    assert.equal(response.body.errors[0].id, 'no_selling');
    assert.match(response.body.errors[0].message, /could not be evaluated/);
    assert.ok(!response.body.policies.some((p: { id: string }) => p.id === 'no_selling'));
    assert.ok(response.body.policies.some((p: { id: string }) => p.id === 'toxicity'));
  });

  test('a backend slower than its timeout becomes an errors entry', async () => {
    fake.behaviour.delayMs = 2_000;
    const response = await t.request('POST', '/v1/moderate', { body: moderateBody('for sale', [noSelling]) });
    assert.equal(response.status, 200);
    assert.equal(response.body.meta.status, 'partial_success');
    assert.equal(response.body.errors[0].id, 'no_selling');
  });

  test('a garbled verdict becomes an errors entry', async () => {
    fake.behaviour.rawContent = 'I think it is fine';
    const response = await t.request('POST', '/v1/moderate', { body: moderateBody('for sale', [noSelling]) });
    assert.equal(response.status, 200);
    assert.equal(response.body.errors[0].id, 'no_selling');
    assert.match(response.body.errors[0].message, /JSON/);
  });
});

describe('guidelines without a model backend', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  test('are never a silent pass: errors entry and partial_success', async () => {
    const response = await t.request('POST', '/v1/moderate', { body: moderateBody('for sale', [noSelling, { id: 'spam' }]) });
    assert.equal(response.status, 200);
    assert.equal(response.body.meta.status, 'partial_success');
    assert.deepEqual(response.body.errors, [
      { id: 'no_selling', message: 'No model backend configured (set MODEL_BACKEND_URL) — guideline "no_selling" was not evaluated' },
    ]);
    assert.ok(!response.body.policies.some((p: { id: string }) => p.id === 'no_selling'));
  });
});
