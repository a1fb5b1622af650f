import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startTestServer, type TestServer } from './helpers.ts';

// Lone symbols, emoji and one-word replies that no training line shares (training/probes/short.txt). Round 5's models
// (issue #27) flagged 10 of the 48 on the default channel ("🙂👍" as severe toxicity and violence, "ta" as toxicity);
// round 7's flag 3 (a slight smile beside another emoji, which threats in the corpus end with, and "ta"); after benign
// messages with smileys were written and the hashed n-grams of very short texts were scaled as if they had 16, round
// 8's models flagged 1 ("🔥👏" as violence) and round 9's none. The bound keeps that from growing back.
const MOST_FLAGGED = 1;
const probe = readFileSync(new URL('../training/probes/short.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() && !line.startsWith('#'));

describe('short everyday messages on the default channel', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  test(`at most ${MOST_FLAGGED} are flagged or held for review`, async () => {
    assert.ok(probe.length >= 40);
    const flagged: string[] = [];
    for (const text of probe) {
      const r = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text }, doNotStore: true } });
      assert.equal(r.status, 200, text);
      if (r.body.evaluation.flagged || r.body.recommendation.action !== 'allow') {
        const policies = (r.body.policies as Array<{ id: string; flagged: boolean }>).filter((p) => p.flagged).map((p) => p.id);
        flagged.push(`${JSON.stringify(text)}: ${policies.join(', ')}`);
      }
    }
    assert.ok(flagged.length <= MOST_FLAGGED, `${flagged.length} flagged:\n${flagged.join('\n')}`);
  });
});
