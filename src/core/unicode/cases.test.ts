/**
 * Hand-labelled tricky strings. `expect: null` means genuine: nothing flagged, text untouched.
 * Otherwise the listed signals must fire and the text must normalize to `normalized`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeUnicode, type UnicodeSignal } from './index.ts';

interface Case {
  text: string;
  expect: null | { signals: UnicodeSignal[]; normalized: string };
  why: string;
}

const CASES: Case[] = [
  // Genuine text of many scripts
  { text: 'Привет, как дела? Всё хорошо.', expect: null, why: 'Russian' },
  { text: 'Сахар и соль', expect: null, why: 'Russian words made only of Latin-lookalike letters, in Russian text' },
  { text: 'сахар', expect: null, why: 'lone Russian word of lookalike letters that spells no English word' },
  { text: 'Η Αθήνα είναι η πρωτεύουσα της Ελλάδας.', expect: null, why: 'Greek' },
  { text: 'ΑΒΓ ΚΑΙ ΤΟ ΜΟΝΟ', expect: null, why: 'Greek capitals, many Latin-lookalike, in Greek text' },
  { text: '東京タワーは赤い。カタカナとひらがな。', expect: null, why: 'Japanese mixing Han, Hiragana, Katakana' },
  { text: '第１条　すべての人間は', expect: null, why: 'fullwidth digits in Japanese' },
  { text: 'ＮＨＫのニュース', expect: null, why: 'fullwidth Latin in Japanese text' },
  { text: 'iPhone用のケース', expect: null, why: 'Latin + Japanese in one word is an allowed combination' },
  { text: '한국어 텍스트와 漢字', expect: null, why: 'Korean with Han' },
  { text: '中文和注音ㄅㄆㄇ', expect: null, why: 'Chinese with Bopomofo' },
  { text: 'می‌خواهم به خانه بروم', expect: null, why: 'Persian ZWNJ' },
  { text: 'क्‍ष और क्ष', expect: null, why: 'Devanagari ZWJ after virama' },
  { text: 'ভাষা ও সাহিত্য', expect: null, why: 'Bengali' },
  { text: 'สวัสดีครับ\u200bวันนี้', expect: null, why: 'Thai with a zero-width space as a word break' },
  { text: 'שָׁלוֹם עֲלֵיכֶם', expect: null, why: 'Hebrew with vowel points' },
  { text: 'Tiếng Việt có dấu', expect: null, why: 'Vietnamese precomposed' },
  { text: 'Tie\u0302\u0301ng Vie\u0323\u0302t', expect: null, why: 'Vietnamese in NFD: two marks on one base' },
  { text: 'Adébáyọ̀ àti Olúwaseun', expect: null, why: 'Yoruba tone marks' },
  { text: 'བོད་སྐད་ཡིག', expect: null, why: 'Tibetan stacks' },
  { text: 'I met Дмитрий Шостакович and 山田太郎 in Αθήνα yesterday', expect: null, why: 'foreign names in English' },
  { text: 'Our colleague Вера starts Monday', expect: null, why: 'capitalized Russian name of lookalike letters in English' },
  { text: 'Zoë, Chloë, Renée and José at the café', expect: null, why: 'Latin diacritics' },
  { text: 'Ukrainian: Київ, їжак, м’ята', expect: null, why: 'Ukrainian apostrophe and letters' },
  { text: 'nº 5 and 1ª edição', expect: null, why: 'ordinal indicators' },
  { text: 'E = mc² and H₂O', expect: null, why: 'superscript and subscript digits' },
  { text: '① first ② second', expect: null, why: 'circled digits as list markers' },
  // Emoji
  { text: '👨‍👩‍👧‍👦 family', expect: null, why: 'ZWJ sequence' },
  { text: '👩🏽‍💻 🏳️‍🌈 🏳️‍⚧️ ❤️‍🔥', expect: null, why: 'ZWJ sequences with modifiers and variation selectors' },
  { text: '🏴󠁧󠁢󠁳󠁣󠁴󠁿 Scotland', expect: null, why: 'emoji tag sequence' },
  { text: '1️⃣ #️⃣ *️⃣', expect: null, why: 'keycaps' },
  { text: '🇯🇵 🇫🇷🇫🇷 🇺🇸🇬🇧', expect: null, why: 'flags, repeated and listed' },
  { text: '🅰️ 🅱️ Ⓜ️ ℹ️ 🅾️ 🅿️', expect: null, why: 'enclosed letters with emoji presentation' },
  { text: '漢\u{e0100}字', expect: null, why: 'ideographic variation sequence' },
  { text: 'Hello \u2067שלום\u2069 world', expect: null, why: 'balanced isolate around Hebrew' },
  { text: 'שלום\u200f, hello', expect: null, why: 'RLM next to RTL text' },
  { text: '\ufeffHello', expect: null, why: 'byte order mark at the start' },
  { text: 'line one\r\n\tline two', expect: null, why: 'tab, CR, LF are fine' },

  // Spoofs
  { text: 'log in to p\u0430ypal now', expect: { signals: ['mixed_script'], normalized: 'log in to paypal now' }, why: 'Cyrillic а in a Latin word' },
  { text: 'раураl', expect: { signals: ['mixed_script'], normalized: 'paypal' }, why: 'mostly Cyrillic word ending in Latin l' },
  { text: 'пoлная', expect: { signals: ['mixed_script'], normalized: 'полная' }, why: 'Latin o in a Russian word becomes Cyrillic о' },
  { text: 'please рау now', expect: { signals: ['confusable_word'], normalized: 'please pay now' }, why: 'whole Cyrillic word in English text' },
  { text: 'сору', expect: { signals: ['confusable_word'], normalized: 'copy' }, why: 'lone Cyrillic word spelling an English word' },
  { text: '🅼🅾🅽🅴🆈 fast', expect: { signals: ['confusable_word'], normalized: 'MONEY fast' }, why: 'negative squared letters' },
  { text: 'ꜰʀᴇᴇ stuff', expect: { signals: ['confusable_word'], normalized: 'free stuff' }, why: 'small capitals' },
  { text: '𝐟𝐫𝐞𝐞 𝓶𝓸𝓷𝓮𝔂', expect: { signals: ['confusable_word'], normalized: 'free money' }, why: 'mathematical alphanumerics' },
  { text: 'Ｆｒｅｅ ｍｏｎｅｙ', expect: { signals: ['confusable_word'], normalized: 'Free money' }, why: 'fullwidth Latin outside CJK text' },
  { text: 'ⓒⓐⓢⓗ now', expect: { signals: ['confusable_word'], normalized: 'cash now' }, why: 'circled letters' },
  { text: '⒡⒭⒠⒠', expect: { signals: ['confusable_word'], normalized: 'free' }, why: 'parenthesized letters' },
  { text: '🇫🇷🇪🇪 gift', expect: { signals: ['confusable_word'], normalized: 'FREE gift' }, why: 'regional indicators spelling a word although the pairs are flags' },
  { text: '🇸🇵🇦🇲', expect: { signals: ['confusable_word'], normalized: 'SPAM' }, why: 'regional indicators outside flag pairs' },
  { text: 'ᶠʳᵉᵉ', expect: { signals: ['confusable_word'], normalized: 'free' }, why: 'superscript modifier letters' },
  { text: 'f\u200bree', expect: { signals: ['invisible'], normalized: 'free' }, why: 'zero-width space' },
  { text: 'id\u00adiot', expect: { signals: ['invisible'], normalized: 'idiot' }, why: 'soft hyphen between Latin letters' },
  { text: 'st\u200dup\u200cid', expect: { signals: ['invisible'], normalized: 'stupid' }, why: 'joiners inside a Latin word' },
  { text: 'evil\u202egnp.exe', expect: { signals: ['invisible'], normalized: 'evilgnp.exe' }, why: 'right-to-left override' },
  { text: 'fr\ufe0fee', expect: { signals: ['invisible'], normalized: 'free' }, why: 'variation selector after a Latin letter' },
  { text: 'sp\u{e0061}am', expect: { signals: ['invisible'], normalized: 'spam' }, why: 'tag character outside an emoji' },
  { text: 'he\u3164llo', expect: { signals: ['invisible'], normalized: 'hello' }, why: 'Hangul filler' },
  { text: 'Z\u0338\u0321\u031ba\u0337l\u0336g\u0334o\u0335', expect: { signals: ['zalgo'], normalized: 'Zalgo' }, why: 'zalgo with overlays' },
  { text: 'h\u0301\u0300\u0302i', expect: { signals: ['zalgo'], normalized: 'hi' }, why: 'three generic marks on one base' },
  { text: 'a\u0947b', expect: { signals: ['zalgo'], normalized: 'ab' }, why: 'Devanagari vowel sign on a Latin letter' },
  { text: 'bad\u0007word', expect: { signals: ['illegal'], normalized: 'badword' }, why: 'C0 control' },
  { text: 'x\u0085y', expect: { signals: ['illegal'], normalized: 'xy' }, why: 'C1 control' },
  { text: 'lone \ud800 surrogate', expect: { signals: ['illegal'], normalized: 'lone  surrogate' }, why: 'lone surrogate' },
  { text: 'non\ufffechar', expect: { signals: ['illegal'], normalized: 'nonchar' }, why: 'noncharacter' },
  { text: 'f\u200br\u0435e', expect: { signals: ['mixed_script', 'invisible'], normalized: 'free' }, why: 'two signals in one word' },
];

for (const c of CASES) {
  test(`${c.expect ? 'spoof' : 'genuine'}: ${c.why}`, () => {
    const analysis = analyzeUnicode(c.text);
    if (c.expect === null) {
      assert.equal(analysis.spoofed, false, JSON.stringify(analysis.findings));
      assert.equal(analysis.normalized, c.text);
      assert.equal(analysis.changed, false);
    } else {
      assert.equal(analysis.spoofed, true);
      const fired = (Object.keys(analysis.signals) as UnicodeSignal[]).filter((s) => analysis.signals[s]);
      assert.deepEqual(fired.sort(), [...c.expect.signals].sort());
      assert.equal(analysis.normalized, c.expect.normalized);
      assert.equal(analyzeUnicode(analysis.normalized).normalized, analysis.normalized, 'normalization is idempotent');
    }
  });
}
