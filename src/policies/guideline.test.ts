import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeOpenAI, type FakeOpenAI } from '../../test/support/fake-openai.ts';
import type { FieldResult, PolicyContext } from '../core/policy.ts';
import { createGuidelinePolicy, evaluateGuideline, parseVerdict, rescoreBorderline, type ModelBackendConfig } from './guideline.ts';

let fake: FakeOpenAI;
let backend: ModelBackendConfig;
const local = { allowPrivateOutbound: true };
const noPromotion = { key: 'no_promotion', instructions: 'No promotion of "crypto" or "giveaway" schemes.' };

before(async () => {
  fake = await startFakeOpenAI({ apiKey: 'test-key' });
  backend = { url: fake.url, apiKey: 'test-key', model: 'judge-1', timeoutMs: 2_000, trusted: false };
});

after(() => fake.close());

test('judges a violating and a clean text through the backend', async () => {
  fake.behaviour.rawContent = undefined;
  const violating = await evaluateGuideline(backend, noPromotion, 'Join my Crypto club today!', undefined, local);
  assert.equal(violating.probability, 0.92);
  assert.match(violating.reason!, /crypto/);
  const clean = await evaluateGuideline(backend, noPromotion, 'Lovely weather today.', undefined, local);
  assert.equal(clean.probability, 0.04);
});

test('sends a strict JSON chat-completions request', async () => {
  fake.requests.length = 0;
  await evaluateGuideline(backend, noPromotion, 'hello', undefined, local);
  const [request] = fake.requests;
  const body = request!.body as { model: string; temperature: number; response_format: unknown; messages: Array<{ role: string; content: string }> };
  assert.equal(request!.headers.authorization, 'Bearer test-key');
  assert.equal(body.model, 'judge-1');
  assert.equal(body.temperature, 0);
  assert.deepEqual(body.response_format, { type: 'json_object' });
  assert.deepEqual(body.messages.map((message) => message.role), ['system', 'user']);
  assert.ok(body.messages[0]!.content.includes(noPromotion.instructions));
  assert.equal(body.messages[1]!.content, 'hello');
});

test('without a backend the guideline is not evaluated', async () => {
  await assert.rejects(
    evaluateGuideline(null, noPromotion, 'anything'),
    new Error('No model backend configured (set MODEL_BACKEND_URL) — guideline "no_promotion" was not evaluated'),
  );
});

test('a private backend is refused unless allowed or trusted', async () => {
  await assert.rejects(evaluateGuideline(backend, noPromotion, 'x'), /bad_scheme|blocked_address/);
  const trusted = await evaluateGuideline({ ...backend, trusted: true }, noPromotion, 'a giveaway!');
  assert.equal(trusted.probability, 0.92);
});

test('backend failures become clear errors', async () => {
  try {
    fake.behaviour.failWithStatus = 503;
    await assert.rejects(evaluateGuideline(backend, noPromotion, 'x', undefined, local), /Guideline "no_promotion" could not be evaluated.*http_error: HTTP 503/);
  } finally {
    fake.behaviour.failWithStatus = undefined;
  }
  await assert.rejects(evaluateGuideline({ ...backend, apiKey: 'wrong' }, noPromotion, 'x', undefined, local), /HTTP 401/);
  try {
    fake.behaviour.delayMs = 500;
    await assert.rejects(evaluateGuideline({ ...backend, timeoutMs: 50 }, noPromotion, 'x', undefined, local), /timeout/);
  } finally {
    fake.behaviour.delayMs = undefined;
  }
  try {
    fake.behaviour.rawContent = 'I think it is fine.';
    await assert.rejects(evaluateGuideline(backend, noPromotion, 'x', undefined, local), /did not answer with JSON/);
  } finally {
    fake.behaviour.rawContent = undefined;
  }
});

test('an aborted request signal stops the call', async () => {
  const controller = new AbortController();
  try {
    fake.behaviour.delayMs = 1_000;
    const pending = evaluateGuideline(backend, noPromotion, 'x', controller.signal, local);
    setTimeout(() => controller.abort(), 20);
    await assert.rejects(pending, /aborted/);
  } finally {
    fake.behaviour.delayMs = undefined;
  }
});

test('verdict parsing is defensive', () => {
  const completion = (content: unknown) => ({ choices: [{ message: { content } }] });
  assert.deepEqual(parseVerdict(completion('```json\n{"violates": true, "probability": 0.8, "reason": "r"}\n```')), { probability: 0.8, reason: 'r' });
  assert.deepEqual(parseVerdict(completion('{"violates": "false"}')), { probability: 0 });
  assert.deepEqual(parseVerdict(completion('{"violates": true}')), { probability: 1 });
  assert.deepEqual(parseVerdict(completion('{"probability": 85}')), { probability: 0.85 });
  assert.deepEqual(parseVerdict(completion('{"probability": 7, "violates": false}')), { probability: 0.07 });
  assert.deepEqual(parseVerdict(completion('{"probability": -3}')), { probability: 0 });
  assert.throws(() => parseVerdict(completion('{"reason": "?"}')), /neither/);
  assert.throws(() => parseVerdict(completion('{not json}')), /malformed/);
  assert.throws(() => parseVerdict({ choices: [] }), /no message content/);
  assert.throws(() => parseVerdict(null), /no message content/);
});

test('the guideline policy reads the SDK override settings', async () => {
  const policy = createGuidelinePolicy(backend, true);
  const ctx: PolicyContext = { fieldKey: null, original: '', analyses: new Map() };
  const settings = { id: 'guideline', flag: true, guidelineKey: 'no_promotion', instructions: noPromotion.instructions };
  const result = (await policy.evaluate('free GIVEAWAY', settings, ctx)) as FieldResult;
  assert.equal(result.probability, 0.92);
  assert.match(String(result.data?.reason), /giveaway/);
  await assert.rejects(async () => createGuidelinePolicy(null, true).evaluate('x', settings, ctx), /No model backend configured/);
});

test('borderline re-scoring only calls the backend inside the band', async () => {
  fake.requests.length = 0;
  const request = { policyId: 'spam', description: 'Unsolicited "crypto" promotion.', band: { low: 0.4, high: 0.6 } };
  const outside = await rescoreBorderline(backend, { ...request, probability: 0.9 }, 'buy crypto', undefined, local);
  assert.deepEqual(outside, { probability: 0.9, rescored: false });
  assert.equal(fake.requests.length, 0);
  const inside = await rescoreBorderline(backend, { ...request, probability: 0.5 }, 'buy crypto', undefined, local);
  assert.equal(inside.rescored, true);
  assert.equal(inside.probability, 0.92);
  const clean = await rescoreBorderline(backend, { ...request, probability: 0.55 }, 'nice cat', undefined, local);
  assert.equal(clean.probability, 0.04);
  try {
    fake.behaviour.failWithStatus = 500;
    const failed = await rescoreBorderline(backend, { ...request, probability: 0.5 }, 'buy crypto', undefined, local);
    assert.equal(failed.probability, 0.5);
    assert.equal(failed.rescored, false);
    assert.match(failed.error!, /http_error/);
  } finally {
    fake.behaviour.failWithStatus = undefined;
  }
  assert.deepEqual(await rescoreBorderline(null, { ...request, probability: 0.5 }, 'x'), { probability: 0.5, rescored: false });
});
