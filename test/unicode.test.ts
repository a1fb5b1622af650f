import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { countRows, startTestServer, type TestServer } from './helpers.ts';

// Disguised words used throughout. Each is built from escapes so the source shows what is inside.
const CYRILLIC_ES = '\u0441'; // с, looks like Latin c
const CYRILLIC_A = '\u0430'; // а, looks like Latin a
const ZERO_WIDTH_SPACE = '\u200B';
const SPOOFED_SWEAR = `what the fu${CYRILLIC_ES}k is this`;
const INVISIBLE_SWEAR = `what the fu${ZERO_WIDTH_SPACE}ck is this`;
const CLEAN_SWEAR = 'what the fuck is this';
const ZALGO_WORD = 'Z\u0336\u0337\u0338\u0339\u033A\u033B\u033C\u033D\u033E\u033Fa\u0340\u0341\u0342\u0343\u0344\u0345\u0346\u0347lgo';
const SPOOFED_PAYPAL = `p${CYRILLIC_A}ypal`;
// An entity matcher reports the exact text it matched, so it shows which text the policies saw.
const SPOOFED_EMAIL = `write to jane@ex${CYRILLIC_A}mple.com today`;
const EMAIL_PROBE = [{ id: 'pii' }, { id: 'unicode_spoofing', flag: true }];

const SIGNALS = ['mixed_script', 'confusable_word', 'invisible', 'zalgo', 'illegal'];

interface Label {
  id: string;
  probability: number;
  flagged: boolean;
}

const policyOf = (body: any, id: string) => (body.policies as Array<any>).find((p) => p.id === id);
const labelOf = (policy: any, id: string): Label => (policy.labels as Label[]).find((l) => l.id === id)!;

