import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifierPolicies, loadModels } from './index.ts';
import type { FieldResult } from '../policy.ts';

// Ordinary sentences whose words a swear-word list can mistake: an abbreviation, a place, a plant, a verb or a noun of
// one of the five languages that is a swear word (or its texting form) in another or in slang. The profanity terms
// added in issue #27's round 6 flagged 22 sentences like these until the third review took those words out.
const ORDINARY = [
  'The FDA approved the new vaccine on Monday.',
  'Careful, you might prick your finger on the rose thorns.',
  'The hookers and props trained together before the match.',
  'Krasnodar Krai is in the south of Russia.',
  'Ich schiesse morgen die Fotos für die Hochzeit.',
  'Der Staat investiert 5 Mrd. Euro in die Bahn.',
  'Das Kruzifix hängt im Klassenzimmer.',
  'Die ALV zahlt ab dem ersten Monat.',
  "J'ai la gueule de bois après la fête.",
  'Mon téléphone est foutu, je dois en racheter un.',
  'La craie crisse sur le tableau.',
  'Il fait la gueule depuis ce matin.',
  "L'énule est une plante médicinale.",
  'Le loup ouvre la gueule.',
  'Espero que te den el trabajo.',
  'El precio de los huevos subió otra vez.',
  '¿Tienes huevos para la receta?',
  'Vale, madre, ya voy.',
  'Trabaja de pinche de cocina en un hotel.',
  'La guerra de Putin de 2022 cambió Europa.',
  'Salimos de joda el sábado.',
  'A porta foi arrombada durante a noite.',
  'A FDA aprovou o medicamento.',
  'A árvore verga com o vento.',
  'Esqueci meu pau de selfie no carro.',
  'O vagabundo dormia na praça.',
];

test('profanity leaves ordinary sentences with swear-word look-alikes alone', () => {
  loadModels();
  const profanity = classifierPolicies.find((p) => p.id === 'profanity')!;
  const flagged = ORDINARY.filter((text) => {
    const result = profanity.evaluate(text, { id: 'profanity', flag: true }, { fieldKey: null, original: text, analyses: new Map() }) as FieldResult;
    return result.probability >= profanity.defaultThreshold;
  });
  assert.deepEqual(flagged, []);
});
