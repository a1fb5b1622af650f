import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import ModerationAPI from '@moderation-api/sdk';
import { startTestServer, type TestServer, sdkClient } from './helpers.ts';

// NUL is the classic injection and filter-evasion character; a lone surrogate is half of a
// character. Both must reach the Unicode analysis as sent (PostgreSQL cannot store U+0000, so
// only the stored copy has U+FFFD in their place).
const NUL = '\u0000';
const LONE_HIGH = '\ud800';

describe('U+0000 and lone surrogates in moderated text', () => {
  let t: TestServer;
  let client: ModerationAPI;
  before(async () => {
    t = await startTestServer();
    client = sdkClient(t);
    const created = await t.request('POST', '/v1/channels', {
      body: { key: 'detect-only', name: 'detect only', unicodeNormalization: false, policies: [{ id: 'unicode_spoofing', flag: true }] },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
  });
  after(() => t.close());

  const stored = async (contentId: string) =>
    (
      await t.server.db.query<{ content: any; modified: any; result: any }>(
        'SELECT content, modified, result::json AS result FROM content_items WHERE project_id = $1 AND external_id = $2',
        [t.projectId, contentId],
      )
    ).rows[0]!;

  const cases: Array<[string, string, string]> = [
    ['inside a word', `my pass${NUL}word is secret`, 'my password is secret'],
    ['at the start', `${NUL}password is secret`, 'password is secret'],
    ['at the end', `my password${NUL}`, 'my password'],
    ['a lone surrogate inside a word', `my pass${LONE_HIGH}word is secret`, 'my password is secret'],
    ['a lone low surrogate alone', `hello \udc00 there`, 'hello  there'],
  ];

  for (const [where, text, clean] of cases) {
    test(`${where}: flagged illegal, removed from the normalized text, stored with the analysis`, async () => {
      const contentId = `illegal-${where.replaceAll(' ', '-')}`;
      const r = await client.content.submit({ content: { type: 'text', text }, contentId, policies: [{ id: 'unicode_spoofing', flag: true } as any] });
      assert.equal(r.evaluation.unicode_spoofed, true);
      assert.equal(r.evaluation.flagged, true);
      assert.equal(r.content.modified, clean);
      const policy = r.policies.find((p) => p.id === 'unicode_spoofing') as any;
      assert.equal(policy.flagged, true);
      assert.equal(policy.labels.find((l: any) => l.id === 'illegal').flagged, true);
      assert.equal(policy.labels.find((l: any) => l.id === 'mixed_script').flagged, false);

      const row = await stored(contentId);
      // The store cannot hold the character itself: U+FFFD in its place, same length.
      assert.equal(row.content.text, text.toWellFormed().replaceAll(NUL, '\uFFFD'));
      assert.equal(row.content.text.length, text.length);
      assert.equal(row.modified, clean);
      assert.equal(row.result.evaluation.unicode_spoofed, true);
      const findings = row.result.unicode[0].findings as Array<any>;
      assert.ok(findings.some((f) => f.signals.includes('illegal')), JSON.stringify(findings));
      const illegal = findings.find((f) => f.signals.includes('illegal'));
      const highlight = illegal.highlights.find((h: any) => h.signal === 'illegal');
      assert.equal(highlight.end - highlight.start, 1);
      assert.ok(/[\u0000\ud800-\udfff]/.test(text[highlight.start]!), 'the highlight points at the character in the submitted text');
      assert.ok(row.result.policies.find((p: any) => p.id === 'unicode_spoofing').flagged);
      // A re-submission updates the same item.
      const again = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text }, contentId } });
      assert.equal(again.status, 200);
    });
  }

  test('raw JSON escapes in the body are seen too (\\u0000 and \\ud800 as sent on the wire)', async () => {
    for (const [escape, id] of [['\\u0000', 'wire-nul'], ['\\ud800', 'wire-surrogate']] as const) {
      const r = await t.request('POST', '/v1/moderate', { rawBody: `{"content":{"type":"text","text":"pass${escape}word"},"contentId":"${id}","channel":"detect-only"}` });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.evaluation.unicode_spoofed, true);
      const policy = r.body.policies.find((p: any) => p.id === 'unicode_spoofing');
      assert.equal(policy.labels.find((l: any) => l.id === 'illegal').flagged, true);
      // This channel does not normalize: nothing rewritten, the analysis still saw it.
      assert.equal(r.body.content.modified, null);
      assert.equal((await stored(id)).content.text, 'pass\uFFFDword');
    }
  });

  test('object content: the field with NUL is flagged and stored repaired', async () => {
    const r = await client.content.submit({
      contentId: 'illegal-object',
      content: { type: 'object', data: { title: { type: 'text', text: `free${NUL}money` }, body: { type: 'text', text: 'hello' } } },
    });
    assert.equal(r.evaluation.unicode_spoofed, true);
    assert.deepEqual(r.content.modified, { title: { type: 'text', text: 'freemoney' }, body: { type: 'text', text: 'hello' } });
    const row = await stored('illegal-object');
    assert.equal(row.content.data.title.text, 'free\uFFFDmoney');
    assert.deepEqual(row.result.unicode.map((u: any) => u.field), ['title']);
  });

  test('doNotStore: analysed, nothing written', async () => {
    const r = await client.content.submit({ content: { type: 'text', text: `x${NUL}y z` }, contentId: 'illegal-not-stored', doNotStore: true });
    assert.equal(r.evaluation.unicode_spoofed, true);
    assert.equal(r.content.modified, 'xy z');
    assert.equal((await t.server.db.query('SELECT 1 FROM content_items WHERE external_id = $1', ['illegal-not-stored'])).rows.length, 0);
  });

  test('U+0000 anywhere else in the body is still a 400 naming its position', async () => {
    const r = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text: 'hi' }, metadata: { note: `a${NUL}b` } } });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body.issues.map((i: any) => i.path), ['/metadata/note']);
  });
});

