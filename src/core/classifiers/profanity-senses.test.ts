import { test } from 'node:test';
import assert from 'node:assert/strict';
import { innocentAt, innocentEverywhere, wordAround } from './profanity-senses.ts';
import { classifierPolicies, loadModels } from './index.ts';
import { isDoubleSPluralGuess } from './lexicons.ts';
import { obscenityScore } from '../policies/profanity.ts';
import type { FieldResult } from '../policy.ts';

function at(text: string, word: string): boolean {
  const start = text.indexOf(word);
  assert.ok(start >= 0, `"${word}" is in the sentence`);
  return innocentAt(text, start, start + word.length);
}

// [sentence, listed word]: the word meant innocently, by what stands beside it.
const INNOCENT: Array<[string, string]> = [
  ['Our old cock crows at four every morning, the hens are quieter.', 'cock'],
  ['Loved the old Dick Van Dyke films as a kid.', 'Dick'],
  ['Loved the old Dick Van Dyke films as a kid.', 'Dyke'],
  ['Die Suppe ist viel zu dick geworden.', 'dick'],
  ['We drove from Atlanta to Cumming for the fair.', 'Cumming'],
  ['Wir fahren nach Fucking, das Dorf in Österreich.', 'Fucking'],
  ['Two blue tits at the feeder this morning!', 'tits'],
  ['Ma chatte a eu quatre chatons cette nuit.', 'chatte'],
  ['The door knob came off in my hand.', 'knob'],
  ['Fiquei uma hora na bicha do supermercado.', 'bicha'],
  ['Our bitch whelped six puppies last night.', 'bitch'],
  ['Selling fitted sheets, queen size, never used.', 'sheets'],
  ['Envoi en lettre suivie, fdp 4€ pour la France.', 'fdp'],
  ['Lo tengo en negro y en azul, talla M.', 'negro'],
  ['Se rompió la verga del mástil durante la regata.', 'verga'],
  ['Anoche una zorra se metió en el gallinero.', 'zorra'],
  ['Mi perra tuvo una camada de seis cachorros.', 'perra'],
  ['Le bébé a fait caca dans sa couche.', 'caca'],
  ['Just nipped out for a fag and a coffee.', 'fag'],
  ['Ordered the steak bloody rare, as always.', 'bloody'],
  ['The inquiry into Bloody Sunday reported in 2010.', 'Bloody'],
  ['Wer macht die beste Arschbombe im Freibad?', 'Arschbombe'],
  ['Bitte die Rechnung an Herrn Fick schicken.', 'Fick'],
  ['Wir wohnen jetzt in Pissen bei Halle.', 'Pissen'],
  ['Ce cul-de-sac est toujours bouché.', 'cul'],
  ['Three crows on the bird feeder again, cheeky things.', 'crows'],
  ['our cock crows at four', 'crows'],
  ['Cock pheasant strutting round the garden this morning.', 'Cock'],
  ['Looking for a proven stud for my Labrador bitch, health tested.', 'bitch'],
  ['Unsere Möpse haben bei der Zuchtschau gewonnen 🐶', 'Möpse'],
  ['Großes Lob an Malermeister Fick und sein Team.', 'Fick'],
  ['Add a knob of butter and let the onions sweat.', 'knob'],
  ['Take the chicken breasts off the carcass and keep it for stock.', 'breasts'],
  ['Legs off first, then run the knife along the bone to take the breasts off; keep the carcass for stock.', 'breasts'],
  ['Patient has a small cyst near the anus, referred to surgery.', 'anus'],
  ['Selling a ball peen hammer, barely used.', 'peen'],
  ['Took the kids to Twatt in Orkney for the standing stones.', 'Twatt'],
  ["In Swedish 'slut' just means end, so slutspel is the playoffs.", 'slut'],
  ['No sabe si la hostia de la primera comunión se mastica.', 'hostia'],
  ['En los barcos antiguos la cofa del mástil se llamaba carajo.', 'carajo'],
  ['Depois de abater o veado, tem que eviscerar logo.', 'veado'],
  ['Comprei dois cacetes na padaria para as bifanas.', 'cacetes'],
  ['Bosta de vaca curtida é o melhor adubo para a horta.', 'Bosta'],
  ['Em Madrid comemos porras com chocolate quente.', 'porras'],
  ['Me han diagnosticado una fisura anal, ¿la operación duele?', 'anal'],
  ['En la galería de tiro metí los 10 disparos en el negro 🎯', 'negro'],
];
// Still counted: the rude sense of the same words, and a name that opens a sentence (a capital there proves nothing).
const COUNTED: Array<[string, string]> = [
  ['suck my cock', 'cock'],
  ['Dick Van Dyke is on tonight', 'Dick'],
  ['what a dick move', 'dick'],
  ['Fucking typical.', 'Fucking'],
  ['nice tits', 'tits'],
  ['sai daqui sua bicha', 'bicha'],
  ['shut up bitch', 'bitch'],
  ['fdp va, rends-moi mon argent', 'fdp'],
  ['lárgate, negro de mierda', 'negro'],
  ['what a load of bloody nonsense', 'bloody'],
  ['you absolute fag', 'fag'],
  ['quit being such a fag and smoke your own weed', 'fag'],
  ['sai daqui, o negro safado', 'negro'],
  ['Arschbombe? Du bist einer, der nur labert', 'Arschbombe'],
  ['eres una zorra', 'zorra'],
  ['Halt die Klappe, sonst Fick dich', 'Fick'],
  ['bouge ton cul', 'cul'],
  ['holy sheet that was close', 'sheet'],
  ['go back to where you came from, crows', 'crows'],
  ['stupid bitch, learn to drive', 'bitch'],
  ['schöne Möpse hast du', 'Möpse'],
  ['que hostia le voy a dar', 'hostia'],
  ['vai tomar no cu, seu veado', 'veado'],
  ['que bosta de serviço', 'bosta'],
  ['nice breasts, send more', 'breasts'],
  ['quiero sexo anal contigo', 'anal'],
  // Found by review: words that stand beside the rude sense too are no cues.
  ['her breasts and thighs look amazing, send more', 'breasts'],
  ['hot swedish slut wants to meet you', 'slut'],
  ['naughty nurse anal video, doctor roleplay', 'anal'],
  ['shut up you anus, go see a doctor', 'anus'],
  ['eu mato esse veado', 'veado'],
  ['Diana, no te juntes con ese negro de mierda', 'negro'],
  ['good morning you filthy crows', 'crows'],
  ['suck my cock, you dirty crow', 'crow'],
  ["don't litter, bitch", 'bitch'],
];

