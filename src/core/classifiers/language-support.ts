/**
 * Whether a text is in one of the languages the built-in classifiers were trained on (issue #27): English,
 * Spanish, Portuguese, French and German. A trigram detector over every language costs more than all the
 * classifiers together (franc-min: about 0.6 ms for 280 characters), so this asks only what the pipeline needs:
 * the script of the letters, and which languages' function words the text uses. It answers `outside` only on
 * clear evidence; short or mixed texts are `supported` (scored as usual).
 */

export const MODEL_LANGUAGES = ['en', 'es', 'pt', 'fr', 'de'] as const;
export type ModelLanguage = (typeof MODEL_LANGUAGES)[number];

export interface LanguageSupport {
  /** `outside`: clearly another language or script; the classifiers' scores say little about it. */
  status: 'supported' | 'outside';
  /** Best guess among the function-word languages (ISO 639-1), or the script for non-Latin text; null when unclear. */
  language: string | null;
}

/**
 * Frequent function words. A word shared by several languages counts for each, so only words that tell the
 * supported languages from the others decide; ordinary words are not needed.
 */
const FUNCTION_WORDS: Record<string, string> = {
  en: 'the and is are was were of to in that this it for with you not have has be on at by from they we he she but or what which would there their will can do does an my your me',
  es: 'el la los las de que y en un una es por con para no se lo le su al del como pero más mi tu muy está están ya este esta hay yo porque cuando también sin sobre todo te me vas voy si ni',
  pt: 'o a os as de que e em um uma é não do da dos das no na para com por se mais mas como ao você eu meu minha seu sua está são isso isto também muito já quando te me tô pra pro vai si',
  fr: 'le la les de des du et est un une que qui pas ne en dans pour sur avec ce cette il elle nous vous je tu mais ou sont au aux son sa ses mon ma très si non ou ça',
  de: 'der die das und ist nicht ein eine zu den dem mit von sich auf für ich du er sie es wir ihr sind war aber auch noch wie wenn oder dass bei nach ja am im um per zum zur vom',
  it: 'il lo gli di che e è non un una per con del della dei delle nel nella sono anche ma questo questa come più mi ti ci si io tu lui lei noi voi loro perché molto ho hai degli alla alle allo nelle sulla sulle questo quello quella tutti tutte ogni essere stato stata hanno può deve anche ancora sempre dove cosa chi gli',
  nl: 'de het een en van is dat niet op te zijn ik je hij zij wij met voor maar ook als er aan bij om hebben heeft naar dit wat nog wel geen',
  pl: 'i w nie się na że z jest jak ale czy tak jestem tylko ty ona wy oni być już może przez jego jej które który',
  tr: 've bir bu için ile çok ben sen biz siz onlar değil var yok ama gibi daha mı mi ki şey olarak her',
  id: 'dan yang di ini itu dengan untuk tidak ada saya kamu dia kami mereka akan dari ke pada juga sudah bisa atau karena jadi',
  sv: 'och att det som en är på med inte jag han hon vi ni har var till av så kan ett den',
  da: 'og det som en er på med ikke jeg han hun vi de har var til af om så kan et den',
  ro: 'și în este nu că pe cu un o de la pentru din sunt mai dar ce să fi am ai eu tu el ea noi voi ei sau orice fie acest această lor au poate trebuie toate fără',
  cs: 'a je to že v na se s z do ale jak jsem jsi není by tak co jen už jeho její které který nebo být má mají své jeho každý všichni pro při podle',
  hu: 'a az és hogy nem egy is van volt de meg csak ez az már még mint vagy én te ő mi ti ők minden szerint által kell lehet vagy pedig',
  fi: 'ja että en oli ole mutta kun niin minä sinä hän tämä joka mitä myös vain tai kaikki ovat mukaan sekä hänen heidän',
  vi: 'và của là có không một những được cho người này trong với các đã tôi bạn anh em họ chúng',
  tl: 'ang ng sa na at mga ay hindi ko mo siya ako ikaw kami kayo sila ito iyan para kung',
  sk: 'alebo byť má majú svoje každý všetci pre pri podľa',
  hr: 'ili biti ima imaju svoje svaki svi za pri prema koji koja',
  af: 'nie het vir word sy hulle ons jy ek',
  sw: 'na ya wa ni kwa la za katika hii huo yake wao mimi wewe yeye sisi nyinyi hapana ndiyo kila mtu watu kuwa bila au',
};

