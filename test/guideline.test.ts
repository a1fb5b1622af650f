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

describe('borderline built-in scores re-judged by the model backend', () => {
  let fake: FakeOpenAI;
  let t: TestServer;
  type Policy = { id: string; probability: number; flagged: boolean; data?: { rescored?: { original_probability: number; reason?: string } } };
  const find = (policies: Policy[], id: string) => policies.find((p) => p.id === id)!;
  const submit = (text: string, channel: string) => t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text }, channel, doNotStore: true } });
  const setBand = async (channel: string, borderlineRescore: unknown) => {
    const response = await t.request('PUT', `/v1/channels/${channel}`, { body: { borderlineRescore } });
    assert.equal(response.status, 200, JSON.stringify(response.body));
  };
  // The fake flags a text when it contains a double-quoted term of the prompt: here the category id.
  const insult = 'you are a stupid idiot and your toxicity is legendary';

  before(async () => {
    fake = await startFakeOpenAI();
    t = await startTestServer({ MODEL_BACKEND_URL: fake.url, MODEL_BACKEND_TIMEOUT_MS: '500', ALLOW_PRIVATE_OUTBOUND: 'true' });
    for (const key of ['plain', 'second']) {
      const created = await t.request('POST', '/v1/channels', { body: { key, name: key, policies: [{ id: 'toxicity' }, { id: 'spam' }] } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
    }
  });
  after(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.behaviour.failWithStatus = undefined;
  });

  test('a score inside the band is replaced by the backend verdict, with the original kept in data', async () => {
    const builtIn = find((await submit('have a nice day', 'plain')).body.policies, 'toxicity').probability;
    await setBand('second', { low: Math.max(0, builtIn - 0.01), high: Math.min(1, builtIn + 0.01), policies: ['toxicity'] });
    const calls = fake.requests.length;
    const response = await submit('have a nice day', 'second');
    assert.equal(response.status, 200);
    assert.equal(response.body.meta.status, 'success');
    const toxicity = find(response.body.policies, 'toxicity');
    assert.equal(toxicity.probability, 0.04);
    assert.equal(toxicity.data?.rescored?.original_probability, builtIn);
    assert.match(toxicity.data?.rescored?.reason ?? '', /Nothing/);
    assert.equal(find(response.body.policies, 'spam').data, undefined, 'spam is not in the re-scored list');
    assert.equal(fake.requests.length, calls + 1);
    const prompt = (fake.requests.at(-1)!.body as { messages: Array<{ role: string; content: string }> }).messages;
    assert.match(prompt[0]!.content, /"toxicity"/);
    assert.equal(prompt[1]!.content, 'have a nice day');
  });

  test('a raised score flags the policy and the verdict', async () => {
    const builtIn = find((await submit(insult, 'plain')).body.policies, 'toxicity');
    await setBand('second', { low: Math.max(0, builtIn.probability - 0.01), high: Math.min(1, builtIn.probability + 0.01) });
    const response = await submit(insult, 'second');
    const toxicity = find(response.body.policies, 'toxicity');
    assert.equal(toxicity.probability, 0.92);
    assert.equal(toxicity.flagged, true);
    assert.equal(response.body.evaluation.flagged, true);
    assert.equal(response.body.policies[0].id, 'toxicity', 'policies stay sorted by probability');
  });

  test('scores outside the band never reach the backend', async () => {
    const builtIn = find((await submit('have a nice day', 'plain')).body.policies, 'toxicity').probability;
    await setBand('second', { low: Math.min(1, builtIn + 0.05), high: 1, policies: ['toxicity'] });
    const calls = fake.requests.length;
    const response = await submit('have a nice day', 'second');
    assert.equal(find(response.body.policies, 'toxicity').probability, builtIn);
    assert.equal(fake.requests.length, calls);
  });

  test('a failing backend keeps the built-in score and reports an errors entry', async () => {
    fake.behaviour.failWithStatus = 503;
    await setBand('second', { low: 0, high: 1, policies: ['toxicity'] });
    const builtIn = find((await submit('have a nice day', 'plain')).body.policies, 'toxicity').probability;
    const response = await submit('have a nice day', 'second');
    assert.equal(response.status, 200);
    assert.equal(response.body.meta.status, 'partial_success');
    assert.equal(find(response.body.policies, 'toxicity').probability, builtIn);
    assert.equal(response.body.errors.length, 1);
    assert.equal(response.body.errors[0].id, 'toxicity');
    assert.match(response.body.errors[0].message, /could not be re-scored.*built-in score was kept/);
  });

  test('the setting is validated, shown, and turned off with null', async () => {
    const cases: Array<[unknown, string]> = [
      [{ low: 0.6, high: 0.4 }, '/borderlineRescore'],
      [{ low: 0.4, high: 0.6, policies: ['pii'] }, '/borderlineRescore/policies/0'],
      [{ low: -0.1, high: 0.6 }, '/borderlineRescore/low'],
      [{ low: 0.4, high: 0.6, extra: true }, '/borderlineRescore'],
    ];
    for (const [setting, path] of cases) {
      const response = await t.request('PUT', '/v1/channels/second', { body: { borderlineRescore: setting } });
      assert.equal(response.status, 400, JSON.stringify(setting));
      assert.ok(
        response.body.issues.some((i: { path?: string }) => i.path?.startsWith(path)),
        `${JSON.stringify(setting)} → ${JSON.stringify(response.body.issues)}`,
      );
    }
    await setBand('second', { low: 0.4, high: 0.6, policies: ['hate'] });
    assert.deepEqual((await t.request('GET', '/v1/channels/second')).body.borderlineRescore, { low: 0.4, high: 0.6, policies: ['hate'] });
    await setBand('second', null);
    assert.equal((await t.request('GET', '/v1/channels/second')).body.borderlineRescore, null);
    assert.equal((await t.request('GET', '/v1/channels/plain')).body.borderlineRescore, null);
  });
});

