import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateRisk, RISK_SIGNAL_IDS } from './risk.ts';
import { explainRiskSignal } from './risk-explain.ts';

test('every risk signal has its own sentence naming what was seen and its effect', () => {
  const now = Date.UTC(2026, 0, 10, 12);
  const risk = evaluateRisk(
    { firstSeen: now - 3_600_000, email: 'x@mailinator.com', metadata: { email_verified: false }, totalContent: 10, flaggedContent: 5, lastIncident: now - 86_400_000 * 2,
      hourBucket: Math.floor(now / 3_600_000), hourCount: 25, hourNightCount: 0, minuteBucket: Math.floor(now / 60_000), minuteCount: 6, peakMinuteCount: 6,
      nightContent: 0, spoofedContent: 2, linkCount: 8, duplicateContent: 3 },
    now,
    (domain) => domain === 'mailinator.com',
  );
  const sentences = risk.signals.map((s) => explainRiskSignal(s, now));
  assert.equal(new Set(risk.signals.map((s) => s.id)).size, RISK_SIGNAL_IDS.length);
  for (const [i, sentence] of sentences.entries()) {
    assert.ok(!sentence.startsWith(`${risk.signals[i]!.id}:`), `signal ${risk.signals[i]!.id} falls back to the generic sentence`);
    const c = risk.signals[i]!.contribution;
    assert.match(sentence, c > 0 ? new RegExp(`adds ${c} point`) : c < 0 ? /lowers/ : /adds nothing/);
  }
  assert.match(explainRiskSignal({ id: 'flagged_ratio', value: 0.5, contribution: 10 }), /50% of the author's content was flagged — adds 10 points/);
  assert.match(explainRiskSignal({ id: 'disposable_email', value: true, contribution: 20 }), /disposable/);
});