const SUPPORTED = new Set<string>(MODEL_LANGUAGES);
const LANGUAGE_ORDER = Object.keys(FUNCTION_WORDS);
/** Per function word, the languages (positions in LANGUAGE_ORDER) that use it. */
const wordsOf = new Map<string, number[]>();
LANGUAGE_ORDER.forEach((language, position) => {
  for (const word of FUNCTION_WORDS[language]!.split(' ')) {
    const languages = wordsOf.get(word) ?? [];
    if (!languages.includes(position)) languages.push(position);
    wordsOf.set(word, languages);
  }
});
const IS_SUPPORTED = LANGUAGE_ORDER.map((language) => SUPPORTED.has(language));
/** Function-word hits per language of the text being checked (zeroed before each text). */
const hits = new Int32Array(LANGUAGE_ORDER.length);

/** Letter scripts by code-point block: Latin counts as the models' script. */
function scriptOf(code: number): string | null {
  if (code < 0x80) return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) ? 'latin' : null;
  if (code < 0x250) return code >= 0xc0 && code !== 0xd7 && code !== 0xf7 ? 'latin' : null;
  if (code >= 0x370 && code < 0x400) return 'greek';
  if (code >= 0x400 && code < 0x530) return 'cyrillic';
  if (code >= 0x530 && code < 0x590) return 'armenian';
  if (code >= 0x590 && code < 0x600) return 'hebrew';
  if ((code >= 0x600 && code < 0x700) || (code >= 0x750 && code < 0x780)) return 'arabic';
  if (code >= 0x900 && code < 0xe00) return 'indic';
  if (code >= 0xe00 && code < 0xe80) return 'thai';
  if (code >= 0x10a0 && code < 0x1100) return 'georgian';
  if ((code >= 0x1100 && code < 0x1200) || (code >= 0xac00 && code < 0xd7b0)) return 'hangul';
  if (code >= 0x1e00 && code < 0x1f00) return 'latin';
  if ((code >= 0x3040 && code < 0x3100) || (code >= 0x31f0 && code < 0x3200)) return 'kana';
  if ((code >= 0x3400 && code < 0xa000) || (code >= 0xf900 && code < 0xfb00)) return 'han';
  return null;
}

/** Below this many letters nothing is decided. */
const MIN_LETTERS = 12;
const WORD = /[\p{L}']+/gu;

/** The longest function word: a longer word is none, and is not looked up. */
const LONGEST_FUNCTION_WORD = Math.max(...[...wordsOf.keys()].map((word) => word.length));

/** Counts the function words of `text` into `hits`; returns how many words it has (matches of WORD in its lowercase form). */
function countFunctionWords(text: string): number {
  // The words as strings only (`match` with the global flag): no match objects.
  const matched = text.toLowerCase().match(WORD);
  const words = matched === null ? 0 : matched.length;
  for (let i = 0; i < words; i++) {
    const word = matched![i]!;
    // One-letter words ("a", "e", "i", "o", "y", "w") are function words of many languages at once.
    if (word.length < 2 || word.length > LONGEST_FUNCTION_WORD) continue;
    countWord(word);
  }
  return words;
}

function countWord(word: string): void {
  const languages = wordsOf.get(word);
  if (languages) for (let j = 0; j < languages.length; j++) hits[languages[j]!]!++;
}

/** A word's hash as countAsciiFunctionWords computes it on the fly (FNV-1a over its lowercase UTF-16 units). */
function wordHash(word: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 0x01000193);
  return hash;
}

