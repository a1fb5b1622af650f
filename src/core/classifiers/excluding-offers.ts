/**
 * An offer that shuts people out for a protected attribute: "Room for rent … No Indians, no Muslims", "Se busca
 * cajera … Haitianas abstenerse", "Studio à louer … Pas de Maghrébins ni d'Africains", "Stellenanzeige … keine
 * Bewerberinnen mit Kopftuch und niemand über 50". POLICIES.md counts exclusion for race, ethnicity, nationality,
 * religion, orientation, gender identity, disability or age as hate, and listings and job ads are where platforms meet
 * it; the hate model, trained on insults and slogans, scores such a polite ad low (round 44, evaluation/rounds/round-44.md:
 * 0.02–0.43 on the realistic dev set's fifth part). The `hate` policy scores at least EXCLUSION_SCORE when a text both
 * offers something (housing, a job, a room) and excludes or restricts people by one of the groups below. Quoted words
 * are left out ("the landlord wrote 'no Muslims', I reported him", "is 'only Germans' in an ad legal?"): an ad does
 * not quote its own exclusions, and people discussing one do.
 *
 * Pure; the patterns are compiled once and read the text once each. Gender is not among the groups: women-only flats
 * and "Mitbewohnerin gesucht" are ordinary, and telling those from sexist hiring needs more than a pattern.
 */
import { withoutQuotedSpans } from './reported-quotes.ts';

export const EXCLUSION_SCORE = 0.85;

/**
 * Nouns for people by race, ethnicity, nationality, religion (and its dress) or disability in en, es, pt, fr and de, and by
 * orientation or gender identity in English only (accents stripped).
 */
const GROUPS = [
  // en
  'indians', 'muslims', 'blacks', 'black (?:people|folks|guys|families|tenants)', 'asians', 'arabs', 'africans', 'jews', 'mexicans',
  'pakistanis', 'pakis', 'immigrants', 'foreigners', 'refugees', 'asylum seekers', 'gypsies', 'roma', 'gays', 'lesbians',
  'trans (?:people|women|men|folks)', 'disabled(?: people)?', 'wheelchair users', 'poles', 'romanians', 'nigerians', 'somalis', 'hijabis',
  'hijabs?', 'headscarves', 'sikhs', 'hindus', 'latinos', 'hispanics', 'syrians', 'afghans', 'albanians', 'eastern europeans',
  // es
  'peruan[oa]s', 'colombian[oa]s', 'venezolan[oa]s', 'bolivian[oa]s', 'haitian[oa]s', 'dominican[oa]s', 'paraguay[oa]s', 'cuban[oa]s',
  'chin[oa]s', 'gitan[oa]s', 'moros', 'arabes', 'musulman(?:es|as)', 'negr[oa]s', 'indi[oa]s', 'indigenas', 'extranjer[oa]s',
  'inmigrantes', 'migrantes', 'refugiad[oa]s', 'judi[oa]s', 'marroquies', 'sudacas', 'african[oa]s', 'ruman[oa]s', 'senegaleses',
  'nicaraguenses', 'chilen[oa]s', 'argentin[oa]s', 'mexican[oa]s', 'espanol(?:es|as)', 'latin[oa]s', 'hiyab', 'discapacitad[oa]s',
  // pt
  'nordestin[oa]s', 'pret[oa]s', 'angolan[oa]s', 'venezuelan[oa]s', 'estrangeir[oa]s', 'imigrantes', 'cigan[oa]s', 'muculman[oa]s',
  'judeus', 'judias', 'brasileir[oa]s', 'portugues(?:es|as)', 'chineses', 'macumbeir[oa]s', 'baian[oa]s', 'paraibas', 'veu', 'deficientes',
  // fr
  'maghrebin(?:e)?s', 'africain(?:e)?s', 'noir(?:e)?s', 'musulman(?:e)?s', 'juifs', 'juives', 'roms', 'gitan(?:e)?s', 'etranger(?:e)?s',
  'immigre(?:e)?s', 'refugie(?:e)?s', 'voilee?s', 'turcs', 'asiatiques', 'chinois', 'handicape(?:e)?s', 'beurs', 'rebeus', 'renois',
  'roumain(?:e)?s', 'suisses',
  // de
  'auslander(?:innen)?', 'turken', 'turkinnen', 'araber(?:innen)?', 'muslim(?:e|innen)', 'juden', 'judinnen', 'schwarze(?:n)?',
  'afrikaner(?:innen)?', 'fluchtlinge(?:n)?', 'asylanten', 'asylbewerber(?:innen)?', 'sinti', 'zigeuner', 'rumanen', 'kopftuch',
  'kopftuchtragerinnen', 'migranten', 'kosovaren', 'jugos', 'albaner', 'balkan', 'tschetschenen', 'deutsche(?:n)?', 'schweizer(?:innen)?',
  'behinderte(?:n)?',
];
const GROUP = `(?:${GROUPS.join('|')})`;

/** Words that may stand between an excluding word and the group ("no more", "pas de", "keine vom", "candidatos con"). */
const FILLER = `(?:de|d|des|du|a|an|al|aus|aos|as|los|las|les|la|el|the|any|more|vom|von|mit|com|con|avec|en|em|tenants?|applicants?|candidat[oa]s|candidat(?:e)?s|candidates|bewerber(?:innen)?|personas|pessoas|gente|people|folks|inquilin[oa]s|locataires|mieter(?:innen)?|mulheres|mujeres|femmes|frauen|girls|women|chicas|meninas|filles|madchen)`;

