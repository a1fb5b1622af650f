import { test } from 'node:test';
import assert from 'node:assert/strict';
import { excludesProtectedGroup } from './excluding-offers.ts';
import { classifierPolicies, loadModels } from './index.ts';
import type { FieldResult } from '../policy.ts';

test('offers that turn people away for a protected attribute, in the five languages', () => {
  for (const text of [
    'Double room to let near the station, £600 a month. No Pakistanis or Somalis, sorry.',
    'Hiring kitchen porters, cash weekly. Muslims need not apply.',
    'Vacancy: shop assistant. Nobody over 45 please, we are a young brand.',
    'Arriendo pieza amoblada en Maipú, 180 lucas. Nada de venezolanos ni haitianos.',
    'Se busca mesera para bar, inmigrantes abstenerse.',
    'Alugo quarto em Lisboa, 450€. Não aceitamos brasileiros.',
    'Vaga de auxiliar de limpeza, só não aceitamos candidatas acima de 40 anos.',
    'Chambre à louer à Liège, pas de Roms ni de gitans.',
    'Appartement à louer, pas de juives.',
    'On recrute un vendeur, pas de voilées svp.',
    'Nachmieter gesucht für 3-Zimmer-Wohnung in Essen, keine Ausländer.',
    'Stelle als Lagerhelfer frei, nur an Deutsche, keine Flüchtlinge.',
  ]) {
    assert.equal(excludesProtectedGroup(text), true, text);
  }
});

test('honest requirements, discussions of such ads and ordinary texts are not read as excluding', () => {
  for (const text of [
    'Room for rent, non-smokers only, no pets, no parties. Right to work in the UK needed.',
    'Flatshare for women only, two quiet girls looking for a third.',
    'Job: bar staff, 18+ only, must speak English and have a food hygiene certificate.',
    'Piso en alquiler a no más de 30 minutos del centro, sin mascotas.',
    'Todos son bienvenidos, sin importar nacionalidad, religión u orientación. Alquilo cuarto en Quito.',
    'Apartamento para alugar, sem fiador, só pessoas com contrato de trabalho.',
    'Studio à louer à Lyon, pas de vélo dans le couloir, CV uniquement en français pour le poste de gardien.',
    'Zimmer in WG frei, keine Haustiere, nur Nichtraucher.',
    'Is it legal for a landlord to write "no Indians" in a rental ad? I reported it to the council.',
    'Ist es Diskriminierung, wenn ein Vermieter nur an "Deutsche" vermieten will?',
    'No Muslims were hurt in the fire, the imam said.',
    'Muslims, Jews and Christians welcome, this is a room for anyone who keeps it tidy.',
  ]) {
    assert.equal(excludesProtectedGroup(text), false, text);
  }
});

test('a long text without line breaks is read in bounded time', () => {
  for (const filler of ['no de de de ', 'keine mit mit ', 'pas de d ', 'nobody over ']) {
    const text = `Zimmer zu vermieten. ${filler.repeat(20_000)}`;
    const started = performance.now();
    excludesProtectedGroup(text);
    assert.ok(performance.now() - started < 1500, `${JSON.stringify(filler)}: ${(performance.now() - started).toFixed(0)} ms`);
  }
});

test('the hate policy flags an excluding ad and nothing else reads it (round 45)', () => {
  loadModels();
  const policy = (id: string) => classifierPolicies.find((p) => p.id === id)!;
  const score = (id: string, text: string) =>
    (policy(id).evaluate(text, { id, flag: true }, { fieldKey: null, original: text, analyses: new Map() }) as FieldResult).probability;
  const ad = 'Se alquila habitación en Valencia, 350€ con gastos. Nada de marroquíes ni gitanos.';
  assert.ok(score('hate', ad) >= policy('hate').defaultThreshold, `hate ${score('hate', ad)}`);
  const honest = 'Se alquila habitación en Valencia, 350€ con gastos. Nada de mascotas ni fiestas.';
  assert.ok(score('hate', honest) < policy('hate').defaultThreshold, `hate ${score('hate', honest)}`);
  // toxicity_severe reads the hate model, not this policy: the ad is not severe abuse.
  assert.ok(score('toxicity_severe', ad) < policy('toxicity_severe').defaultThreshold, `toxicity_severe ${score('toxicity_severe', ad)}`);
});