/** The function words written in ASCII, by wordHash: the ASCII path finds them without cutting a string out of the text. */
const asciiWordsByHash = new Map<number, Array<{ word: string; languages: number[] }>>();
for (const [word, languages] of wordsOf) {
  if (!/^[a-z']+$/.test(word)) continue;
  const hash = wordHash(word);
  const entries = asciiWordsByHash.get(hash) ?? [];
  entries.push({ word, languages });
  asciiWordsByHash.set(hash, entries);
}

/**
 * countFunctionWords for a text of ASCII characters only, without the regex or a string per word: there WORD's
 * letters are A–Z and a–z, lowercasing changes only A–Z (to code + 32), and a word is a run of letters and
 * apostrophes. Each word's hash is computed as it is read; a word of a function word's length whose hash is a
 * function word's is compared with it character by character.
 */
function countAsciiFunctionWords(text: string): number {
  let words = 0;
  let start = -1;
  let hash = 0;
  for (let i = 0; i <= text.length; i++) {
    let code = i < text.length ? text.charCodeAt(i) : 0;
    if (code >= 65 && code <= 90) code += 32;
    if ((code >= 97 && code <= 122) || code === 39) {
      if (start < 0) {
        start = i;
        hash = 0x811c9dc5;
      }
      hash = Math.imul(hash ^ code, 0x01000193);
      continue;
    }
    if (start < 0) continue;
    words++;
    const length = i - start;
    if (length >= 2 && length <= LONGEST_FUNCTION_WORD) {
      const entries = asciiWordsByHash.get(hash);
      if (entries !== undefined) {
        for (const { word, languages } of entries) {
          if (word.length !== length || !sameLowercase(text, start, word)) continue;
          for (let j = 0; j < languages.length; j++) hits[languages[j]!]!++;
          break;
        }
      }
    }
    start = -1;
  }
  return words;
}

/** Whether `text` from `start` on, lowercased, begins with the lowercase ASCII `word`. */
function sameLowercase(text: string, start: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) {
    let code = text.charCodeAt(start + k);
    if (code >= 65 && code <= 90) code += 32;
    if (code !== word.charCodeAt(k)) return false;
  }
  return true;
}

export function languageSupport(text: string): LanguageSupport {
  // Scripts: a text mostly in a script the models never saw is outside, whatever its words.
  let latin = 0;
  let other = 0;
  let ascii = true;
  const otherScripts = new Map<string, number>();
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80) ascii = false;
    const script = scriptOf(code);
    if (script === null) continue;
    if (script === 'latin') latin++;
    else {
      other++;
      otherScripts.set(script, (otherScripts.get(script) ?? 0) + 1);
    }
  }
  if (latin + other < MIN_LETTERS) return { status: 'supported', language: null };
  if (other > 2 * latin) {
    let best = '';
    let most = 0;
    for (const [script, count] of otherScripts) if (count > most) [best, most] = [script, count];
    return { status: 'outside', language: best };
  }
  // Function words: outside when another language's clearly outnumber every supported language's.
  hits.fill(0);
  const words = ascii ? countAsciiFunctionWords(text) : countFunctionWords(text);
  let bestSupported = 0;
  let bestSupportedLanguage: string | null = null;
  let bestOther = 0;
  let bestOtherLanguage: string | null = null;
  for (let position = 0; position < LANGUAGE_ORDER.length; position++) {
    const count = hits[position]!;
    if (IS_SUPPORTED[position]) {
      if (count > bestSupported) [bestSupported, bestSupportedLanguage] = [count, LANGUAGE_ORDER[position]!];
    } else if (count > bestOther) [bestOther, bestOtherLanguage] = [count, LANGUAGE_ORDER[position]!];
  }
  if (words >= 4 && bestOther >= 2 && bestOther >= 2 * bestSupported + 1) return { status: 'outside', language: bestOtherLanguage };
  return { status: 'supported', language: bestSupportedLanguage };
}
