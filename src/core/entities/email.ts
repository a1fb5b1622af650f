/**
 * Email addresses, including the usual disguises: "jane [at] example [dot] com",
 * "jane(at)example(.)com", "jane @ example . com" and, only with strong
 * evidence, the plain-word form "jane at example dot com".
 */
import { isStrongTld, KNOWN_TLDS, MAIL_PROVIDER_LABELS } from './tlds.ts';
import type { DetectedEntity } from './types.ts';

const LOCAL = String.raw`[A-Za-z0-9](?:[A-Za-z0-9._%+-]{0,62}[A-Za-z0-9_])?`;
const LABEL = String.raw`[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?`;
const OPEN = String.raw`[\[({<]`;
const CLOSE = String.raw`[\])}>]`;
const AT = String.raw`(?:\s?[@＠]\s?|\s?${OPEN}\s?(?:at|@)\s?${CLOSE}\s?|\s+at\s+)`;
const DOT = String.raw`(?:\.|\s\.\s|\s?${OPEN}\s?(?:dot|\.)\s?${CLOSE}\s?|\s+dot\s+)`;
const EMAIL = new RegExp(
  String.raw`(?<![A-Za-z0-9._%+-])(${LOCAL})(${AT})((?:${LABEL}${DOT}){1,10})([A-Za-z]{2,24})(?![A-Za-z0-9@-])`,
  'gi',
);
const LABEL_SPLIT = new RegExp(DOT, 'i');

/** Words that read as "X at Y dot com" in ordinary sentences and are never the local part. */
const PROSE_WORDS = new Set([
  'look', 'looking', 'this', 'that', 'it', 'me', 'us', 'him', 'her', 'them', 'you', 'we', 'they', 'i',
  'is', 'are', 'was', 'were', 'be', 'been', 'am', 'not', 'arrive', 'arrived', 'stay', 'stayed', 'work',
  'home', 'meet', 'met', 'laugh', 'laughed', 'stare', 'staring', 'aim', 'aimed', 'good', 'bad', 'best',
  'and', 'or', 'but', 'there', 'here', 'which', 'what', 'who', 'the', 'a', 'an', 'up', 'out', 'back',
]);

const EMAIL_CUE = /\b(?:e-?mail|mail|contact|reach|write|message|send|inbox|address)\b/i;

export function mightContainEmail(text: string): boolean {
  return text.includes('@') || text.includes('＠') || /[\[({<]\s?at\s?[\])}>]/i.test(text) || (/\bat\b/i.test(text) && /\bdot\b/i.test(text));
}

export function detectEmails(text: string, out: DetectedEntity[]): void {
  EMAIL.lastIndex = 0;
  for (let match = EMAIL.exec(text); match !== null; match = EMAIL.exec(text)) {
    const probability = emailProbability(text, match);
    if (probability === 0) {
      // A rejected reading ("me at jane.doe") must not hide an address that starts inside it.
      // Long rejected chains ("a[.]a[.]a...") are skipped whole so adversarial input stays linear.
      EMAIL.lastIndex = match[0].length > 120 ? match.index + match[0].length : match.index + 1;
      continue;
    }
    out.push({ entity: 'email', start: match.index, end: match.index + match[0].length, probability });
  }
}

function emailProbability(text: string, match: RegExpExecArray): number {
  {
    const [, local, at, domainPrefix, tld] = match as unknown as [string, string, string, string, string];
    const labels = domainPrefix.split(LABEL_SPLIT).filter(Boolean);
    const plainAt = /^\s+at\s+$/i.test(at);
    const plainDot = /\s+dot\s+/i.test(domainPrefix);
    const bracketed = /[\[({<]/.test(at) || /[\[({<]/.test(domainPrefix);
    const spaced = /\s/.test(at) || /\s/.test(domainPrefix);
    const lowerTld = tld.toLowerCase();

    let probability: number;
    if (!plainAt && !plainDot && !bracketed && !spaced) {
      // Literal address: any alphabetic TLD is fine (new gTLDs), but not file names like a@b.png.
      if (/^(?:png|jpe?g|gif|svg|webp|js|ts|css|html?)$/i.test(tld) && !KNOWN_TLDS.has(lowerTld)) return 0;
      probability = 0.99;
    } else if (!plainAt && !plainDot) {
      if (!KNOWN_TLDS.has(lowerTld)) return 0;
      probability = bracketed ? 0.95 : 0.9;
    } else {
      // The plain-word form needs strong evidence: a real TLD, a local part that is not a prose word,
      // and either a mail-provider domain or an email cue near the address.
      if (!isStrongTld(lowerTld)) return 0;
      if (PROSE_WORDS.has(local.toLowerCase())) return 0;
      if (labels.some((label) => PROSE_WORDS.has(label.toLowerCase()))) return 0;
      const provider = MAIL_PROVIDER_LABELS.has(labels[0]!.toLowerCase());
      const context = text.slice(Math.max(0, match.index - 60), match.index);
      if (!provider && !EMAIL_CUE.test(context)) return 0;
      probability = plainAt && plainDot ? 0.8 : 0.85;
    }
    return probability;
  }
}
