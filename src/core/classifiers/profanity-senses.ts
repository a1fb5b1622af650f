/**
 * Listed profanity that also has an innocent sense a word list cannot see: a name ("Dick Hollis"), a place
 * (Cumming, Georgia; Fucking, Austria), an animal ("our cock crows at four", "ma chatte a eu quatre chatons", a
 * breeder's bitch and her puppies, blue tits at the feeder), or an ordinary word of another language (Portuguese
 * "na bicha" is in the queue; German "zu dick" is too thick). Each sense is recognised by what stands beside the word
 * in the original text, never by the word alone, so the rude sense of the same word is still counted.
 *
 * Pure: the profanity policy asks only when a listed word was found, which few messages have.
 */

interface Sense {
  /** A proper name: capitalised, not opening a sentence, and followed by another capitalised word ("Dick Van Dyke"). */
  name?: boolean;
  /** A place name: capitalised and after a word that introduces a place ("to Cumming", "nach Fucking"). */
  place?: boolean;
  /** The innocent sense follows one of these words (lower case). */
  after?: ReadonlySet<string>;
  /** The innocent sense is meant when one of these words or emoji is anywhere in the text (lower case). */
  cues?: ReadonlySet<string>;
  /** The innocent sense is meant when the text goes on with one of these, right after the word (lower case: "-de-sac"). */
  followedBy?: readonly string[];
}

