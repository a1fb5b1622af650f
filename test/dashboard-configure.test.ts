import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';
import { signIn, type DashboardClient } from './support/dashboard-client.ts';
import { createUser, setMembership } from '../src/services/dashboard/users.ts';

const SPOOFED = 'Log in to your pаypal account to claim free\u200Bmoney';

describe('dashboard configuration API: channels, playground, queues, wordlists, actions', () => {
  let t: TestServer;
  let admin: DashboardClient;
  let moderator: DashboardClient;
  let developer: DashboardClient;
  const P = () => `/projects/${t.projectId}`;
  const lastConfigEntry = async () => (await admin.call('GET', `${P()}/audit?kind=config&limit=1`)).body.entries[0];

  before(async () => {
    t = await startTestServer();
    admin = await signIn(t, t.admin.email, t.admin.password);
    for (const [email, role] of [['mod@example.test', 'moderator'], ['dev@example.test', 'developer']] as const) {
      const { user } = await createUser(t.server.db, { email, password: `${role} password` });
      await setMembership(t.server.db, user.id, t.projectId, role);
    }
    moderator = await signIn(t, 'mod@example.test', 'moderator password');
    developer = await signIn(t, 'dev@example.test', 'developer password');
  });
  after(() => t.close());

  test('a moderator is refused every configuration route (403) and changes nothing; a developer may configure', async () => {
    const calls: [string, string, unknown?][] = [
      ['GET', `${P()}/channels`],
      ['POST', `${P()}/channels`, { key: 'by-mod', name: 'By mod' }],
      ['PUT', `${P()}/channels/default`, { dryRun: true }],
      ['GET', `${P()}/config/catalog`],
      ['POST', `${P()}/playground`, { content: { type: 'text', text: 'hello' } }],
      ['POST', `${P()}/queues`, { name: 'by mod' }],
      ['POST', `${P()}/queues/preview`, { filter: {} }],
      ['GET', `${P()}/wordlists`],
      ['GET', `${P()}/actions`],
    ];
    for (const [method, path, body] of calls) {
      const r = await moderator.call(method, path, body === undefined ? {} : { body });
      assert.equal(r.status, 403, `${method} ${path}`);
      assert.equal(r.body.code, 'FORBIDDEN');
    }
    const channels = await admin.call('GET', `${P()}/channels`);
    assert.deepEqual(channels.body.channels.map((c: any) => c.key), ['default']);
    assert.equal(channels.body.channels[0].dryRun, false);
    assert.equal((await developer.call('GET', `${P()}/channels`)).status, 200);
  });

  test('the catalog lists the labels each policy can return, classifiers included', async () => {
    const catalog = (await developer.call('GET', `${P()}/config/catalog`)).body;
    const labelsOf = (id: string) => catalog.policies.find((p: any) => p.id === id).labels;
    assert.ok(labelsOf('unicode_spoofing').includes('zalgo'));
    assert.ok(labelsOf('hate').includes('threat') && labelsOf('hate').includes('race'));
    assert.deepEqual(labelsOf('violence'), ['threat', 'graphic']);
    assert.ok(labelsOf('personal_information').includes('credit_card'));
    assert.deepEqual(labelsOf('toxicity'), []);
  });

  test('the catalog describes every rule condition; a rule filled from the catalog alone is accepted, a value outside its sets refused', async () => {
    const catalog = (await developer.call('GET', `${P()}/config/catalog`)).body;
    assert.deepEqual(
      catalog.ruleConditions.map((f: any) => f.key),
      ['policies', 'labels', 'trustLevel', 'authorStatus', 'riskLevel', 'languages', 'metaTypes', 'contentTypes'],
    );
    assert.deepEqual(catalog.trustLevels.map((l: any) => l.level), [-1, 0, 1, 2, 3, 4]);
    assert.equal(catalog.trustLevels[0].name, 'Untrusted');
    // One value per condition, chosen the way the form chooses them: from the catalog's lists only.
    const policy = catalog.policies.find((p: any) => p.labels.length > 0);
    const fill = (prop: any) =>
      prop.kind === 'boolean' ? true : prop.kind === 'number' ? prop.max : prop.choicesFrom === 'policy' ? policy.id : prop.choicesFrom === 'label' ? policy.labels[0] : 'x';
    const when: Record<string, unknown> = {};
    for (const f of catalog.ruleConditions) {
      if (f.kind === 'entries') when[f.key] = [Object.fromEntries(f.properties.map((p: any) => [p.key, fill(p)]))];
      else if (f.kind === 'range') when[f.key] = { min: f.min, max: f.max };
      else if (f.kind === 'choices') when[f.key] = [f.values.at(-1)];
      else if (f.kind === 'names') when[f.key] = ['en'];
      else assert.fail(`unknown kind ${f.kind}`);
    }
    const saved = await developer.call('PUT', `${P()}/channels/default`, { body: { rules: [{ name: 'everything', when, action: 'review' }] } });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.deepEqual(saved.body.channel.rules[0].when, when);
    const contentTypes = catalog.ruleConditions.find((f: any) => f.key === 'contentTypes');
    assert.ok(contentTypes.values.includes('object') && contentTypes.values.includes('image'));
    const refused = await developer.call('PUT', `${P()}/channels/default`, { body: { rules: [{ when: { authorStatus: ['banned'] }, action: 'reject' }] } });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.issues[0].path, '/rules/0/when/authorStatus/0');
    // The form offers known meta and content types and whole trust levels, but the API keeps accepting what it
    // accepted before those sets were listed: the channel schema is also the response schema, so a narrower one
    // would make channels stored with such rules unreadable.
    const older = { metaTypes: ['tweet'], contentTypes: ['article'], trustLevel: { max: 1.5 } };
    const stored = await developer.call('PUT', `${P()}/channels/default`, { body: { rules: [{ when: older, action: 'reject' }] } });
    assert.equal(stored.status, 200, JSON.stringify(stored.body));
    const read = await developer.call('GET', `${P()}/channels/default`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.channel.rules[0].when, older);
    const listed = await t.request('GET', '/v1/channels');
    assert.equal(listed.status, 200);
    assert.equal((await developer.call('PUT', `${P()}/channels/default`, { body: { rules: [] } })).status, 200);
  });

  test('bad channel input: 400 {code, message, issues} from the /v1 schemas and services, and nothing changes', async () => {
    const before = (await admin.call('GET', `${P()}/channels/default`)).body.channel;
    const cases: unknown[] = [
      { triage: { review: 0.9, reject: 0.5 } },
      { policies: [{ id: 'no_such_policy' }] },
      { policies: [{ id: 'unicode_spoofing', flag: true, mode: 'loud' }] },
      { policies: [{ id: 'unicode_spoofing', flag: true, signals: { zalgoo: false } }] },
      { dryRun: 'yes' },
      { unknownField: 1 },
    ];
    for (const body of cases) {
      const r = await admin.call('PUT', `${P()}/channels/default`, { body });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(typeof r.body.code, 'string');
      assert.equal(typeof r.body.message, 'string');
      assert.ok(Array.isArray(r.body.issues) && r.body.issues.length > 0, JSON.stringify(r.body));
    }
    const v1 = await t.request('PUT', '/v1/channels/default', { body: { triage: { review: 0.9, reject: 0.5 } } });
    assert.equal(v1.status, 400);
    const dashboard = await admin.call('PUT', `${P()}/channels/default`, { body: { triage: { review: 0.9, reject: 0.5 } } });
    assert.deepEqual(dashboard.body.issues, v1.body.issues, 'the same validation as /v1');
    assert.deepEqual((await admin.call('GET', `${P()}/channels/default`)).body.channel, before);
    const dup = await admin.call('POST', `${P()}/channels`, { body: { key: 'default', name: 'Again' } });
    assert.equal(dup.status, 409);
  });

  test('Unicode spoofing to Shadow flag with one signal off: the audit diff says so, and the playground run shows the effect', async () => {
    const run = async () => {
      const r = await admin.call('POST', `${P()}/playground`, { body: { content: { type: 'text', text: SPOOFED } } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body;
    };
    const flagged = await run();
    const policy = flagged.result.policies.find((p: any) => p.id === 'unicode_spoofing');
    assert.equal(policy.flagged, true);
    assert.equal(policy.labels.find((l: any) => l.id === 'invisible').flagged, true);
    assert.ok(flagged.review.unicode[0].findings.length >= 2, 'findings for the stored-item view');
    assert.equal(typeof flagged.thresholds.unicode_spoofing, 'number');
    assert.equal(flagged.result.content.modified, 'Log in to your paypal account to claim freemoney');

    const channel = (await admin.call('GET', `${P()}/channels/default`)).body.channel;
    const policies = channel.policies.map((p: any) => (p.id === 'unicode_spoofing' ? { ...p, mode: 'shadow', signals: { ...p.signals, invisible: false } } : p));
    const saved = await admin.call('PUT', `${P()}/channels/default`, { body: { policies } });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const index = channel.policies.findIndex((p: any) => p.id === 'unicode_spoofing');
    assert.deepEqual(saved.body.changes, [
      { path: `/policies/${index}/mode`, after: 'shadow' },
      { path: `/policies/${index}/signals`, after: { invisible: false } },
    ]);
    const entry = await lastConfigEntry();
    assert.equal(entry.value, 'channel default: updated');
    assert.equal(entry.actor.email, t.admin.email);
    assert.deepEqual(entry.diff, saved.body.changes);

    const shadow = await run();
    const after = shadow.result.policies.find((p: any) => p.id === 'unicode_spoofing');
    assert.equal(after.flagged, false, 'shadow mode observes without flagging');
    assert.equal(after.probability, 1);
    const invisible = after.labels.find((l: any) => l.id === 'invisible');
    assert.deepEqual([invisible.probability, invisible.flagged], [1, false], 'detected but turned off');
    assert.deepEqual(shadow.review.shadowFlagged, ['unicode_spoofing']);
    const { rows } = await t.server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM content_items WHERE project_id = $1', [t.projectId]);
    assert.equal(rows[0]!.n, 0, 'the playground stores nothing');
  });

  test('playground with an author: a blocked author shapes the verdict; an unknown one is not created', async () => {
    assert.equal((await t.request('POST', '/v1/authors', { body: { external_id: 'pg-blocked' } })).status, 200);
    const blocked = await t.request('POST', '/v1/actions/execute', { body: { actionKey: 'AUTHOR_BLOCK', authorIds: ['pg-blocked'], value: 'spam' } });
    assert.equal(blocked.status, 200, JSON.stringify(blocked.body));
    const run = await admin.call('POST', `${P()}/playground`, { body: { content: { type: 'text', text: 'hello there' }, authorId: 'pg-blocked', metaType: 'comment' } });
    assert.equal(run.status, 200);
    assert.equal(run.body.result.author.status, 'blocked');
    assert.ok(run.body.result.recommendation.reason_codes.includes('author_block'), JSON.stringify(run.body.result.recommendation));
    const unknown = await admin.call('POST', `${P()}/playground`, { body: { content: { type: 'text', text: 'hello' }, authorId: 'pg-nobody' } });
    assert.equal(unknown.status, 200);
    assert.equal((await t.request('GET', '/v1/authors/pg-nobody')).status, 404);
  });

  test('any built-in policy can run in shadow mode: it scores, shadow-flags, never flags', async () => {
    const created = await admin.call('POST', `${P()}/channels`, { body: { key: 'shadowed', name: 'Shadowed', policies: [{ id: 'toxicity', mode: 'shadow' }] } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const run = await admin.call('POST', `${P()}/playground`, { body: { channel: 'shadowed', content: { type: 'text', text: 'you are a stupid idiot and I hate you' } } });
    const toxicity = run.body.result.policies.find((p: any) => p.id === 'toxicity');
    assert.ok(toxicity.probability >= run.body.thresholds.toxicity, JSON.stringify(run.body));
    assert.equal(toxicity.flagged, false);
    assert.equal(run.body.result.evaluation.flagged, false);
    assert.deepEqual(run.body.review.shadowFlagged, ['toxicity']);
    const bad = await admin.call('PUT', `${P()}/channels/shadowed`, { body: { policies: [{ id: 'toxicity', mode: 'quiet' }] } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.issues[0].path, '/policies/0/mode');
    assert.equal((await admin.call('DELETE', `${P()}/channels/shadowed`)).status, 200);
  });

  test('channels: create, update, delete, each audited with before/after', async () => {
    const created = await developer.call('POST', `${P()}/channels`, { body: { key: 'comments', name: 'Comments', triage: { preset: 'strict' } } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(created.body.channel.triage, { review: 0.3, reject: 0.7, preset: 'strict' });
    assert.equal((await lastConfigEntry()).value, 'channel comments: created');
    const updated = await developer.call('PUT', `${P()}/channels/comments`, { body: { dryRun: true, rules: [{ name: 'spam to review', when: { policies: [{ id: 'spam', flagged: true }] }, action: 'review' }] } });
    assert.equal(updated.status, 200);
    assert.deepEqual(updated.body.changes.map((c: any) => c.path), ['/dryRun', '/rules/0']);
    const deleted = await developer.call('DELETE', `${P()}/channels/comments`);
    assert.equal(deleted.status, 200);
    const entry = await lastConfigEntry();
    assert.equal(entry.value, 'channel comments: deleted');
    assert.equal(entry.actor.email, 'dev@example.test');
    assert.equal((await developer.call('DELETE', `${P()}/channels/default`)).status, 400);
  });

  test('queue preview counts what the saved queue then lists', async () => {
    const texts = ['you are an idiot', 'what a lovely day', 'shut up you moron', 'see you tomorrow', 'fuck off'];
    for (let i = 0; i < texts.length; i++) {
      const r = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text: texts[i] }, contentId: `pv-${i}`, conversationId: i < 3 ? 'room-a' : 'room-b' } });
      assert.equal(r.status, 200);
    }
    const filter = { conversationIds: ['room-a'], flagged: 'FLAGGED' };
    const preview = await admin.call('POST', `${P()}/queues/preview`, { body: { filter } });
    assert.equal(preview.status, 200);
    const created = await admin.call('POST', `${P()}/queues`, { body: { name: 'Room A flagged', filter } });
    assert.equal(created.status, 201);
    const listed = await t.request('GET', `/v1/queue/${created.body.queue.id}/items?pageSize=100`);
    assert.equal(preview.body.matching, listed.body.items.length);
    assert.equal(preview.body.matching, 2);
    const all = await admin.call('POST', `${P()}/queues/preview`, { body: { filter: {} } });
    assert.equal(all.body.matching, 5);
    const bad = await admin.call('POST', `${P()}/queues/preview`, { body: { filter: { afterDate: 'yesterday' } } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.issues[0].path, '/filter/afterDate');
    const edited = await admin.call('PUT', `${P()}/queues/${created.body.queue.id}`, { body: { filter: { ...filter, recommendationActions: ['reject'] } } });
    assert.equal(edited.status, 200);
    assert.deepEqual((await lastConfigEntry()).diff, [{ path: '/filter/recommendationActions', after: ['reject'] }]);
  });

  test('wordlists: server-side search and paging, bulk add and remove, CSV import and export, channels using a list', async () => {
    const created = await admin.call('POST', `${P()}/wordlists`, { body: { name: 'Scams', key: 'scams', words: ['alpha'] } });
    assert.equal(created.status, 201);
    const words = Array.from({ length: 1200 }, (_, i) => `word${String(i).padStart(4, '0')}`);
    const added = await admin.call('POST', `${P()}/wordlists/scams/words`, { body: { words } });
    assert.equal(added.body.addedCount, 1200);
    const page1 = await admin.call('GET', `${P()}/wordlists/scams/words?contains=WORD01&limit=50`);
    assert.equal(page1.body.matching, 100);
    assert.equal(page1.body.words.length, 50);
    assert.equal(page1.body.totalWords, 1201);
    const page2 = await admin.call('GET', `${P()}/wordlists/scams/words?contains=word01&limit=50&after=${page1.body.nextAfter}`);
    assert.equal(page2.body.words[0], 'word0150');
    assert.equal(page2.body.nextAfter, null);
    const removed = await admin.call('POST', `${P()}/wordlists/scams/words/remove`, { body: { words: ['word0000', 'word0001', 'not-there'] } });
    assert.equal(removed.body.removedCount, 2);
    const entry = await lastConfigEntry();
    assert.equal(entry.value, 'wordlist scams: 2 word(s) removed');

    const imported = await admin.call('POST', `${P()}/wordlists/scams/import`, { body: { csv: 'word\r\n"free, money"\r\ngift card\r\nalpha\r\n' } });
    assert.deepEqual([imported.body.imported, imported.body.addedCount], [3, 2]);
    const exported = await fetch(`${t.url}/dashboard/api${P()}/wordlists/scams/export`, { headers: { cookie: admin.cookie } });
    assert.match(exported.headers.get('content-type') ?? '', /text\/csv/);
    const csv = await exported.text();
    assert.ok(csv.startsWith('word\r\n'));
    assert.ok(csv.includes('"free, money"\r\n'));
    assert.equal(csv.trim().split('\r\n').length, 1 + 1201);
    assert.equal((await admin.call('POST', `${P()}/wordlists/scams/import`, { body: { csv: 'word\n\n' } })).status, 400);

    const channel = (await admin.call('GET', `${P()}/channels/default`)).body.channel;
    await admin.call('PUT', `${P()}/channels/default`, { body: { policies: [...channel.policies, { id: 'wordlist_scams', flag: true }] } });
    const lists = await admin.call('GET', `${P()}/wordlists`);
    const scams = lists.body.wordlists.find((w: any) => w.key === 'scams');
    assert.equal(scams.wordCount, 1201);
    assert.deepEqual(scams.usedBy.map((c: any) => c.key), ['default']);
    assert.ok(!('words' in scams));
    const run = await admin.call('POST', `${P()}/playground`, { body: { content: { type: 'text', text: 'get your free, money and a gift card' } } });
    const wl = run.body.result.policies.find((p: any) => p.id === 'wordlist_scams');
    assert.equal(wl.flagged, true);
    assert.ok(wl.matches.some((m: any) => m.match === 'gift card'));
  });

  test('actions: create with values and webhooks, edit, hide, reorder, delete; every change audited', async () => {
    const created = await admin.call('POST', `${P()}/actions`, {
      body: { name: 'Escalate', key: 'escalate', possibleValues: [{ value: 'legal' }, { value: 'safety' }], valueRequired: true, queueBehaviour: 'REMOVE' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.action.id;
    const hidden = await admin.call('PUT', `${P()}/actions/${id}`, { body: { position: 'HIDDEN' } });
    assert.equal(hidden.body.action.position, 'HIDDEN');
    assert.deepEqual((await lastConfigEntry()).diff, [{ path: '/position', before: 'ALL_QUEUES', after: 'HIDDEN' }]);
    const list = (await admin.call('GET', `${P()}/actions`)).body.actions;
    const order = [id, ...list.filter((a: any) => a.id !== id).map((a: any) => a.id)];
    const reordered = await admin.call('PUT', `${P()}/actions/order`, { body: { order } });
    assert.equal(reordered.status, 200);
    assert.deepEqual(reordered.body.actions.map((a: any) => a.id), order);
    const v1 = await t.request('GET', '/v1/actions');
    assert.equal(v1.body[0].id, id, 'the /v1 list follows the order');
    assert.equal((await admin.call('PUT', `${P()}/actions/order`, { body: { order: [id] } })).status, 400);
    const bad = await admin.call('POST', `${P()}/actions`, { body: { name: 'x', possibleValues: [{ value: 'a' }, { value: 'a' }] } });
    assert.equal(bad.status, 400);
    assert.ok(bad.body.issues.length > 0);
    assert.equal((await admin.call('DELETE', `${P()}/actions/${id}`)).status, 200);
  });
});