describe('Restricted Latin lookalikes, Greek prefixes and zalgo stacks through /v1/moderate', () => {
  let t: TestServer;
  let client: ModerationAPI;
  before(async () => {
    t = await startTestServer();
    client = sdkClient(t);
  });
  after(() => t.close());

  const submit = (text: string, contentId: string) =>
    client.content.submit({ content: { type: 'text', text }, contentId, policies: [{ id: 'unicode_spoofing', flag: true } as any] });
  const label = (r: any, id: string) => r.policies.find((p: any) => p.id === 'unicode_spoofing').labels.find((l: any) => l.id === id);
  const storedFindings = async (contentId: string) =>
    (
      await t.server.db.query<{ result: any }>('SELECT result::json AS result FROM content_items WHERE project_id = $1 AND external_id = $2', [t.projectId, contentId])
    ).rows[0]!.result;

  test('IPA ɑ in an ASCII word is a confusable word, cleaned, and stored with the finding', async () => {
    const r = await submit('Verify your p\u0251ypal account', 'ipa-alpha');
    assert.equal(r.evaluation.unicode_spoofed, true);
    assert.equal(label(r, 'confusable_word').flagged, true);
    assert.equal(r.content.modified, 'Verify your paypal account');
    const stored = await storedFindings('ipa-alpha');
    const finding = stored.unicode[0].findings[0];
    assert.equal(finding.word, 'p\u0251ypal');
    assert.deepEqual(finding.signals, ['confusable_word']);
    assert.equal(finding.looksLike, 'paypal');
  });

  test('Greek letters as scientific prefixes: no flag, no change', async () => {
    for (const [i, text] of ['The α-helix and the β-sheet', 'Prescribed a β-blocker', 'γ-rays and α particles', 'Δ9-THC levels'].entries()) {
      const r = await submit(text, `greek-${i}`);
      assert.equal(r.evaluation.unicode_spoofed, false, text);
      assert.equal(r.content.modified, null, text);
      assert.equal(r.evaluation.flagged, false, text);
    }
  });

  test('a zalgo stack with a combining grapheme joiner normalizes to the bare letters', async () => {
    const text = 'he\u0300\u034f\u0301\u0302llo there';
    const r = await submit(text, 'zalgo-cgj');
    assert.equal(label(r, 'zalgo').flagged, true);
    assert.equal(r.content.modified, 'hello there');
    const stored = await storedFindings('zalgo-cgj');
    assert.equal(stored.unicode[0].findings[0].looksLike, 'hello');
    assert.equal(stored.evaluation.unicode_spoofed, true);
  });
});
