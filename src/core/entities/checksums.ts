/** Checksum algorithms that separate real identifiers from random digit runs. */

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let index = digits.length - 1; index >= 0; index--) {
    let value = digits.charCodeAt(index) - 48;
    if (value < 0 || value > 9) return false;
    if (double) {
      value *= 2;
      if (value > 9) value -= 9;
    }
    sum += value;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** ISO 7064 mod 97-10 over an alphanumeric string (letters count as 10..35), as used by IBAN. */
export function mod97(alphanumeric: string): number {
  let remainder = 0;
  for (const char of alphanumeric) {
    const code = char.charCodeAt(0);
    const value = code >= 65 && code <= 90 ? code - 55 : code - 48;
    remainder = value > 9 ? (remainder * 100 + value) % 97 : (remainder * 10 + value) % 97;
  }
  return remainder;
}

const VERHOEFF_MULTIPLY = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const VERHOEFF_PERMUTE = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];

/** Verhoeff check (Indian Aadhaar numbers carry one). */
export function passesVerhoeff(digits: string): boolean {
  let check = 0;
  const length = digits.length;
  for (let index = 0; index < length; index++) {
    const digit = digits.charCodeAt(length - 1 - index) - 48;
    check = VERHOEFF_MULTIPLY[check]![VERHOEFF_PERMUTE[index % 8]![digit]!]!;
  }
  return check === 0;
}

/** Dutch BSN "11-proof": weights 9..2 and -1 for the last digit. */
export function passesElevenProof(digits: string): boolean {
  if (digits.length !== 9) return false;
  let sum = 0;
  for (let index = 0; index < 8; index++) sum += (9 - index) * (digits.charCodeAt(index) - 48);
  sum -= digits.charCodeAt(8) - 48;
  return sum % 11 === 0 && sum !== 0;
}
