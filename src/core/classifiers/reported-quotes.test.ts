import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withoutReportedQuotes } from './reported-quotes.ts';
import { classifierPolicies, loadModels } from './index.ts';
import type { FieldResult } from '../policy.ts';

test('a quote the text reports is taken out, in the five languages and every kind of quote mark', () => {
  assert.equal(withoutReportedQuotes('My ex texted me "I will find you". Should I call the police?'), 'My ex texted me  … . Should I call the police?');
  assert.equal(withoutReportedQuotes('el vecino me dijo “te vas a arrepentir” y no sé qué hacer'), 'el vecino me dijo  …  y no sé qué hacer');
  assert.equal(withoutReportedQuotes("o ex dela disse 'se te vejo com outro vc morre'. Ela vai fazer B.O."), 'o ex dela disse  … . Ela vai fazer B.O.');
  assert.equal(withoutReportedQuotes("il m'a écrit « je sais où tu habites », je porte plainte"), "il m'a écrit  … , je porte plainte");
  assert.equal(withoutReportedQuotes('Gestern kam dann: „Du wirst es bereuen“, hat er geschrieben'), 'Gestern kam dann:  … , hat er geschrieben');
});

test('a single-quoted span may hold apostrophes, and reports are read in more words (round 38)', () => {
  assert.equal(
    withoutReportedQuotes("someone just messaged me 'I know which bus you take, you'll regret it' should I report it?"),
    'someone just messaged me  …  should I report it?',
  );
  assert.equal(withoutReportedQuotes("ya reporte a ese vato, le tome captura a lo de 'te voy a esperar afuera'"), 'ya reporte a ese vato, le tome captura a lo de  … ');
});

test('a text full of unclosed quote marks is read in bounded time', () => {
  for (const mark of ['«', '“', '„', '"', " '"]) {
    const text = `${mark}x`.repeat(100_000) + ' he said';
    const started = performance.now();
    withoutReportedQuotes(text);
    // Unbounded spans took seconds here (every mark scanned to the end of the text); bounded ones take milliseconds.
    assert.ok(performance.now() - started < 1500, `${JSON.stringify(mark)}: ${(performance.now() - started).toFixed(0)} ms`);
  }
});

test('a text is left as it is without a quote, without a reporting word around it, or with too little around it', () => {
  assert.equal(withoutReportedQuotes('I will find you and you will regret it'), null);
  assert.equal(withoutReportedQuotes('this is "fine", totally "fine" everyone'), null);
  assert.equal(withoutReportedQuotes('he said "you are dead"'), null);
  // Apostrophes inside words are not quote marks.
  assert.equal(withoutReportedQuotes("don't tell me what he said, I can't stand l'homme"), null);
  // Reporting words count only as whole words ("saidly", "blockchain").
  assert.equal(withoutReportedQuotes('the "crypto" blockchain saidly goes up'), null);
});

test('a threat quoted to report it is left alone; a threat made outside the quotes is still flagged', () => {
  loadModels();
  const policy = (id: string) => classifierPolicies.find((p) => p.id === id)!;
  const flagged = (id: string, text: string) =>
    (policy(id).evaluate(text, { id, flag: true }, { fieldKey: null, original: text, analyses: new Map() }) as FieldResult).probability >= policy(id).defaultThreshold;
  const reported = [
    'My ex texted me "I will find you and kill you". Should I go to the police?',
    'Mi ex me escribió "te voy a matar si te veo con otro". ¿Lo denuncio?',
    'Mein Ex hat mir geschrieben: „Ich bring dich um“. Soll ich zur Polizei?',
  ];
  const made = ['I will find you and kill you', 'He said "nice game" after the match. I will find you tonight and kill you, I know where you live.'];
  for (const id of ['violence', 'toxicity_severe']) {
    for (const text of reported) assert.equal(flagged(id, text), false, `${id}: ${text}`);
    for (const text of made) assert.equal(flagged(id, text), true, `${id}: ${text}`);
  }
});