const PLACE_INTRODUCERS = new Set([
  'in', 'to', 'from', 'near', 'at', 'via', 'visit', 'visiting', 'nach', 'aus', 'bei', 'von', 'vom', 'à', 'de', 'em', 'en', 'para', 'hieß', 'heißt', 'called', 'named',
]);
const GERMAN_DEGREE = new Set(['zu', 'so', 'sehr', 'ganz', 'ziemlich', 'voll', 'mega', 'echt', 'richtig', 'viel', 'nicht', 'nich', 'ist', 'bin', 'bist', 'sind', 'war', 'wird', 'werden', 'etwas', 'bisschen', 'recht', 'extrem', 'schön']);
const POULTRY = new Set(['hen', 'hens', 'chicken', 'chickens', 'rooster', 'roosters', 'cockerel', 'cockerels', 'crow', 'crows', 'crowing', 'crowed', 'coop', 'bantam', 'poultry', 'flock', 'pullet', 'pullets', 'eggs', 'pheasant', 'pheasants', 'partridge', 'grouse', '🐓', '🐔']);
// "crows" is listed as a slur; a bird or a rooster's call is what nearly every text with it means.
// Not "cock", "bird", "morning": words that also stand beside the slur or beside "cock" meant rudely.
const ROOSTER = new Set(['cock', 'cockerel', 'rooster']);
const CROWS = new Set(['feeder', 'nest', 'nests', 'rook', 'rooks', 'raven', 'ravens', 'magpie', 'magpies', 'jackdaw', 'jackdaws', 'corvid', 'corvids', 'scarecrow', 'caw', 'cawing', 'cockerel', 'rooster', 'roosters', 'hen', 'hens', 'coop', '🐦', '🐓']);
const CATS_EN = new Set(['cat', 'cats', 'kitten', 'kittens', 'kitty', 'meow', 'willow', '🐱', '🐈']);
const CATS_FR = new Set(['chaton', 'chatons', 'minou', 'croquettes', 'litière', 'litiere', 'vétérinaire', 'veterinaire', 'véto', 'miaule', 'miaou', 'portée', 'stérilisée', 'sterilisee', '🐱', '🐈']);
const CATS_DE = new Set(['katze', 'katzen', 'kater', 'kätzchen', 'katzchen', 'tierarzt', 'tierärztin', 'katzenfutter', 'katzenklo', 'miau', '🐱', '🐈']);
const DOGS = new Set(['puppy', 'puppies', 'pups', 'whelp', 'whelped', 'whelping', 'breeder', 'kennel', 'kennels', 'sire', 'pedigree', 'labrador', 'spaniel', 'collie', 'retriever', 'greyhound', 'terrier', '🐕', '🐶']);
const DOGS_DE = new Set(['hund', 'hunde', 'hündin', 'huendin', 'rüde', 'ruede', 'welpe', 'welpen', 'wurf', 'züchter', 'zuechter', 'zucht', 'zuchtschau', 'hundeschau', 'gassi', 'tierarzt', 'tierärztin', 'mops', '🐕', '🐶']);
const DONKEYS = new Set(['donkey', 'donkeys', 'mule', 'mules', 'foal', 'jenny', '🫏']);
// Not "great": great tits are a bird, but the phrase is far more often not.
const TIT_KINDS = new Set(['blue', 'coal', 'marsh', 'crested', 'willow']);
const BIRDS = new Set(['bird', 'birds', 'feeder', 'feeders', 'nestbox', 'nest', 'birdwatching', 'birding']);
const KNOBS = new Set(['door', 'volume', 'gear', 'tuning', 'control', 'radiator', 'drawer']);
const QUEUE_PT = new Set(['na', 'numa', 'pela', 'em']);
// Bed linen, paper, baking and music: "sheet" is listed as a minced "shit", which the words around it rule out.
const SHEETS = new Set(['bed', 'beds', 'cotton', 'linen', 'fitted', 'flat', 'duvet', 'pillow', 'pillowcases', 'mattress', 'king', 'queen', 'double', 'single', 'size', 'thread', 'spreadsheet', 'excel', 'google', 'paper', 'papers', 'cake', 'baking', 'oven', 'tray', 'pan', 'music', 'piano', 'guitar', 'score', 'cheat', 'fact', 'data', 'spec', 'time', 'work', 'answer', 'sign', 'metal', 'steel', 'plastic', 'sticker', 'stickers', 'balance', 'template', 'printable']);
// French marketplaces: "fdp" is "frais de port" (postage); the German FDP is a party.
const POSTAGE_FR = new Set(['prix', 'envoi', 'envoie', 'colis', 'livraison', 'port', 'inclus', 'compris', 'offerts', 'offert', 'gratuits', 'gratuit', 'colissimo', 'relay', 'chronopost', 'suivi', 'lettre', 'lot', 'article', 'articles', 'commande', 'panier', 'poids', 'euros', 'eur', 'remboursés', 'rembourses', 'parti', 'partei', 'koalition', 'coalition', 'lindner', 'liberal', 'libéral', 'liberale']);
// Spanish "negro" is first of all a colour (not after "o": Spanish "or", but the Portuguese article).
const BLACK_ES = new Set(['🎯', 'color', 'colores', 'colour', 'talla', 'blanco', 'blanca', 'rojo', 'roja', 'azul', 'gris', 'verde', 'rosa', 'beige', 'marrón', 'marron', 'dorado', 'plateado', 'mate', 'brillante', 'funda', 'camiseta', 'vestido', 'zapatos', 'zapatillas', 'bolso', 'chaqueta', 'pantalón', 'pantalon', 'body', 'encaje', 'tinta', 'modelo', 'precio', 'euros', 'pesos', 'disponible', 'stock', 'nuevo', 'nueva', 'usado', 'usada', 'envío', 'envio', 'preto', 'branco', 'cor', 'tamanho']);
const BLACK_AFTER = new Set(['en', 'color', 'humor', 'mercado', 'agujero', 'arroz', 'café', 'cafe', 'oro', 'pimienta', 'cisne', 'viernes', 'vino', 'pelo', 'buraco', 'ouro', 'cor']);
const SAILING = new Set(['velero', 'vela', 'velas', 'barco', 'mástil', 'mastil', 'botavara', 'driza', 'náutica', 'nautica', 'navegar', 'proa', 'popa', 'jarcia', 'regata', '⛵']);
const FOXES = new Set(['cachorros', 'zorro', 'zorros', 'monte', 'gallinero', 'gallinas', 'madriguera', 'bosque', 'campo', 'conejo', 'conejos', '🦊']);
const GOATS = new Set(['rebaño', 'rebano', 'cabra', 'cabras', 'cabritos', 'celo', 'granja', 'establo', 'ganado', 'pastor', '🐐']);
const DOGS_ES = new Set(['cachorros', 'cachorrito', 'cachorritos', 'camada', 'criador', 'criadero', 'veterinario', 'veterinaria', 'perro', 'perros', 'raza', 'celo', 'vacuna', '🐕', '🐶']);
const NAPPIES = new Set(['bébé', 'bebe', 'bebé', 'bebê', 'couche', 'couches', 'pañal', 'pañales', 'panal', 'fralda', 'fraldas', 'pot', 'body', 'nourrisson', 'biberon', 'lactante', 'recién', 'nacido']);
// Not "quit" or "smoke": words that also stand beside the slur ("quit being a fag", "I'll smoke you").
const CIGARETTES = new Set(['cigarette', 'cigarettes', 'smoking', 'lighter', 'ciggie', 'ciggies', 'tobacco', 'rollie', 'rollies', 'ashtray', 'nipped', 'vape', '🚬']);
const RARE_MEAT = new Set(['steak', 'steaks', 'rare', 'beef', 'meat', 'mary', 'marys', 'nose', 'assizes', 'massacre', 'carcass', 'butcher']);
const POOLS = new Set(['freibad', 'schwimmbad', 'pool', 'badi', 'sprungturm', 'dreier', 'wettbewerb', 'becken', 'sprung', 'springen', 'baden']);
const SURNAME_DE = new Set(['herr', 'herrn', 'frau', 'familie', 'dr', 'prof', 'kollege', 'kollegin', 'meister', 'malermeister', 'tischlermeister', 'schreinermeister', 'bäckermeister', 'metzgermeister', 'elektromeister', 'bürgermeister', 'pfarrer', 'trainer', 'firma']);
// Cooking: chicken and duck breasts (not "thighs", "roast" or "grill", which stand beside the rude sense too).
const BREAST_MEATS = new Set(['chicken', 'duck', 'turkey', 'pheasant', 'pigeon', 'goose']);
const POULTRY_COOKING = new Set(['carcass', 'fillet', 'fillets', 'boneless', 'skinless', 'marinade', 'recipe', 'drumsticks']);
// Clinical words only: "doctor", "nurse" and "patient" are roleplay words in adult spam too.
const MEDICAL = new Set([
  'cyst', 'fissure', 'abscess', 'fistula', 'haemorrhoids', 'hemorrhoids', 'rectal', 'colonoscopy', 'biopsy', 'proctologist', 'sphincter',
  'fisura', 'fístula', 'hemorroides', 'proctólogo', 'proctologo', 'fissura', 'hemorroidas', 'proctologista', 'hémorroïdes', 'hämorrhoiden', 'fissur', 'proktologe',
]);
// Swedish words only ("swedish" stands beside the rude sense in spam).
const SWEDISH = new Set(['svenska', 'slutspel', 'slutsåld', 'slutsålt', 'slutet', 'slutsats']);
// Spanish: the host of the Mass ("la primera comunión"); sailing's lookout ("el carajo", the masthead).
const MASS_ES = new Set(['comunión', 'comunion', 'misa', 'iglesia', 'parroquia', 'sacerdote', 'eucaristía', 'eucaristia', 'consagrada', 'altar', 'catequesis', 'hostias']);
const MASTHEAD_ES = new Set(['cofa', 'mástil', 'mastil', 'velero', 'marinero', 'marineros', 'grumete', 'grumetes', 'vigía', 'vigia', 'navío', 'navio', 'galeón', 'galeon']);
// Portuguese: a deer in hunting and cooking (a slur in Brazil), a bread roll in Portugal, cow dung as manure, churros.
// Not "mato" (also "I kill"), "abater" or "carne": they stand beside the slur in threats.
const DEER_PT = new Set(['caça', 'caçada', 'caçador', 'caçadores', 'chifre', 'chifres', 'cervo', 'corça', 'corca', 'floresta', 'espingarda', 'eviscerar', 'bambi', '🦌']);
const BREAD_PT = new Set(['padaria', 'pão', 'pao', 'pães', 'paes', 'bifana', 'bifanas', 'manteiga', 'padeiro', 'fornada', 'sandes', 'torradas']);
const MANURE_PT = new Set(['adubo', 'estrume', 'horta', 'estrumeira', 'composto', 'compostagem', 'fertilizante']);
const CHURROS = new Set(['churros', 'churro', 'chocolate', 'churrería', 'churreria', 'desayuno']);

