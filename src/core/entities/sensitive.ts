/**
 * Identifiers with letters: IBAN (mod 97), UK National Insurance numbers,
 * Spanish DNI/NIE (mod 23 letter) and Italian codice fiscale (check letter).
 * Digit-only ids (US SSN, Canadian SIN, Aadhaar, Dutch BSN) live in digits.ts.
 */
import { mod97 } from './checksums.ts';
import type { DetectedEntity } from './types.ts';

const IBAN_LENGTHS: Record<string, number> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BR: 29, BY: 28, CH: 21, CR: 22,
  CY: 28, CZ: 24, DE: 22, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FO: 18, FR: 27, GB: 22, GE: 22,
  GI: 23, GL: 18, GR: 27, GT: 28, HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30,
  KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20, LU: 20, LV: 21, MC: 27, MD: 24, ME: 22, MK: 19, MR: 27, MT: 31,
  MU: 30, NL: 18, NO: 15, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, SA: 24, SC: 31, SE: 24,
  SI: 19, SK: 24, SM: 27, ST: 25, SV: 28, TL: 23, TN: 24, TR: 26, UA: 29, VA: 22, VG: 24, XK: 20,
};

const IBAN_CANDIDATE = /\b([A-Z]{2})(\d{2})((?: ?[A-Z0-9]){10,30})/gi;
const UK_NINO = /\b(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b/g;
const SPANISH_ID = /\b([XYZ]?)(\d{7,8})-?([A-Z])\b/g;
const CODICE_FISCALE = /\b[A-Z]{6}\d{2}[A-EHLMPRST]\d{2}[A-Z]\d{3}[A-Z]\b/g;
const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

export function mightContainLetterId(text: string): boolean {
  return /[A-Z]{2} ?\d{2}|\d{7}-?[A-Z]|[A-Z]\d{3}[A-Z]\b/.test(text);
}

function findIbans(text: string, out: DetectedEntity[]): void {
  IBAN_CANDIDATE.lastIndex = 0;
  for (let match = IBAN_CANDIDATE.exec(text); match !== null; match = IBAN_CANDIDATE.exec(text)) {
    const country = match[1]!.toUpperCase();
    const expected = IBAN_LENGTHS[country];
    if (!expected) continue;
    // Take exactly the country's length, skipping single spaces, so a following word is not swallowed.
    let compact = '';
    let end = match.index;
    while (end < text.length && compact.length < expected) {
      const char = text[end]!;
      if (char === ' ') {
        if (text[end + 1] === ' ') break;
      } else if (/[A-Za-z0-9]/.test(char)) {
        compact += char.toUpperCase();
      } else break;
      end++;
    }
    if (compact.length !== expected || /[A-Za-z0-9]/.test(text[end] ?? '')) continue;
    if (mod97(compact.slice(4) + compact.slice(0, 4)) !== 1) continue;
    out.push({ entity: 'sensitive_other', start: match.index, end, probability: 0.97 });
    IBAN_CANDIDATE.lastIndex = end;
  }
}

function codiceFiscaleCheck(code: string): boolean {
  const oddValues = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];
  let sum = 0;
  for (let index = 0; index < 15; index++) {
    const char = code[index]!;
    const value = /\d/.test(char) ? Number(char) : char.charCodeAt(0) - 65;
    sum += index % 2 === 0 ? oddValues[value]! : value;
  }
  return String.fromCharCode(65 + (sum % 26)) === code[15];
}

export function detectLetterIds(text: string, out: DetectedEntity[]): void {
  findIbans(text, out);
  UK_NINO.lastIndex = 0;
  for (let match = UK_NINO.exec(text); match !== null; match = UK_NINO.exec(text)) {
    out.push({ entity: 'sensitive_other', start: match.index, end: match.index + match[0].length, probability: 0.85 });
  }
  SPANISH_ID.lastIndex = 0;
  for (let match = SPANISH_ID.exec(text); match !== null; match = SPANISH_ID.exec(text)) {
    const prefix = match[1]!;
    const digits = match[2]!;
    if (prefix === '' && digits.length !== 8) continue;
    if (prefix !== '' && digits.length !== 7) continue;
    const number = Number(`${prefix === '' ? '' : 'XYZ'.indexOf(prefix)}${digits}`);
    if (DNI_LETTERS[number % 23] !== match[3]) continue;
    out.push({ entity: 'sensitive_other', start: match.index, end: match.index + match[0].length, probability: 0.9 });
  }
  CODICE_FISCALE.lastIndex = 0;
  for (let match = CODICE_FISCALE.exec(text); match !== null; match = CODICE_FISCALE.exec(text)) {
    if (!codiceFiscaleCheck(match[0])) continue;
    out.push({ entity: 'sensitive_other', start: match.index, end: match.index + match[0].length, probability: 0.95 });
  }
}
