/**
 * Everything written as a run of digits: payment cards, national ids and phone
 * numbers. One scan finds digit runs (with separators, spacing and lookalike
 * letters); each run is then classified by shape and checksum.
 */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { passesElevenProof, passesLuhn, passesVerhoeff } from './checksums.ts';
import type { DetectedEntity } from './types.ts';

const LOOKALIKE_DIGITS: Record<string, string> = { O: '0', o: '0', I: '1', l: '1' };

/**
 * Replaces O/o/I/l by digits inside alphanumeric runs that contain a real digit
 * and no other letters ("555-l234", "2O2-555-O1OO"), keeping the length so
 * spans stay valid. Returns the input itself when nothing changes.
 */
export function normalizeLookalikeDigits(text: string): string {
  if (!/[OoIl]/.test(text)) return text;
  let result: string[] | null = null;
  const runPattern = /[0-9A-Za-z]+/g;
  for (let run = runPattern.exec(text); run !== null; run = runPattern.exec(text)) {
    const word = run[0];
    if (!/[0-9]/.test(word) || !/^[0-9OoIl]+$/.test(word) || !/[OoIl]/.test(word)) continue;
    result ??= text.split('');
    for (let offset = 0; offset < word.length; offset++) {
      const replacement = LOOKALIKE_DIGITS[word[offset]!];
      if (replacement) result[run.index + offset] = replacement;
    }
  }
  return result ? result.join('') : text;
}

