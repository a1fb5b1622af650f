/**
 * A threat quoted to report it: "someone just messaged me 'I know which bus you take, you'll regret it' — should I
 * report it?", "o ex dela disse 'se te vejo com outro vc morre'. Ela vai fazer B.O.". POLICIES.md judges quoting a
 * threat to report it benign, yet the models read the quoted words as a threat (rounds 37–38,
 * evaluation/rounds/round-37.md). When a text has a quoted span and says around it that something was said, sent or
 * reported, `violence` and `toxicity_severe` also score the text without its quoted spans and keep the lower score
 * (policies.ts). A threat the writer makes outside the quotes still scores as one; quoting a slur and then aiming it
 * is left to `toxicity` and `hate`, which do not read quotes this way.
 *
 * Pure; both patterns are compiled once; the quoted span is bounded, so a text costs at most 240 steps per quote mark.
 */

// A quoted span of at least three characters: straight or typographic double quotes, German „…“, guillemets, and
// single quotes only where they stand as quote marks (not an apostrophe inside a word: "don't", "l'homme"); a
// single-quoted span may hold such apostrophes ('you'll regret it', round 38). At most 240 characters: a quoted threat
// is short, and an unbounded span made a text of 80,000 unclosed « take 1.5 s (every mark scanned to the end).
const QUOTED_SPAN = /"[^"\n]{3,240}"|“[^”\n]{3,240}”|„[^“”\n]{3,240}[“”]|«[^»\n]{3,240}»|(?<=^|[\s(:])['‘](?:[^'’\n]|(?<=\p{L})['’](?=\p{L})){3,240}['’](?=$|[\s.,!?;:)…])/gu;

// Words saying that something was said, sent or threatened, or that it is being reported (en, es, pt, fr, de).
const REPORTING = [
  'said', 'says', 'saying', 'told', 'tells', 'wrote', 'writes', 'texted', 'messaged', 'sent', "dm'?d", 'threatened', 'threatening', 'report', 'reported',
  'reporting', 'police', 'cops', 'block', 'blocked', 'screenshots?', 'quoted?', 'quoting',
  'dijo', 'dice', 'dec[ií]a', 'report(?:ar|[ée]|ei|ado|ada)', 'captura', 'print', 'capture', 'escribi[óo]', 'mand[óo]', 'envi[óo]', 'amenaz[óo]', 'denuncia', 'denunciar', 'denunci[ée]', 'polic[ií]a', 'bloquear', 'bloque[ée]',
  'disse', 'diz', 'dizia', 'escreveu', 'mandou', 'enviou', 'amea[çc]ou', 'den[úu]ncia', 'pol[íi]cia', 'b\\.o\\.?', 'bloquei(?:ar|ei)',
  'dit', 'disait', '[ée]crit', '[ée]crivait', 'envoy[ée]', 'menac[ée]', 'plainte', 'flics?', 'signaler', 'signal[ée]', 'bloquer', 'bloqu[ée]',
  'gesagt', 'sagt', 'sagte', 'schrieb', 'geschrieben', 'geschickt', 'schickte', 'gedroht', 'droht', 'polizei', 'anzeige', 'melden', 'gemeldet', 'blockier(?:en|t)',
];
const REPORTING_WORD = new RegExp(`(?<![\\p{L}\\p{N}])(?:${REPORTING.map((word) => word.replace(/'/g, "['’]")).join('|')})(?![\\p{L}\\p{N}])`, 'iu');

/** Fewer words than this around the quotes is not enough to say what the quote is doing there. */
const WORDS_AROUND = 3;

/** `text` with every quoted span taken out, whatever is said around it. */
export function withoutQuotedSpans(text: string): string {
  QUOTED_SPAN.lastIndex = 0;
  return text.replace(QUOTED_SPAN, ' … ');
}

/** `text` with its quoted spans taken out, when it reports them; null otherwise. */
export function withoutReportedQuotes(text: string): string | null {
  QUOTED_SPAN.lastIndex = 0;
  if (!QUOTED_SPAN.test(text)) return null;
  const around = withoutQuotedSpans(text);
  let words = 0;
  for (const word of around.split(/\s+/)) if (/\p{L}/u.test(word) && ++words >= WORDS_AROUND) break;
  if (words < WORDS_AROUND || !REPORTING_WORD.test(around)) return null;
  return around;
}
