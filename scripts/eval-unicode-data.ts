/** Hand-written inputs for scripts/eval-unicode.ts. */

/** Common English words (spam, scam and abuse vocabulary plus everyday words) that spoofs are built from. */
export const SPOOF_BASE_WORDS: readonly string[] = `
paypal account password login verify bank money free cash prize winner bitcoin crypto wallet
click link offer deal sale cheap viagra casino lottery investment profit income urgent secure update
apple amazon google microsoft netflix facebook instagram whatsapp telegram discord steam
hello please thank you friend message call phone email order payment invoice refund delivery
idiot stupid loser kill hate scam spam fraud fake porn sex nude drugs weed cocaine
escape coffee soap cocoa peace space case ease cease apex pay spy copy hope rope cope scope
pose sexy boss kiss miss pass press access success process accept expose express expire
house mouse horse voice choice piece place price ocean police office service device
the and for are but not all any can had her was one our out day get has him his how man new now
old see two way who boy did its let put say she too use dad mom yes yep nope okay
`
  .split(/\s+/)
  .filter(Boolean);

/** Genuine foreign words and names inside English sentences; none of these may be flagged. */
export const FOREIGN_NAME_SENTENCES: readonly string[] = [
  'I met Дмитрий Шостакович and 山田太郎 in Αθήνα yesterday.',
  'Our new colleague Вера Павлова starts on Monday.',
  'The conductor was Валерий Гергиев, and the soloist was Анна Нетребко.',
  'We stayed at a hotel in Москва near the Кремль.',
  'She wrote “спасибо” on the card, which means thank you.',
  'The Greek word λόγος means word or reason.',
  'Professor Παπαδόπουλος teaches at the University of Crete.',
  'My friend 佐藤花子 lives in 東京 and works for ソニー.',
  'The restaurant “すし匠” is booked for Friday.',
  'He signed as 김민준 on the Korean form.',
  'The capital of South Korea is 서울.',
  'Our supplier in 深圳 is 华为技术有限公司.',
  'The Persian poet حافظ wrote beautiful ghazals.',
  'She said می‌خواهم بروم before leaving.',
  'The Hebrew greeting שָׁלוֹם is common.',
  'The Hindi word नमस्ते is used as a greeting.',
  'My teacher श्री रामकृष्ण परमहंस was kind.',
  'In Bengali, thank you is ধন্যবাদ.',
  'The Tamil film வணக்கம் was popular.',
  'In Thai, hello is สวัสดีครับ.',
  'The Georgian alphabet starts with ა, ბ, გ: see საქართველო.',
  'The Armenian capital is Երևան.',
  'The Amharic name ኢትዮጵያ means Ethiopia.',
  'Vietnamese: Tiếng Việt is spoken by Nguyễn Thị Minh Khai.',
  'Yoruba names like Olúwaseun and Adébáyọ̀ carry tone marks.',
  'The Polish city Łódź and the Czech name Dvořák have diacritics.',
  'Our Icelandic friend Þórður visited Reykjavík.',
  'The Turkish word İstanbul starts with a dotted capital I.',
  'Zoë and Chloë went to the café with Renée and José.',
  'The Ukrainian city Київ and the word їжак are Ukrainian.',
  'The Serbian name Ђорђе Петровић is common.',
  'The Kazakh word Қазақстан has special letters.',
  'I listened to Ελληνικά τραγούδια and Русские песни today.',
  'Ask Олег or Ирина about the Сочи trip.',
  'The Mongolian name Монгол Улс is written ᠮᠣᠩᠭᠣᠯ in the old script.',
  'The Khmer word ភាសាខ្មែរ means Khmer language.',
  'The Burmese word မြန်မာ is the country name.',
  'The Sinhala word සිංහල is the language name.',
  'The Malayalam word മലയാളം is the language name.',
  'The Arabic word مرحبا means hello.',
  'The Urdu word شکریہ means thanks.',
  'Emoji are fine too: 👩🏽‍💻 coding, 🏳️‍🌈 pride, 🇯🇵 Japan, 1️⃣ first.',
  'Математика is my favourite subject, said Πέτρος.',
  'The Cherokee word ᏣᎳᎩ names the language.',
];

const GREEK_LOWER = 'αβγδεζηθικλμνξοπρστυφχψω';
const GREEK_UPPER = 'ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ';
const TECHNICAL_TERMS = ['helix', 'blocker', 'rays', 'particle', 'decay', 'sheet', 'carotene', 'lactam', 'amylase', 'globulin', 'radiation', 'test', 'version', 'release', 'receptor', 'subunit', 'coefficient', 'channel'];
const GREEK_TEMPLATES: Array<(letter: string, term: string) => string> = [
  (g, t) => `The ${g}-${t} was described in the paper.`,
  (g, t) => `Patients on a ${g}-${t} need monitoring`,
  (g, t) => `${g}-${t} and ${g === 'α' ? 'β' : 'α'}-${t} differ in structure.`,
  (g, t) => `We measured ${t} ${g} at 0.05 and plotted it.`,
  (g) => `Let ${g} be the angle between the two lines.`,
  (g, t) => `the ${t} (${g}) is small`,
  (g) => `${g} = 0.5`,
];

/**
 * Greek letters used as scientific and technical prefixes and symbols (α-helix, β-blocker, γ-rays, a
 * single letter on its own): legitimate, never flagged or changed. Every lowercase and capital letter
 * crossed with technical terms and sentence shapes, plus a few fixed classics.
 */
export const GREEK_PREFIX_SENTENCES: readonly string[] = [
  ...[...GREEK_LOWER, ...GREEK_UPPER].flatMap((letter, i) =>
    GREEK_TEMPLATES.map((template, k) => template(letter, TECHNICAL_TERMS[(i + k) % TECHNICAL_TERMS.length]!)),
  ),
  'The α-helix and the β-sheet are secondary structures.',
  'She takes a β-blocker for her heart.',
  'γ-rays are more penetrating than α-particles.',
  'Δ9-THC is the main psychoactive compound.',
  'The π-calculus models concurrent processes.',
  'Omega-3 and ω-6 fatty acids.',
  'The resistance is 47 Ω and the current 3 μA.',
  'Use μTorrent or qBittorrent to download it.',
  'Area = π r² and the angle θ = 30°.',
  'The p-value was below α = 0.05.',
];