/** A digit run: digits joined by at most one separator group (" - ", ") ", " (", ".", "/"). */
const CANDIDATE = /(?:\+\s?|\(\s?)?\d(?:(?:\s?[-./]\s?|\)\s?|\s\(|\s{1,2})?\d)*\)?/g;
const DATE_SHAPE = /^(?:\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4})(?!\d)/;
// Prices, ids glued to letters ("ABC-123-456-7890"), decimals and times are not phone numbers.
const SPELLED_NUMBER_BEFORE = /[$€£¥₹#]\s?$|[A-Za-z0-9_]$|[A-Za-z0-9]-$|\d[.,:]\d*$|[.,]$/;
const AFTER_BLOCKS = /^(?:[A-Za-z0-9_%°]|[.,:]\d)/;

interface Candidate {
  start: number;
  end: number;
  raw: string;
  digits: string;
  groups: number[];
  separators: string;
  international: boolean;
}

/** Phone countries tried for numbers written without a country code, in order. */
const NATIONAL_COUNTRIES: CountryCode[] = ['US', 'GB', 'DE', 'FR', 'IT', 'ES', 'NL', 'AU', 'IN', 'BR', 'CA'];

const CARD_PREFIX = /^(?:4|5[1-5]|2[2-7]|3[47]|3[068]|6011|6[245]|35|5[06789]|6)/;

function isCard(candidate: Candidate): boolean {
  const { digits, groups } = candidate;
  if (digits.length < 13 || digits.length > 19) return false;
  if (/[./()]/.test(candidate.separators) || candidate.international) return false;
  const wellGrouped =
    groups.length === 1 ||
    groups.every((size, index) => size === 4 || (index === groups.length - 1 && size >= 1)) ||
    (groups.length === 3 && groups[0] === 4 && groups[1] === 6 && groups[2] === 5) ||
    groups.every((size) => size === 1);
  return wellGrouped && CARD_PREFIX.test(digits) && passesLuhn(digits) && !/^(\d)\1+$/.test(digits);
}

function isUsSsn(candidate: Candidate): boolean {
  const { digits, groups } = candidate;
  if (digits.length !== 9 || groups.length !== 3 || groups[0] !== 3 || groups[1] !== 2 || groups[2] !== 4) return false;
  if (!/^-+$/.test(candidate.separators.replace(/\s/g, ''))) return false;
  return isPlausibleSsn(digits);
}

/** SSA never issues area 000, 666 or 9xx, group 00 or serial 0000. */
function isPlausibleSsn(digits: string): boolean {
  const area = digits.slice(0, 3);
  return area !== '000' && area !== '666' && area[0] !== '9' && digits.slice(3, 5) !== '00' && digits.slice(5) !== '0000';
}

/** Canadian SIN written 3-3-3 (Luhn), Aadhaar 4-4-4 (Verhoeff), Dutch BSN only next to its name. */
function nationalIdProbability(candidate: Candidate, before: string): number {
  const { digits, groups } = candidate;
  const grouped = (sizes: number[]) => groups.length === sizes.length && sizes.every((size, index) => groups[index] === size);
  if (grouped([3, 3, 3]) && passesLuhn(digits) && digits[0] !== '0' && digits[0] !== '8') {
    return /\b(?:sin|social insurance)\b[^.\n]{0,20}$/i.test(before) ? 0.95 : 0;
  }
  if (grouped([4, 4, 4]) && /^[2-9]/.test(digits) && passesVerhoeff(digits)) return 0.85;
  if (digits.length === 9 && /\b(?:bsn|burgerservicenummer)\b[^.\n]{0,20}$/i.test(before) && passesElevenProof(digits)) return 0.95;
  if (digits.length === 9 && isPlausibleSsn(digits) && /\b(?:ssn|social security(?: number| no\.?)?)\b[^.\n]{0,20}$/i.test(before)) return 0.9;
  return 0;
}

function isArithmeticSequence(digits: string): boolean {
  const step = digits.charCodeAt(1) - digits.charCodeAt(0);
  if (Math.abs(step) > 1) return false;
  for (let index = 2; index < digits.length; index++) {
    if (digits.charCodeAt(index) - digits.charCodeAt(index - 1) !== step) return false;
  }
  return true;
}

function phoneProbability(candidate: Candidate): number {
  const { digits, groups, separators, raw } = candidate;
  if (digits.length < 7 || digits.length > 15) return 0;
  if (DATE_SHAPE.test(raw.replace(/^[+(]\s?/, ''))) return 0;
  if (/\//.test(separators)) return 0;

  if (candidate.international || digits.startsWith('00')) {
    const international = candidate.international ? `+${digits}` : `+${digits.slice(2)}`;
    const parsed = parsePhoneNumberFromString(international);
    if (!parsed) return 0;
    if (parsed.isValid()) return 0.95;
    return parsed.isPossible() && groups.length > 1 ? 0.75 : 0;
  }

  const spacedOut = groups.length >= 7 && groups.every((size) => size === 1);
  if (spacedOut) {
    if (isArithmeticSequence(digits) || /^(\d)\1+$/.test(digits)) return 0;
    return digits.length === 7 || digits.length === 10 || (digits.length === 11 && digits[0] === '1') ? 0.7 : 0;
  }

  const shape = groups.join('-');
  const northAmerican = /^(?:1-)?3-3-4$/.test(shape) || (/^1?\d{10}$/.test(digits) && /\(/.test(raw) && groups.length >= 2);
  if (northAmerican && /^1?[2-9]/.test(digits)) {
    const parsed = parsePhoneNumberFromString(digits, 'US');
    return parsed?.isValid() ? 0.9 : 0.75;
  }
  if (shape === '3-4' && /^[-.]$/.test(separators.trim()) && /^[2-9]/.test(digits)) return 0.6;
  if (groups.length === 1) {
    if (digits.length < 10) return 0;
    const parsed = parsePhoneNumberFromString(digits, 'US');
    return parsed?.isValid() && digits.length === 10 ? 0.6 : 0;
  }
  // Numbers with a trunk prefix 0, as written in most of Europe, Australia, India.
  if (digits[0] === '0' && digits.length >= 9 && digits.length <= 12 && groups[groups.length - 1]! >= 2) {
    for (const country of NATIONAL_COUNTRIES) {
      const parsed = parsePhoneNumberFromString(digits, country);
      if (parsed?.isValid()) return 0.85;
    }
  }
  return 0;
}

function toCandidate(text: string, match: RegExpExecArray): Candidate | null {
  let raw = match[0];
  let start = match.index;
  // A closing parenthesis only belongs to the number when it opened inside it.
  if (raw.endsWith(')') && !raw.includes('(')) raw = raw.slice(0, -1);
  if (raw.startsWith('(') && !raw.includes(')')) {
    raw = raw.slice(1).trimStart();
    start = text.indexOf(raw, start);
  }
  const digits = raw.replace(/\D/g, '');
  const groups = raw.split(/\D+/).filter(Boolean).map((group) => group.length);
  const separators = raw.replace(/[\d+]/g, '').replace(/^\(/, '');
  return { start, end: start + raw.length, raw, digits, groups, separators, international: raw.startsWith('+') };
}

/** Finds card numbers, SSN-like ids and phone numbers. `wanted` limits the work to enabled entities. */
export function detectDigitEntities(
  text: string,
  wanted: { phone: boolean; credit_card: boolean; sensitive_other: boolean },
  out: DetectedEntity[],
): void {
  const normalized = normalizeLookalikeDigits(text);
  CANDIDATE.lastIndex = 0;
  for (let match = CANDIDATE.exec(normalized); match !== null; match = CANDIDATE.exec(normalized)) {
    // Cheap exits first: most runs in prose are short numbers.
    const digitCount = countDigits(match[0]);
    if (digitCount < 7) continue;
    const candidate = toCandidate(normalized, match);
    if (!candidate) continue;
    const before = normalized.slice(Math.max(0, candidate.start - 40), candidate.start);
    const after = normalized.slice(candidate.end, candidate.end + 2);
    if (SPELLED_NUMBER_BEFORE.test(before) && !candidate.international) continue;
    if (AFTER_BLOCKS.test(after)) continue;
    if (/,\d{3}(?!\d)/.test(normalized.slice(candidate.start, candidate.end + 4))) continue;

    if (isCard(candidate)) {
      if (wanted.credit_card) out.push({ entity: 'credit_card', start: candidate.start, end: candidate.end, probability: 0.95 });
      continue;
    }
    if (isUsSsn(candidate)) {
      if (wanted.sensitive_other) out.push({ entity: 'sensitive_other', start: candidate.start, end: candidate.end, probability: 0.85 });
      continue;
    }
    const nationalId = nationalIdProbability(candidate, before);
    if (nationalId > 0) {
      if (wanted.sensitive_other) out.push({ entity: 'sensitive_other', start: candidate.start, end: candidate.end, probability: nationalId });
      continue;
    }
    if (wanted.phone) {
      const probability = phoneProbability(candidate);
      if (probability > 0) out.push({ entity: 'phone', start: candidate.start, end: candidate.end, probability });
    }
  }
}

function countDigits(value: string): number {
  let count = 0;
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code >= 48 && code <= 57) count++;
  }
  return count;
}

/** True when the text has at least `minimum` ASCII digits or digit lookalikes next to digits; the pre-scan. */
export function hasDigits(text: string, minimum: number): boolean {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57 && ++count >= minimum) return true;
  }
  return false;
}
