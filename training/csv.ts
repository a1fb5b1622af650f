import { parseCsv } from '../src/core/csv.ts';

export { parseCsv };

/** Rows as objects keyed by the header line. */
export function parseCsvObjects(text: string, delimiter = ','): Array<Record<string, string>> {
  const [header, ...rows] = parseCsv(text, delimiter);
  if (!header) return [];
  return rows
    .filter((row) => row.length > 1 || (row[0] ?? '') !== '')
    .map((row) => Object.fromEntries(header.map((name, i) => [name, row[i] ?? ''])));
}