test('a listed word is innocent only where what stands beside it says so', () => {
  for (const [text, word] of INNOCENT) assert.equal(at(text, word), true, `${word} in: ${text}`);
  for (const [text, word] of COUNTED) assert.equal(at(text, word), false, `${word} in: ${text}`);
});

test('innocentEverywhere needs every plain occurrence innocent', () => {
  assert.equal(innocentEverywhere('cock', 'The cock woke the whole coop, the hens too.'), true);
  assert.equal(innocentEverywhere('dick', 'Loved Dick Van Dyke in it, but you are a dick.'), false);
  assert.equal(innocentEverywhere('dick', 'Loved Dick Van Dyke in it.'), true);
  assert.equal(innocentEverywhere('fucking', 'This fucking game.'), false);
  assert.equal(innocentEverywhere('bitch', 'the b1tch next door'), false, 'no plain occurrence');
  assert.equal(innocentEverywhere('shit', 'Holy shit, the hens.'), false, 'a word with no innocent sense');
});

test('wordAround widens a partial match to the whole word', () => {
  const text = 'Visit Scunthorpe soon';
  assert.deepEqual(wordAround(text, 7, 9), { start: 6, end: 16 });
});

test('"assess" is no plural of a listed word, "asses" is', () => {
  assert.equal(isDoubleSPluralGuess('assess'), true);
  assert.equal(isDoubleSPluralGuess('asses'), false);
  assert.equal(isDoubleSPluralGuess('shit'), false);
});

test('the profanity policy counts the rude sense and leaves the innocent one alone', () => {
  loadModels();
  const profanity = classifierPolicies.find((p) => p.id === 'profanity')!;
  const score = (text: string) =>
    (profanity.evaluate(text, { id: 'profanity', flag: true }, { fieldKey: null, original: text, analyses: new Map() }) as FieldResult).probability;
  for (const text of [
    'Our cock wakes the street at four every morning, the hens are quieter.',
    'Loved the old Dick Van Dyke films as a kid.',
    'We drove from Atlanta to Cumming for the fair.',
    'Two blue tits at the feeder this morning!',
    'Ma chatte a eu quatre chatons cette nuit.',
    'Fiquei uma hora na bicha do supermercado.',
    'We need to assess the damage first.',
    'Fugging hat sich 2021 umbenannt, früher hieß das Dorf halt Fucking 😄',
  ]) assert.ok(score(text) < profanity.defaultThreshold, `${text}: ${score(text)}`);
  for (const text of ['suck my cock', 'Fucking typical.', 'fucking hell', 'shut up bitch', 'sai daqui sua bicha']) {
    assert.ok(score(text) >= profanity.defaultThreshold, `${text}: ${score(text)}`);
  }
});

test('obscenity matches on a name are not counted, the rude word still is', () => {
  assert.equal(obscenityScore('Two goals from Dick Hollis on Saturday.'), 0);
  assert.ok(obscenityScore('he is such a dick') >= 0.8);
});

test('senses reach the lexicon\'s two-word entries and accented spellings of unaccented terms', () => {
  loadModels();
  const profanity = classifierPolicies.find((p) => p.id === 'profanity')!;
  const score = (text: string) =>
    (profanity.evaluate(text, { id: 'profanity', flag: true }, { fieldKey: null, original: text, analyses: new Map() }) as FieldResult).probability;
  assert.equal(innocentEverywhere('pussy cat', 'my pussy cat sleeps on the radiator, the kittens too'), true);
  assert.equal(innocentEverywhere('cabron', 'el cabrón del rebaño embiste a las cabras'), true);
  assert.equal(innocentEverywhere('cabron', 'cabrón, devuélveme la plata'), false);
  for (const text of ['my pussy cat sleeps on the radiator, the kittens too', 'el cabrón del rebaño embiste a las cabras', 'la verga del velero está rota']) {
    assert.ok(score(text) < profanity.defaultThreshold, `${text}: ${score(text)}`);
  }
  for (const text of ['cabrón, devuélveme la plata', 'chupame la verga']) assert.ok(score(text) >= profanity.defaultThreshold, `${text}: ${score(text)}`);
});