// "no" but not "no matter", "no one"; the Spanish and Portuguese negations only with a verb of accepting or wanting.
const EXCLUDING_BEFORE = [
  'no(?! (?:matter|one|importa))', 'not for', 'except', 'sin', 'no (?:se )?(?:aceptan?|aceptamos|queremos|alquilo|arriendo|admitimos|admite)',
  'nao (?:aceitamos|aceito|aceita|alugo|queremos|quero|contratamos)', 'nada de', 'sem', 'pas', 'sauf', 'ni', 'keine?[nmrs]?', 'nicht an', 'niemand',
  'only', 'solo', 'solamente', 'unicamente', 'exclusivamente', 'somente', 'apenas', 'uniquement', 'seulement', 'exclusivement',
  'que des', 'nur(?: an)?', 'ausschliesslich',
].join('|');
const EXCLUDING_AFTER = [
  'need not apply', 'needn ?t apply', 'don ?t apply', 'only', 'abstenerse', 'abstenganse', 'abster-se', 's ?abstenir', 'unerwunscht',
  'uniquement', 'unicamente', 'apenas', 'nicht erwunscht',
].join('|');
const OVER_AGE = `(?:over|above|older than|acima de|mais de|mas de|mayores de|plus de|uber|alter als) [3-9]\\d(?!\\d)`;
const YEARS = `(?: (?:years?|yrs|anos|ans|jahre|jahren))`;
const EXCLUDING = new RegExp(
  `(?<![a-z])(?:(?:${EXCLUDING_BEFORE})(?: ${FILLER}){0,3} ${GROUP}|so ${GROUP}|${GROUP} (?:${EXCLUDING_AFTER}))(?![a-z])` +
    // Age: turning away everyone over an age ("nobody over 50", "nao aceitamos candidatos acima de 45 anos"); after a
    // plain "no" only with a word for years, as "a no más de 30 minutos del centro" is how listings give distances.
    `|(?<![a-z])(?:nobody|no one|niemand|personne|nadie|ninguem)(?: ${FILLER}){0,3} ${OVER_AGE}` +
    `|(?<![a-z])(?:no|nao aceitamos|keine?[nmrs]?|pas de)(?: ${FILLER}){0,3} ${OVER_AGE}${YEARS}(?![a-z])`,
);

/** Something offered that people apply or ask for: housing, rooms, jobs, services. */
const OFFER = new RegExp(
  `(?<![a-z])(?:${[
    'rent', 'for rent', 'to let', 'room', 'flat', 'flatmate', 'apartment', 'house', 'studio', 'tenants?', 'lodger', 'roommate', 'viewings?', 'hiring',
    'job', 'vacancy', 'position', 'apply', 'applicants?', 'candidates?', 'staff', 'recruiting', 'cv', 'resume', 'wage', 'salary',
    'alquil[oa]', 'alquiler', 'arriendo', 'arrienda', 'departamento', 'depto', 'piso', 'habitacion', 'cuarto', 'inquilin[oa]s?', 'se busca',
    'buscamos', 'empleo', 'trabajo', 'vacante', 'sueldo', 'postulantes', 'candidat[oa]s', 'ninera', 'cajera', 'requisitos?',
    'aluga', 'alugo', 'aluguel', 'apartamento', 'quarto', 'kitnet', 'vaga', 'emprego', 'procura-se', 'contrata(?:-se|mos)?', 'salario', 'curriculo',
    'louer', 'loue', 'location', 'appartement', 'chambre', 'colocs?', 'colocataires?', 'locataires?', 'loyer', 'recrute', 'recherche', 'poste',
    'emploi', 'candidat(?:e)?s?', 'salaire',
    'vermiet\\w*', 'wohnung', 'zimmer', 'wg', 'wg-zimmer', 'mieter(?:in)?', 'nachmieter(?:in)?', 'mitbewohner(?:in)?', 'stelle', 'stellenanzeige',
    'bewerber(?:innen)?', 'bewerbung', 'gesucht', 'miete', 'gehalt', 'besichtigung',
  ].join('|')})(?![a-z])`,
);

const NON_ASCII = /[^\x00-\x7f]/;

function folded(text: string): string {
  const lower = text.toLowerCase();
  // ASCII text has no marks to strip, and its letters and digits are a-z and 0-9: the same result without the Unicode
  // passes, which cost more than the patterns on a short English message.
  if (!NON_ASCII.test(lower)) return lower.replace(/'/g, ' ').replace(/[^a-z0-9\s-]+/g, ' ').replace(/\s+/g, ' ');
  return lower
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[’']/g, ' ')
    .replace(/[^\p{L}\p{N}\s-]+/gu, ' ')
    .replace(/\s+/g, ' ');
}

/** Whether `text` offers something and turns people away from it for a protected attribute. */
export function excludesProtectedGroup(text: string): boolean {
  const read = folded(withoutQuotedSpans(text));
  // The exclusion first: most texts have none, and then the offer need not be looked for.
  return EXCLUDING.test(read) && OFFER.test(read);
}