describe('borderline re-scoring without a model backend', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  test('is reported in errors, never a silent pass', async () => {
    const created = await t.request('POST', '/v1/channels', {
      body: { key: 'second', name: 'second', policies: [{ id: 'spam' }], borderlineRescore: { low: 0, high: 1 } },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const response = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text: 'hello' }, channel: 'second', doNotStore: true } });
    assert.equal(response.status, 200);
    assert.equal(response.body.meta.status, 'partial_success');
    assert.equal(response.body.errors[0].id, 'spam');
    assert.match(response.body.errors[0].message, /no model backend configured/);
  });
});

describe('the model backend as the accurate path (channel presets, issue #27)', () => {
  let fake: FakeOpenAI;
  let t: TestServer;
  type Policy = { id: string; probability: number; flagged: boolean; data?: { rescored?: { original_probability: number } } };
  const CLASSIFIERS = ['toxicity', 'hate', 'violence', 'self_harm'];
  const italian = "Ti ammazzo stasera, non hai scampo: questo è solo l'inizio e lo sai anche tu";
  const spanish = 'Te voy a buscar esta noche y no vas a tener donde esconderte, te lo juro';
  const english = 'see you at the match tomorrow, bring the snacks please';
  const submit = (text: string, channel: string) => t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text }, channel, doNotStore: true } });
  const promptsSince = (count: number) =>
    fake.requests.slice(count).map((r) => ({
      system: (r.body as { messages: Array<{ content: string }> }).messages[0]!.content,
      user: (r.body as { messages: Array<{ content: string }> }).messages[1]!.content,
    }));

  before(async () => {
    fake = await startFakeOpenAI();
    t = await startTestServer({ MODEL_BACKEND_URL: fake.url, MODEL_BACKEND_TIMEOUT_MS: '1000', ALLOW_PRIVATE_OUTBOUND: 'true' });
    const channels: Array<[string, unknown]> = [
      ['plain', null],
      ['every-text', { low: 0, high: 1 }],
      ['outside', { low: 0.99, high: 1, outsideLanguages: true }],
      ['non-english', { low: 0.99, high: 1, nonEnglish: true, outsideLanguages: true }],
    ];
    for (const [key, borderlineRescore] of channels) {
      const created = await t.request('POST', '/v1/channels', { body: { key, name: key, policies: CLASSIFIERS.map((id) => ({ id })), borderlineRescore } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
    }
  });
  after(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.behaviour.failWithStatus = undefined;
  });

  test('text outside the models\' languages is marked in errors, never passed as clean', async () => {
    for (const text of [italian, 'Я тебя найду сегодня вечером, и тебе не поздоровится']) {
      const response = await submit(text, 'plain');
      assert.equal(response.status, 200);
      assert.equal(response.body.meta.status, 'partial_success', text);
      const entry = response.body.errors.find((e: { id: string }) => e.id === 'unsupported_language');
      assert.ok(entry, JSON.stringify(response.body.errors));
      assert.match(entry.message, /en, es, pt, fr, de/);
      assert.match(entry.message, /borderlineRescore\.outsideLanguages/);
    }
    for (const text of [english, spanish]) {
      const response = await submit(text, 'plain');
      assert.equal(response.body.meta.status, 'success', text);
      assert.equal(response.body.errors, undefined);
    }
  });

  test('a channel that asks judges every text by the backend, with each policy\'s definition', async () => {
    const calls = fake.requests.length;
    const response = await submit(english, 'every-text');
    assert.equal(response.status, 200);
    assert.equal(response.body.meta.status, 'success');
    const prompts = promptsSince(calls);
    assert.equal(prompts.length, CLASSIFIERS.length);
    for (const id of CLASSIFIERS) {
      const policy = (response.body.policies as Policy[]).find((p) => p.id === id)!;
      assert.equal(policy.probability, 0.04, id);
      assert.ok(policy.data?.rescored, `${id} was re-judged`);
      const prompt = prompts.find((p) => p.system.includes(`"${id}"`));
      assert.ok(prompt, `a prompt for ${id}`);
      assert.equal(prompt.user, english);
    }
    // The labelling guide's definitions, look-alikes included, reach the backend.
    assert.match(prompts.find((p) => p.system.includes('"violence"'))!.system, /denying a threat/);
    assert.match(prompts.find((p) => p.system.includes('"self_harm"'))!.system, /farewells/);
  });

  test('outsideLanguages sends text outside the models\' languages whatever its score, and then it is judged', async () => {
    const calls = fake.requests.length;
    const response = await submit(italian, 'outside');
    assert.equal(response.body.meta.status, 'success', JSON.stringify(response.body.errors));
    assert.equal(response.body.errors, undefined);
    assert.equal(promptsSince(calls).length, CLASSIFIERS.length);
    for (const policy of response.body.policies as Policy[]) assert.ok(policy.data?.rescored, policy.id);
    // English and Spanish text keeps its built-in scores there (none of them is inside the 0.99–1 band).
    const before = fake.requests.length;
    for (const text of [english, spanish]) assert.equal((await submit(text, 'outside')).body.meta.status, 'success');
    assert.equal(fake.requests.length, before);
  });

  test('nonEnglish also sends Spanish, Portuguese, French and German text, not English', async () => {
    let calls = fake.requests.length;
    const response = await submit(spanish, 'non-english');
    assert.equal(response.body.meta.status, 'success');
    assert.equal(promptsSince(calls).length, CLASSIFIERS.length);
    calls = fake.requests.length;
    await submit(english, 'non-english');
    assert.equal(fake.requests.length, calls);
  });

  test('when the backend fails, the text stays marked as outside and each failure is reported', async () => {
    fake.behaviour.failWithStatus = 503;
    const response = await submit(italian, 'outside');
    assert.equal(response.body.meta.status, 'partial_success');
    const ids = (response.body.errors as Array<{ id: string }>).map((e) => e.id).sort();
    assert.deepEqual(ids, [...CLASSIFIERS, 'unsupported_language'].sort());
  });

  test('the language settings are stored and shown', async () => {
    const shown = (await t.request('GET', '/v1/channels/non-english')).body.borderlineRescore;
    assert.deepEqual(shown, { low: 0.99, high: 1, nonEnglish: true, outsideLanguages: true });
    const bad = await t.request('PUT', '/v1/channels/outside', { body: { borderlineRescore: { low: 0, high: 1, outsideLanguages: 'yes' } } });
    assert.equal(bad.status, 400);
  });
});