const SENSES: ReadonlyMap<string, Sense> = new Map<string, Sense>([
  ['dick', { name: true, after: GERMAN_DEGREE }],
  ['cumming', { name: true, place: true }],
  // Fucking in Austria, renamed Fugging in 2021: a text naming both means the village.
  ['fucking', { place: true, cues: new Set(['fugging']) }],
  ['cock', { cues: POULTRY }],
  // "our cock crows at four": the rooster's call right after the bird.
  ['crows', { after: ROOSTER, cues: CROWS }],
  ['crow', { after: ROOSTER, cues: CROWS }],
  ['pussy', { place: true, cues: CATS_EN }],
  ['chatte', { cues: CATS_FR }],
  ['muschi', { cues: CATS_DE }],
  ['bitch', { cues: DOGS }],
  ['ass', { cues: DONKEYS }],
  ['tits', { after: TIT_KINDS, cues: BIRDS }],
  ['knob', { after: KNOBS, followedBy: [' of butter', ' of ginger', ' of lard', ' of margarine'] }],
  ['breasts', { after: BREAST_MEATS, cues: POULTRY_COOKING }],
  ['breast', { after: BREAST_MEATS, cues: POULTRY_COOKING }],
  ['anus', { cues: MEDICAL }],
  ['anal', { cues: MEDICAL }],
  // A ball-peen hammer.
  ['peen', { after: new Set(['ball', 'cross', 'straight']), cues: new Set(['hammer', 'hammers']) }],
  // Villages in Orkney and Shetland.
  ['twatt', { place: true }],
  ['slut', { cues: SWEDISH }],
  ['möpse', { cues: DOGS_DE }],
  ['mopse', { cues: DOGS_DE }],
  ['hostia', { cues: MASS_ES }],
  ['carajo', { cues: MASTHEAD_ES }],
  ['veado', { cues: DEER_PT }],
  ['cacete', { cues: BREAD_PT }],
  ['cacetes', { cues: BREAD_PT }],
  ['bosta', { followedBy: [' de vaca', ' de cavalo', ' de galinha', ' de boi', ' de ovelha'], cues: MANURE_PT }],
  ['porras', { cues: CHURROS }],
  ['bicha', { after: QUEUE_PT }],
  // Dick Van Dyke, a Van Dyke beard, Van Dyke brown.
  ['dyke', { after: new Set(['van']) }],
  ['pussy cat', { cues: CATS_EN }],
  ['sheet', { cues: SHEETS }],
  ['sheets', { cues: SHEETS }],
  ['fdp', { cues: POSTAGE_FR }],
  ['negro', { after: BLACK_AFTER, cues: BLACK_ES }],
  ['verga', { cues: SAILING }],
  ['la verga', { cues: SAILING }],
  ['zorra', { cues: FOXES }],
  ['cabron', { cues: GOATS }],
  ['cabrón', { cues: GOATS }],
  ['perra', { cues: DOGS_ES }],
  ['caca', { cues: NAPPIES }],
  ['fag', { cues: CIGARETTES }],
  // Bloody Sunday, Bloody Mary: a name when capitalised beside another capitalised word.
  ['bloody', { name: true, cues: RARE_MEAT }],
  ['arschbombe', { cues: POOLS }],
  ['fick', { name: true, after: SURNAME_DE, cues: new Set(['nachname', 'familienname']) }],
  // A village in Saxony-Anhalt, and one in Savoie.
  ['pissen', { place: true, after: new Set(['bahnhof']) }],
  // French cooking and streets: a cul-de-sac, a cul-de-poule (mixing bowl), drinking cul sec.
  ['cul', { followedBy: ['-de-sac', ' de sac', '-de-poule', ' de poule', '-de-lampe', '-de-jatte', ' sec', '-sec', '-de-four', '-de-bouteille', ' de bouteille'] }],
]);

