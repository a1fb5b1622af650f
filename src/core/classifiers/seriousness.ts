/**
 * Words with which a writer says a threat is meant: "I'm not joking", "no estoy jugando", "ich mein das ernst". The
 * models learnt joking, playing and games mostly from banter and game talk, so such a marker pulls a threat's score
 * down ("te voy a matar, no estoy jugando": violence 0.07, 0.99 without the last three words). The threat policies
 * therefore also read the text with its markers taken out (policies.ts); a harmless text stays harmless without them.
 *
 * Pure; the pattern is tried on every text, so it is one regular expression compiled once.
 */
const MARKERS = [
  // English
  "i'?m not joking", 'not joking', 'no joke', "i'?m not kidding", 'not kidding', 'no kidding', 'i mean it', "i'?m (?:dead |deadly )?serious",
  'dead serious', "(?:this|it) (?:is not|isn'?t) a (?:joke|game)", 'not a (?:joke|game)', 'swear to god', 'i swear', 'for real', 'in real life',
  'irl', 'not in the game', 'outside the game', 'not in game',
  // Spanish
  'no estoy jugando', 'no estoy bromeando', 'no es (?:broma|joda|chiste|un juego)', '(?:te )?lo digo en serio', 'hablo en serio', 'va en serio',
  'en serio', '(?:te )?lo juro', 'palabra de hombre', 'en la vida real', 'fuera del juego',
  // Portuguese
  'n[ãa]o (?:estou|t[ôo]|to|tou) brincando', 'n[ãa]o [ée] brincadeira', '(?:t[ôo] |to |estou )?falando s[ée]rio', 'falo s[ée]rio', '[ée] s[ée]rio',
  'de verdade', 'na vida real', 'fora do jogo', 'n[ãa]o [ée] no jogo', 'juro por deus', 'eu juro',
  // French
  "j(?:e |')(?:ne )?rigole pas", "j(?:e |')(?:ne )?plaisante pas", "c'est pas une blague", "ce n'est pas une blague", 'sans blague',
  'je suis s[ée]rieux', 'je suis s[ée]rieuse', 'sans rire', "c'est pas un jeu", "ce n'est pas un jeu", 'dans la vraie vie', "j(?:e |')te jure",
  'je le jure',
  // German
  'kein (?:spa(?:ß|ss)|witz|scherz)', "ich mein(?:e|'?s)? (?:das )?ernst", 'ernst gemeint', '(?:mein )?voller ernst', 'ohne (?:schei(?:ß|ss)|witz)',
  'das ist kein spiel', 'im echten leben', 'nicht im spiel', 'au(?:ß|ss)erhalb vom spiel', 'ich schw[öo]r(?:e)?', 'ich mach(?:e)? keine witze',
];

const MARKER_PATTERN = new RegExp(`(?<![\\p{L}\\p{N}])(?:${MARKERS.map((marker) => marker.replace(/'/g, "['’]")).join('|')})(?![\\p{L}\\p{N}])`, 'giu');

/** `text` without its seriousness markers, or null when it has none. */
export function withoutSeriousnessMarkers(text: string): string | null {
  const stripped = text.replace(MARKER_PATTERN, ' ');
  return stripped === text ? null : stripped;
}
