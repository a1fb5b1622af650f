import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withoutSeriousnessMarkers } from './seriousness.ts';
import { classifierPolicies, loadModels } from './index.ts';
import type { FieldResult } from '../policy.ts';

test('the words saying a threat is meant are taken out, in the five languages', () => {
  assert.equal(withoutSeriousnessMarkers('te voy a matar, no estoy jugando')?.trim(), 'te voy a matar,');
  assert.equal(withoutSeriousnessMarkers('I’m not joking. Stay away from her')?.trim(), '. Stay away from her');
  assert.equal(withoutSeriousnessMarkers("je rigole pas, j'te retrouve")?.trim(), ", j'te retrouve");
  assert.equal(withoutSeriousnessMarkers('não tô brincando, some daqui')?.trim(), ', some daqui');
  assert.equal(withoutSeriousnessMarkers("Ich mein's ernst, hau ab")?.trim(), ', hau ab');
  assert.equal(withoutSeriousnessMarkers('kein Spaß, verschwinde')?.trim(), ', verschwinde');
});

test('a text without a marker is left as it is, and markers count only as whole words', () => {
  assert.equal(withoutSeriousnessMarkers('see you at the game tonight'), null);
  assert.equal(withoutSeriousnessMarkers('unseriously good pizza'), null);
  assert.equal(withoutSeriousnessMarkers('firl and irlanda'), null);
});

test('a threat that says it is meant is flagged; a harmless text with a marker is not', () => {
  loadModels();
  const score = (id: string, text: string) => {
    const policy = classifierPolicies.find((p) => p.id === id)!;
    return (policy.evaluate(text, { id, flag: true }, { fieldKey: null, original: text, analyses: new Map() }) as FieldResult).probability;
  };
  const threshold = (id: string) => classifierPolicies.find((p) => p.id === id)!.defaultThreshold;
  const threat = 'te voy a matar, no estoy jugando';
  for (const id of ['violence', 'toxicity_severe']) assert.ok(score(id, threat) >= threshold(id), `${id}: ${score(id, threat)}`);
  // The commonest markers are everyday words: harmless texts carrying them stay harmless.
  for (const harmless of [
    'No es broma: esta silla me quitó el dolor de espalda',
    'for real this pasta is the best thing I cooked all year',
    'en serio, qué bonito te quedó el jardín',
    'we finally met irl at the con, so much fun',
    'é sério, amei o presente',
  ]) {
    for (const id of ['violence', 'toxicity', 'toxicity_severe']) assert.ok(score(id, harmless) < threshold(id), `${id}: ${harmless}: ${score(id, harmless)}`);
  }
});