const WORD = /[\p{L}\p{M}\p{N}'’]+|\p{Extended_Pictographic}/gu;
const isUpper = (char: string | undefined): boolean => char !== undefined && char !== char.toLowerCase() && char === char.toUpperCase();
const isLower = (char: string | undefined): boolean => char !== undefined && char !== char.toUpperCase() && char === char.toLowerCase();
/** "Dick", not "DICK" or "dick". */
const capitalised = (word: string): boolean => isUpper(word[0]) && isLower(word[1]);

function previousWord(text: string, start: number): string {
  const match = /([\p{L}\p{M}\p{N}'’]+)[^\p{L}\p{M}\p{N}]*$/u.exec(text.slice(Math.max(0, start - 40), start));
  return match ? match[1]! : '';
}

function nextWord(text: string, end: number): string {
  const match = /^[ \t]+([\p{L}\p{M}\p{N}'’]+)/u.exec(text.slice(end, end + 40));
  return match ? match[1]! : '';
}

/** Nothing but spaces since the text or its sentence began. */
function opensSentence(text: string, start: number): boolean {
  for (let i = start - 1; i >= 0; i--) {
    const char = text[i]!;
    if (char === ' ' || char === '\t' || char === '"' || char === '“' || char === '«' || char === '(') continue;
    return char === '.' || char === '!' || char === '?' || char === '…' || char === '\n' || char === '\r';
  }
  return true;
}

/** The lower-case words and emoji of a text, computed once per text however many words ask. */
class TextWords {
  private words: Set<string> | null = null;
  constructor(private readonly text: string) {}
  has(cues: ReadonlySet<string>): boolean {
    this.words ??= new Set(Array.from(this.text.matchAll(WORD), (match) => match[0].toLowerCase()));
    for (const cue of cues) if (this.words.has(cue)) return true;
    return false;
  }
}

function innocentWith(sense: Sense, text: string, start: number, end: number, words: TextWords): boolean {
  const word = text.slice(start, end);
  const before = previousWord(text, start).toLowerCase();
  if (sense.after?.has(before)) return true;
  if (sense.followedBy) {
    const next = text.slice(end, end + 16).toLowerCase();
    if (sense.followedBy.some((continuation) => next.startsWith(continuation))) return true;
  }
  if (sense.cues && words.has(sense.cues)) return true;
  if (!capitalised(word) || opensSentence(text, start)) return false;
  if (sense.place && PLACE_INTRODUCERS.has(before)) return true;
  return sense.name === true && capitalised(nextWord(text, end));
}

/** Whether the word at text[start, end) is meant in an innocent sense the profanity list does not see. */
export function innocentAt(text: string, start: number, end: number, words: TextWords = new TextWords(text)): boolean {
  const sense = SENSES.get(text.slice(start, end).toLowerCase());
  return sense !== undefined && innocentWith(sense, text, start, end, words);
}

const escapeRegExp = (value: string): string => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether every occurrence of the listed word `term` in `text` is meant innocently. False when the term is not one
 * with an innocent sense or when no occurrence is written out plainly (an obfuscated "c0ck" has no innocent sense).
 */
export function innocentEverywhere(term: string, text: string): boolean {
  const sense = SENSES.get(term);
  if (!sense) return false;
  const pattern = new RegExp(`(?<![\\p{L}\\p{M}\\p{N}])${escapeRegExp(term)}(?![\\p{L}\\p{M}\\p{N}])`, 'giu');
  const everyOccurrence = (within: string): number => {
    const words = new TextWords(within);
    let found = 0;
    for (const match of within.matchAll(pattern)) {
      found++;
      if (!innocentWith(sense, within, match.index, match.index + match[0].length, words)) return -1;
    }
    return found;
  };
  const found = everyOccurrence(text);
  if (found !== 0) return found > 0;
  // The lexicon's terms are written without accents ("cabron"); the text may have them ("cabrón").
  const unaccented = text.normalize('NFD').replace(/\p{M}+/gu, '');
  return unaccented !== text && everyOccurrence(unaccented) > 0;
}

/** The whole word around text[start, end] (inclusive end), for matchers that report part of a word. */
export function wordAround(text: string, start: number, end: number): { start: number; end: number } {
  const letter = /[\p{L}\p{M}\p{N}'’]/u;
  let from = start;
  let to = end + 1;
  while (from > 0 && letter.test(text[from - 1]!)) from--;
  while (to < text.length && letter.test(text[to]!)) to++;
  return { start: from, end: to };
}

export { TextWords };