describe('Unicode spoofing and normalization through /v1/moderate', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    const channels = [
      { key: 'norm-only', unicodeNormalization: true, policies: [{ id: 'profanity', flag: true }] },
      { key: 'norm-and-policy', unicodeNormalization: true, policies: [{ id: 'profanity', flag: true }, { id: 'unicode_spoofing', flag: true }] },
      { key: 'policy-only', unicodeNormalization: false, policies: [{ id: 'profanity', flag: true }, { id: 'unicode_spoofing', flag: true }] },
      { key: 'neither', unicodeNormalization: false, policies: [{ id: 'profanity', flag: true }] },
    ];
    for (const channel of channels) {
      const created = await t.request('POST', '/v1/channels', { body: { name: channel.key, ...channel } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
    }
  });
  after(() => t.close());

  const moderate = (body: Record<string, unknown>) => t.request('POST', '/v1/moderate', { body });
  const moderateText = (text: string, extra: Record<string, unknown> = {}) => moderate({ content: { type: 'text', text }, doNotStore: true, ...extra });

  describe('the four-way table (normalization setting × policy)', () => {
    test('the profanity word really is caught when written plainly, on every channel', async () => {
      for (const channel of ['norm-only', 'norm-and-policy', 'policy-only', 'neither']) {
        const r = await moderateText(CLEAN_SWEAR, { channel });
        assert.equal(r.status, 200);
        assert.equal(policyOf(r.body, 'profanity').flagged, true, channel);
        assert.equal(r.body.content.modified, null, channel);
      }
    });

    test('on/off: silently normalized, reported, no policy entry, profanity sees the cleaned text', async () => {
      for (const text of [SPOOFED_SWEAR, INVISIBLE_SWEAR]) {
        const r = await moderateText(text, { channel: 'norm-only' });
        assert.equal(r.status, 200);
        assert.equal(r.body.content.modified, CLEAN_SWEAR);
        assert.equal(r.body.content.masked, false);
        assert.equal(r.body.evaluation.unicode_spoofed, true);
        assert.equal(policyOf(r.body, 'unicode_spoofing'), undefined);
        assert.deepEqual(r.body.policies.map((p: any) => p.id), ['profanity']);
        assert.equal(policyOf(r.body, 'profanity').flagged, true);
        assert.equal(r.body.evaluation.flagged, true);
      }
    });

    test('on/off also through a per-request policy list that leaves the Unicode policy out', async () => {
      // The default channel normalizes; the override only picks the policies.
      const r = await moderateText(SPOOFED_SWEAR, { policies: [{ id: 'profanity' }] });
      assert.equal(r.status, 200);
      assert.equal(r.body.content.modified, CLEAN_SWEAR);
      assert.equal(r.body.evaluation.unicode_spoofed, true);
      assert.equal(policyOf(r.body, 'unicode_spoofing'), undefined);
      assert.equal(policyOf(r.body, 'profanity').flagged, true);
    });

    test('on/on: normalized, and the policy flags with probability 1 and its labels', async () => {
      const r = await moderateText(SPOOFED_SWEAR, { channel: 'norm-and-policy' });
      assert.equal(r.status, 200);
      assert.equal(r.body.content.modified, CLEAN_SWEAR);
      assert.equal(r.body.evaluation.unicode_spoofed, true);
      assert.equal(r.body.evaluation.flagged, true);
      assert.equal(policyOf(r.body, 'profanity').flagged, true);
      const unicode = policyOf(r.body, 'unicode_spoofing');
      assert.equal(unicode.type, 'classifier');
      assert.equal(unicode.probability, 1);
      assert.equal(unicode.flagged, true);
      assert.equal(unicode.flagged_fields, undefined, 'plain text carries no flagged_fields');
      assert.deepEqual(unicode.labels.map((l: Label) => l.id), SIGNALS);
      assert.deepEqual(labelOf(unicode, 'mixed_script'), { id: 'mixed_script', probability: 1, flagged: true });
      assert.deepEqual(labelOf(unicode, 'zalgo'), { id: 'zalgo', probability: 0, flagged: false });
      assert.deepEqual(unicode.data.counts, { words_total: 5, words_affected: 1 });
      assert.deepEqual(unicode.data.sample_words, [`fu${CYRILLIC_ES}k`]);
      // Sorted by highest probability: the spoofing policy (1) comes first.
      assert.equal(r.body.policies[0].id, 'unicode_spoofing');
    });

    test('off/on: detected and reported, not rewritten, other policies see the original text', async () => {
      for (const [text, label] of [[SPOOFED_SWEAR, 'mixed_script'], [INVISIBLE_SWEAR, 'invisible']] as const) {
        const r = await moderateText(text, { channel: 'policy-only' });
        assert.equal(r.status, 200);
        assert.equal(r.body.content.modified, null);
        assert.equal(r.body.evaluation.unicode_spoofed, true);
        const unicode = policyOf(r.body, 'unicode_spoofing');
        assert.equal(unicode.probability, 1);
        assert.equal(unicode.flagged, true);
        assert.equal(labelOf(unicode, label).flagged, true);
      }
      // Without normalization the entity matcher sees the disguised address, not the real one.
      const probe = await moderateText(SPOOFED_EMAIL, { channel: 'policy-only', policies: EMAIL_PROBE });
      assert.equal(probe.body.content.modified, null);
      assert.ok(!policyOf(probe.body, 'pii').matches.some((m: { match: string }) => m.match === 'jane@example.com'));
    });

    test('with normalization on, other policies see the cleaned text', async () => {
      const probe = await moderateText(SPOOFED_EMAIL, { channel: 'norm-and-policy', policies: EMAIL_PROBE });
      assert.equal(probe.body.content.modified, 'write to jane@example.com today');
      assert.deepEqual(policyOf(probe.body, 'pii').matches.map((m: { match: string }) => m.match), ['jane@example.com']);
    });

    test('off/off: no detection, unicode_spoofed omitted, nothing rewritten', async () => {
      const r = await moderateText(SPOOFED_SWEAR, { channel: 'neither' });
      assert.equal(r.status, 200);
      assert.equal(r.body.content.modified, null);
      assert.equal('unicode_spoofed' in r.body.evaluation, false);
      assert.equal(policyOf(r.body, 'unicode_spoofing'), undefined);
    });

    test('a per-request override adding the policy turns off/off into off/on', async () => {
      const r = await moderateText(SPOOFED_SWEAR, { channel: 'neither', policies: [{ id: 'profanity' }, { id: 'unicode_spoofing', flag: true }] });
      assert.equal(r.status, 200);
      assert.equal(r.body.content.modified, null);
      assert.equal(r.body.evaluation.unicode_spoofed, true);
      assert.equal(policyOf(r.body, 'unicode_spoofing').flagged, true);
    });

    test("the policy's own result is the same whether or not the channel normalizes", async () => {
      const text = `${ZALGO_WORD} says p${CYRILLIC_A}y at ${INVISIBLE_SWEAR}`;
      const normalizing = policyOf((await moderateText(text, { channel: 'norm-and-policy' })).body, 'unicode_spoofing');
      const detectingOnly = policyOf((await moderateText(text, { channel: 'policy-only' })).body, 'unicode_spoofing');
      assert.deepEqual(normalizing, detectingOnly);
      assert.equal(labelOf(normalizing, 'zalgo').flagged, true);
      assert.equal(labelOf(normalizing, 'invisible').flagged, true);
    });

    test('normalization rewrites only the disguised word; everything else passes through unchanged', async () => {
      const before = `Привет  ${SPOOFED_PAYPAL}\r\n\tcafe\u0301 \u{1F469}\u200D\u{1F469}\u200D\u{1F467} ok`;
      const r = await moderateText(before, { channel: 'norm-only' });
      // Decomposed é stays decomposed, CRLF, tab, double space, Cyrillic word and emoji ZWJ all stay.
      assert.equal(r.body.content.modified, before.replace(SPOOFED_PAYPAL, 'paypal'));
    });

    test('clean text on a normalizing channel reports unicode_spoofed false', async () => {
      const r = await moderateText('have a lovely day', { channel: 'norm-only' });
      assert.equal(r.body.evaluation.unicode_spoofed, false);
      assert.equal(r.body.content.modified, null);
    });
  });

  test('genuine foreign text and emoji sequences are left alone', async () => {
    const genuine = [
      'Привет, как дела? Увидимся завтра.',
      'Καλημέρα σας, τι κάνετε σήμερα;',
      'コンピューターで日本語を勉強しています。',
      'می\u200Cخواهم به خانه بروم',
      'Our family \u{1F469}\u200D\u{1F469}\u200D\u{1F467} at the beach',
      'I met Владимир in Paris last week',
    ];
    for (const text of genuine) {
      const r = await moderateText(text, { channel: 'norm-and-policy' });
      assert.equal(r.status, 200);
      assert.equal(r.body.content.modified, null, text);
      assert.equal(r.body.evaluation.unicode_spoofed, false, text);
      const unicode = policyOf(r.body, 'unicode_spoofing');
      assert.equal(unicode.flagged, false, text);
      assert.equal(unicode.probability, 0, text);
      assert.ok(unicode.labels.every((l: Label) => l.probability === 0 && !l.flagged), text);
      assert.equal(unicode.data.counts.words_affected, 0, text);
      assert.deepEqual(unicode.data.sample_words, [], text);
    }
  });

  test('shadow mode: probability 1, not flagged, and the evaluation is not flagged by it', async () => {
    const text = `log in to ${SPOOFED_PAYPAL} today`;
    const flagMode = await moderateText(text, { policies: [{ id: 'unicode_spoofing', flag: true, mode: 'flag' }] });
    assert.equal(policyOf(flagMode.body, 'unicode_spoofing').flagged, true);
    assert.equal(flagMode.body.evaluation.flagged, true);

    const r = await moderateText(text, { policies: [{ id: 'unicode_spoofing', flag: true, mode: 'shadow' }] });
    assert.equal(r.status, 200);
    const unicode = policyOf(r.body, 'unicode_spoofing');
    assert.equal(unicode.probability, 1);
    assert.equal(unicode.flagged, false);
    assert.equal(labelOf(unicode, 'mixed_script').probability, 1);
    assert.ok(unicode.labels.every((l: Label) => l.flagged === false));
    assert.equal(r.body.evaluation.flagged, false);
    assert.equal(r.body.evaluation.unicode_spoofed, true);
    assert.ok(r.body.evaluation.severity_score < flagMode.body.evaluation.severity_score);
    assert.notEqual(r.body.recommendation.action, 'reject');
  });

  test('a disabled signal is reported but does not flag; an enabled one still does', async () => {
    const settings = [{ id: 'unicode_spoofing', flag: true, signals: { zalgo: false } }];

    const zalgoOnly = await moderateText(`${ZALGO_WORD} text here`, { policies: settings });
    assert.equal(zalgoOnly.status, 200);
    const quiet = policyOf(zalgoOnly.body, 'unicode_spoofing');
    assert.deepEqual(labelOf(quiet, 'zalgo'), { id: 'zalgo', probability: 1, flagged: false });
    assert.equal(quiet.flagged, false);
    assert.equal(quiet.probability, 0, 'no enabled signal fired');
    assert.equal(zalgoOnly.body.evaluation.flagged, false);
    // Detection and normalization do not depend on the policy's switches.
    assert.equal(zalgoOnly.body.evaluation.unicode_spoofed, true);
    assert.equal(zalgoOnly.body.content.modified, 'Zalgo text here');

    const both = await moderateText(`${ZALGO_WORD} and ${SPOOFED_PAYPAL}`, { policies: settings });
    const loud = policyOf(both.body, 'unicode_spoofing');
    assert.deepEqual(labelOf(loud, 'zalgo'), { id: 'zalgo', probability: 1, flagged: false });
    assert.deepEqual(labelOf(loud, 'mixed_script'), { id: 'mixed_script', probability: 1, flagged: true });
    assert.equal(loud.flagged, true);
    assert.equal(loud.probability, 1);
    assert.equal(both.body.evaluation.flagged, true);
  });

  test('object content: only the spoofed field is flagged, modified is a field map, counts are summed', async () => {
    const title = 'Nice day at the lake';
    const body = `log in at ${SPOOFED_PAYPAL} now`;
    const picture = { type: 'image', url: 'https://example.com/lake.png' };
    const r = await moderate({
      content: { type: 'object', data: { title: { type: 'text', text: title }, body: { type: 'text', text: body }, picture } },
      policies: [{ id: 'unicode_spoofing', flag: true }],
      doNotStore: true,
    });
    assert.equal(r.status, 200);
    const unicode = policyOf(r.body, 'unicode_spoofing');
    assert.equal(unicode.flagged, true);
    assert.deepEqual(unicode.flagged_fields, ['body']);
    assert.deepEqual(r.body.content.modified, {
      title: { type: 'text', text: title },
      body: { type: 'text', text: 'log in at paypal now' },
      picture,
    });
    assert.equal(r.body.evaluation.unicode_spoofed, true);

    // The same fields one by one: the object's counts are their sums.
    const perField = await Promise.all(
      [title, body].map(async (text) => policyOf((await moderateText(text, { policies: [{ id: 'unicode_spoofing' }] })).body, 'unicode_spoofing').data.counts),
    );
    assert.deepEqual(unicode.data.counts, {
      words_total: perField[0].words_total + perField[1].words_total,
      words_affected: perField[0].words_affected + perField[1].words_affected,
    });
    assert.equal(unicode.data.counts.words_affected, 1);
    assert.deepEqual(unicode.data.sample_words, [SPOOFED_PAYPAL]);
  });

  test('object content with nothing disguised has no modified content and no flagged fields', async () => {
    const r = await moderate({
      content: { type: 'object', data: { a: { type: 'text', text: 'hello there' }, b: { type: 'text', text: 'Привет' } } },
      policies: [{ id: 'unicode_spoofing' }],
      doNotStore: true,
    });
    assert.equal(r.body.content.modified, null);
    assert.deepEqual(policyOf(r.body, 'unicode_spoofing').flagged_fields, []);
  });

  test('sample_words stops at 10 while words_affected counts every word', async () => {
    const stems = [SPOOFED_PAYPAL, `b${CYRILLIC_A}nk`, 'l\u043Egin', 'acc\u043Eunt', 'cl\u0456ck', 'fr\u0435e', 'm\u043Eney'];
    const words = Array.from({ length: 14 }, (_, i) => `${stems[i % stems.length]}${String.fromCharCode(97 + i)}`);
    const r = await moderateText(words.join(' '), { policies: [{ id: 'unicode_spoofing' }] });
    const unicode = policyOf(r.body, 'unicode_spoofing');
    assert.equal(unicode.data.counts.words_affected, 14);
    assert.equal(unicode.data.counts.words_total, 14);
    assert.deepEqual(unicode.data.sample_words, words.slice(0, 10));
  });

  test('invalid per-request Unicode settings: 400 with the error body, nothing stored', async () => {
    const before = await countRows(t, 'content_items');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ id: 'unicode_spoofing', flag: true, signals: { homoglyph: false } }, '/policies/0/signals/homoglyph'],
      [{ id: 'unicode_spoofing', flag: true, mode: 'loud' }, '/policies/0/mode'],
      [{ id: 'unicode_spoofing', flag: true, signals: { zalgo: 'off' } }, '/policies/0/signals/zalgo'],
      [{ id: 'unicode_spoofing', flag: true, signals: ['zalgo'] }, '/policies/0/signals'],
    ];
    for (const [settings, path] of cases) {
      const r = await moderate({ content: { type: 'text', text: SPOOFED_SWEAR }, policies: [settings] });
      assert.equal(r.status, 400, JSON.stringify(settings));
      assert.equal(r.body.code, 'BAD_REQUEST');
      assert.equal(typeof r.body.message, 'string');
      assert.ok(Array.isArray(r.body.issues) && r.body.issues.length > 0);
      assert.ok(r.body.issues.some((issue: { path?: string }) => issue.path === path), JSON.stringify(r.body.issues));
    }
    assert.equal(await countRows(t, 'content_items'), before);
  });

  test('invalid Unicode settings on a channel: 400, no channel created', async () => {
    const before = await countRows(t, 'channels');
    const r = await t.request('POST', '/v1/channels', {
      body: { key: 'bad-unicode', name: 'bad', policies: [{ id: 'unicode_spoofing', flag: true, signals: { zalgo: false, homoglyph: true } }] },
    });
    assert.equal(r.status, 400);
    assert.ok(r.body.issues.some((issue: { path?: string }) => issue.path?.endsWith('/signals/homoglyph')), JSON.stringify(r.body.issues));
    assert.equal(await countRows(t, 'channels'), before);
  });

  test('storage keeps the original characters and the per-word findings', async () => {
    const original = `log in at ${SPOOFED_PAYPAL} now and fu${ZERO_WIDTH_SPACE}ck`;
    const r = await moderate({ contentId: 'unicode-stored-1', content: { type: 'text', text: original }, channel: 'norm-and-policy' });
    assert.equal(r.status, 200);
    assert.equal(r.body.content.modified, 'log in at paypal now and fuck');

    const { rows } = await t.server.db.query<{ content: any; modified: any; result: any }>(
      'SELECT content, modified, result::json AS result FROM content_items WHERE project_id = $1 AND external_id = $2',
      [t.projectId, 'unicode-stored-1'],
    );
    assert.equal(rows.length, 1);
    const row = rows[0]!;
    assert.deepEqual(row.content, { type: 'text', text: original });
    assert.equal(row.modified, 'log in at paypal now and fuck');
    assert.equal(row.result.evaluation.unicode_spoofed, true);

    assert.equal(row.result.unicode.length, 1);
    assert.equal(row.result.unicode[0].field, null);
    const findings = row.result.unicode[0].findings as Array<any>;
    assert.equal(findings.length, 2);

    const [lookalike, invisible] = findings;
    assert.equal(lookalike.word, SPOOFED_PAYPAL);
    assert.equal(lookalike.offset, original.indexOf(SPOOFED_PAYPAL));
    assert.deepEqual(lookalike.signals, ['mixed_script']);
    assert.deepEqual([...lookalike.scripts].sort(), ['Cyrillic', 'Latin']);
    assert.equal(lookalike.looksLike, 'paypal');
    assert.deepEqual(lookalike.codePoints, ['U+0070', 'U+0430', 'U+0079', 'U+0070', 'U+0061', 'U+006C']);
    for (const h of lookalike.highlights) {
      assert.equal(original.slice(h.start, h.end), CYRILLIC_A);
      assert.equal(h.signal, 'mixed_script');
    }

    const invisibleWord = `fu${ZERO_WIDTH_SPACE}ck`;
    assert.equal(invisible.word, invisibleWord);
    assert.equal(invisible.offset, original.indexOf(invisibleWord));
    assert.deepEqual(invisible.signals, ['invisible']);
    assert.equal(invisible.looksLike, 'fuck');
    assert.deepEqual(invisible.codePoints, ['U+0066', 'U+0075', 'U+200B', 'U+0063', 'U+006B']);
    assert.equal(invisible.highlights.length, 1);
    const highlight = invisible.highlights[0];
    assert.equal(highlight.signal, 'invisible');
    // The invisible character with one visible neighbour on each side.
    assert.equal(original.slice(highlight.start, highlight.end), `u${ZERO_WIDTH_SPACE}c`);
  });

  test('stored object content keeps each field original and records findings per field', async () => {
    const r = await moderate({
      contentId: 'unicode-stored-2',
      content: { type: 'object', data: { name: { type: 'text', text: 'Anna' }, bio: { type: 'text', text: `I love ${SPOOFED_PAYPAL}` } } },
      channel: 'norm-and-policy',
    });
    assert.equal(r.status, 200);
    const { rows } = await t.server.db.query<{ content: any; result: any }>(
      'SELECT content, result::json AS result FROM content_items WHERE project_id = $1 AND external_id = $2',
      [t.projectId, 'unicode-stored-2'],
    );
    assert.equal(rows[0]!.content.data.bio.text, `I love ${SPOOFED_PAYPAL}`);
    assert.deepEqual(rows[0]!.result.unicode.map((f: any) => f.field), ['bio']);
    assert.equal(rows[0]!.result.unicode[0].findings[0].word, SPOOFED_PAYPAL);
  });
});
