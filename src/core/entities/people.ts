/**
 * Heuristic entities, off by default because they are noisier: street
 * addresses, personal names after an introduction cue, and social handles.
 */
import type { DetectedEntity } from './types.ts';

const STREET_TYPES =
  'Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Terrace|Parkway|Pkwy|Highway|Hwy|Square|Sq|Circle|Cir|Crescent|Close|Row';
const US_STATE = 'A[KLRZ]|C[AOT]|D[CE]|FL|GA|HI|I[ADLN]|K[SY]|LA|M[ADEINOST]|N[CDEHJMVY]|O[HKR]|PA|RI|S[CD]|T[NX]|UT|V[AT]|W[AIVY]';
const STREET_ADDRESS = new RegExp(
  String.raw`\b\d{1,5}[A-Za-z]?\s+(?:[NSEW]\.?\s+)?(?:[A-Z][a-z]+\s+){1,3}(?:${STREET_TYPES})\b\.?` +
    String.raw`(?:,?\s+(?:Apt|Suite|Unit|#)\.?\s*\w+)?` +
    String.raw`(?:,\s*[A-Z][a-z]+(?:\s[A-Z][a-z]+)?(?:,\s*(?:${US_STATE}))?(?:\s+\d{5}(?:-\d{4})?)?)?`,
  'g',
);
const CONTINENTAL_ADDRESS = /\b[A-ZÄÖÜ][a-zäöüß]+(?:straße|strasse|str\.|weg|platz|gasse|allee|ring|damm)\s+\d{1,4}[a-z]?(?:,\s*\d{4,5}\s+[A-ZÄÖÜ][a-zäöüß]+)?/g;
const PO_BOX = /\bP\.?\s?O\.?\s+Box\s+\d{1,6}\b/gi;

// The cue is case-insensitive, the name itself must be capitalised: JavaScript has no inline (?i).
const NAME_CUE = /\b(?:[Mm]y name is|[Mm]y name's|I am called|[Cc]all me|[Tt]his is|I'm|I am|[Nn]ame:|[Ss]igned,?|[Rr]egards,?|Mr\.?|Mrs\.?|Ms\.?|Dr\.?|Miss)\s+([A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+){0,2})/g;
const NOT_NAMES = new Set([
  'I', 'The', 'A', 'An', 'This', 'That', 'Here', 'There', 'Not', 'So', 'Very', 'Just', 'Really', 'Sure',
  'Sorry', 'Happy', 'Glad', 'Back', 'Home', 'Done', 'Going', 'Fine', 'Good', 'Great', 'Okay', 'Ok',
  'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday', 'English', 'New', 'On',
]);

const HANDLE = /(?<![\w@./])@[A-Za-z0-9_](?:[A-Za-z0-9_.]{0,28}[A-Za-z0-9_])?(?![\w@]|\.[A-Za-z])/g;
const LABELLED_HANDLE = /\b(?:username|user name|user|handle|ig|insta|instagram|snap|snapchat|sc|discord|telegram|tg|kik|skype|tiktok|twitter|wechat|line id)\s*(?::|-|is)\s*@?([A-Za-z0-9_][A-Za-z0-9_.#-]{2,31})/gi;

export function detectAddresses(text: string, out: DetectedEntity[]): void {
  for (const pattern of [STREET_ADDRESS, CONTINENTAL_ADDRESS, PO_BOX]) {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      out.push({ entity: 'address', start: match.index, end: match.index + match[0].length, probability: 0.8 });
    }
  }
}

export function detectNames(text: string, out: DetectedEntity[]): void {
  NAME_CUE.lastIndex = 0;
  for (let match = NAME_CUE.exec(text); match !== null; match = NAME_CUE.exec(text)) {
    const words = match[1]!.split(/\s+/);
    while (words.length > 0 && NOT_NAMES.has(words[words.length - 1]!)) words.pop();
    if (words.length === 0 || NOT_NAMES.has(words[0]!)) continue;
    const name = words.join(' ');
    const start = match.index + match[0].length - match[1]!.length;
    out.push({ entity: 'name', start, end: start + name.length, probability: words.length > 1 ? 0.8 : 0.65 });
  }
}

export function detectUsernames(text: string, out: DetectedEntity[]): void {
  if (text.includes('@')) {
    HANDLE.lastIndex = 0;
    for (let match = HANDLE.exec(text); match !== null; match = HANDLE.exec(text)) {
      out.push({ entity: 'username', start: match.index, end: match.index + match[0].length, probability: 0.8 });
    }
  }
  LABELLED_HANDLE.lastIndex = 0;
  for (let match = LABELLED_HANDLE.exec(text); match !== null; match = LABELLED_HANDLE.exec(text)) {
    const handle = match[1]!.replace(/[.#-]+$/, '');
    const start = match.index + match[0].length - match[1]!.length;
    out.push({ entity: 'username', start, end: start + handle.length, probability: 0.75 });
  }
}
