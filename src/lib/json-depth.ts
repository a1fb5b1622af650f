/**
 * How deeply a JSON text nests objects and arrays, read from the text itself (brackets inside
 * strings do not count). Every stored document and every answer is written and read back by
 * recursive code (JSON.stringify, PostgreSQL's jsonb, the structured clone that carries the
 * embedded store's rows between threads), so a body nested thousands of levels deep must be
 * refused where it is parsed, not wherever it would first overflow.
 */
export const MAX_JSON_DEPTH = 64;

/** True when `json` (a valid JSON text) nests objects and arrays more than `limit` levels deep. */
export function jsonNestedDeeperThan(json: string, limit: number = MAX_JSON_DEPTH): boolean {
  // Each level takes an opening and a closing bracket: a shorter text cannot be deeper.
  if (json.length <= 2 * limit) return false;
  let depth = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // Jump over the string (indexOf is much faster than a loop here): it ends at the first quote
      // not escaped, that is not preceded by an odd run of backslashes.
      let end = i;
      for (;;) {
        end = json.indexOf('"', end + 1);
        if (end < 0) return false;
        let backslashes = 0;
        while (json.charCodeAt(end - 1 - backslashes) === 0x5c /* \ */) backslashes++;
        if (backslashes % 2 === 0) break;
      }
      i = end;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return false;
}
