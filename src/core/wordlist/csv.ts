/**
 * Wordlists as CSV, one word per row in the first column. Import accepts what spreadsheets
 * write: quoted fields (with "" for a quote), CRLF or LF line ends, a `word` header row, blank
 * lines. Pure: no I/O.
 */

import { parseCsv } from '../csv.ts';

/** The words of a CSV file: first column, header `word` and blank cells skipped. */
export function wordsFromCsv(text: string): string[] {
  const rows = parseCsv(text.replace(/^\uFEFF/, ''));
  const words = rows.map((r) => (r[0] ?? '').trim()).filter((w) => w !== '');
  if (words[0]?.toLowerCase() === 'word') words.shift();
  return words;
}

const quote = (word: string) => (/[",\r\n]/.test(word) || /^\s|\s$/.test(word) ? `"${word.replace(/"/g, '""')}"` : word);

/** A header row and one word per row; reads back with wordsFromCsv to the same words. */
export function wordsToCsv(words: readonly string[]): string {
  return `word\r\n${words.map((w) => `${quote(w)}\r\n`).join('')}`;
}
