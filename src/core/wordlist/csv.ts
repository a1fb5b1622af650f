/**
 * Wordlists as CSV, one word per row in the first column. Import accepts what spreadsheets
 * write: quoted fields (with "" for a quote), CRLF or LF line ends, a `word` header row, blank
 * lines. Pure: no I/O.
 */

/** Splits CSV text into rows of fields (RFC 4180 quoting). */
function parseRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** The words of a CSV file: first column, header `word` and blank cells skipped. */
export function wordsFromCsv(text: string): string[] {
  const rows = parseRows(text.replace(/^\uFEFF/, ''));
  const words = rows.map((r) => (r[0] ?? '').trim()).filter((w) => w !== '');
  if (words[0]?.toLowerCase() === 'word') words.shift();
  return words;
}

const quote = (word: string) => (/[",\r\n]/.test(word) || /^\s|\s$/.test(word) ? `"${word.replace(/"/g, '""')}"` : word);

/** A header row and one word per row; reads back with wordsFromCsv to the same words. */
export function wordsToCsv(words: readonly string[]): string {
  return `word\r\n${words.map((w) => `${quote(w)}\r\n`).join('')}`;
}
