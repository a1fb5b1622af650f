/**
 * Links: with a scheme (also defanged "hxxp://", "https[:]//"), "www." links,
 * and bare domains with a known TLD, including "example[.]com",
 * "example(dot)com" and, with strong evidence, "example dot com".
 */
import ipaddr from 'ipaddr.js';
import { isStrongTld, KNOWN_TLDS, URL_SHORTENER_HOSTS } from './tlds.ts';

export type LinkKind = 'url' | 'shortener' | 'ip_host' | 'obfuscated_url';

export interface DetectedLink {
  kind: LinkKind;
  start: number;
  end: number;
  probability: number;
}

const LABEL = String.raw`[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?`;
const DOT = String.raw`(?:\.|\s?\[\s?(?:\.|dot)\s?\]\s?|\s?\(\s?(?:\.|dot)\s?\)\s?|\s?\{\s?(?:\.|dot)\s?\}\s?|\s+dot\s+)`;
const PATH = String.raw`(?:[/?#][^\s<>"'\`]*)?`;
const SCHEME = String.raw`\b(?:https?|hxxps?|hXXps?|h\*\*ps?|h\[tt\]ps?|ftp|wss?)(?::|\[:\]|\(:\))\/\/[^\s<>"'\`]+`;
const WWW = String.raw`\bwww${DOT}(?:${LABEL}${DOT}){1,10}[A-Za-z]{2,24}(?![A-Za-z0-9-])${PATH}`;
const BARE = String.raw`(?<![A-Za-z0-9@._%+-])(?:${LABEL}${DOT}){1,10}[A-Za-z]{2,24}(?![A-Za-z0-9@-])${PATH}`;
const LINK = new RegExp(`${SCHEME}|${WWW}|${BARE}`, 'gi');
const DOT_SPLIT = new RegExp(DOT, 'gi');

const PROSE_LABELS = new Set([
  'the', 'a', 'an', 'this', 'that', 'it', 'is', 'was', 'and', 'or', 'but', 'so', 'to', 'of', 'in', 'on',
  'at', 'by', 'for', 'with', 'my', 'your', 'our', 'their', 'his', 'her', 'no', 'yes', 'ok', 'okay',
  'dot', 'com', 'net', 'org', 'one', 'two', 'three', 'new', 'old', 'big', 'first', 'last', 'next',
]);
const LINK_CUE = /\b(?:visit|go to|goto|check out|check|site|website|web|link|url|page|via|see|browse|open)\s*:?\s*$/i;

const BRACKETS = '()[]{}';

/**
 * Trailing characters that end a sentence rather than a link; a ")" stays when the link opened one. The brackets are
 * counted once and the count kept as characters come off the end (counting the rest of the link again for each
 * took 70 s on a link followed by 100,000 ")").
 */
function trimTrailing(link: string): string {
  let end = link.length;
  // counts[k]: how many of BRACKETS[k] link.slice(0, end) holds.
  const counts = [0, 0, 0, 0, 0, 0];
  for (let i = 0; i < link.length; i++) {
    const k = BRACKETS.indexOf(link[i]!);
    if (k >= 0) counts[k]!++;
  }
  const drop = (): void => {
    const k = BRACKETS.indexOf(link[end - 1]!);
    if (k >= 0) counts[k]!--;
    end--;
  };
  for (;;) {
    const last = link[end - 1];
    if (last === undefined) break;
    if ('.,;:!?\'"»”’'.includes(last)) { drop(); continue; }
    if (last === ')' || last === ']' || last === '}') {
      const closer = BRACKETS.indexOf(last);
      if (counts[closer - 1]! < counts[closer]!) { drop(); continue; }
    }
    break;
  }
  return link.slice(0, end);
}

function hostOf(link: string): string {
  const withoutScheme = link.replace(/^[^:/[\]()]*(?::|\[:\]|\(:\))\/\//, '');
  const authority = withoutScheme.split(/[/?#]/)[0] ?? '';
  const host = authority.replace(/^[^@]*@/, '');
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']') > 0 ? host.indexOf(']') : undefined);
  return host.replace(/:\d+$/, '').toLowerCase();
}

function isIpLiteral(host: string): boolean {
  if (ipaddr.IPv6.isValid(host)) return true;
  return ipaddr.IPv4.isValidFourPartDecimal(host) || /^\d{8,10}$/.test(host) || /^0x[0-9a-f]{1,8}$/i.test(host);
}

export function mightContainLink(text: string): boolean {
  return text.includes('.') || text.includes('//') || /[\[({]\s?(?:\.|dot)\s?[\])}]|\bdot\b/i.test(text);
}

export function detectLinks(text: string, out: DetectedLink[]): void {
  LINK.lastIndex = 0;
  for (let match = LINK.exec(text); match !== null; match = LINK.exec(text)) {
    const link = linkAt(text, match);
    if (link === null) {
      // A rejected reading must not hide a link that starts inside it.
      // Long rejected chains ("a[.]a[.]a...") are skipped whole so adversarial input stays linear.
      LINK.lastIndex = match[0].length > 120 ? match.index + match[0].length : match.index + 1;
      continue;
    }
    out.push(link);
  }
}

function linkAt(text: string, match: RegExpExecArray): DetectedLink | null {
  {
    const link = trimTrailing(match[0]);
    if (link.length === 0) return null;
    const start = match.index;
    const end = start + link.length;
    const hasScheme = /^[a-z*[\]]+(?::|\[:\]|\(:\))\/\//i.test(link);
    const defanged = /^h(?:xx|XX|\*\*|\[tt\])p/i.test(link) || /\[:\]|\(:\)/.test(link) ||
      /[\[({]\s?(?:\.|dot)\s?[\])}]/i.test(link) || /\s+dot\s+/i.test(link);

    if (!hasScheme) {
      const domainPart = link.split(/[/?#]/)[0]!;
      const labels = domainPart.split(DOT_SPLIT).filter(Boolean);
      const tld = labels[labels.length - 1]!;
      const lowerTld = tld.toLowerCase();
      if (!KNOWN_TLDS.has(lowerTld)) return null;
      if (labels.slice(0, -1).some((label) => /^\d+$/.test(label)) && labels.length === 2) return null;
      const isWww = /^www/i.test(link) && labels.length >= 3;
      const hasPath = link.length > domainPart.length && /[/?#]./.test(link.slice(domainPart.length));
      const plainDot = /\s+dot\s+/i.test(domainPart);
      // "ASP.NET", "Node.JS": an uppercase TLD after a capitalised word is a product name, not a link.
      if (tld !== lowerTld && (tld !== tld.toUpperCase() || (!isWww && !hasPath))) return null;
      if (plainDot) {
        // "the dot com bubble": plain "dot" needs a non-prose label, a strong TLD and a cue or "www".
        if (labels.slice(0, -1).some((label) => PROSE_LABELS.has(label.toLowerCase()))) return null;
        if (!isStrongTld(lowerTld)) return null;
        const context = text.slice(Math.max(0, start - 30), start);
        if (!isWww && !LINK_CUE.test(context)) return null;
      } else if (!isWww && !hasPath && !defanged && !isStrongTld(lowerTld)) {
        // Word-like country codes ("great.it", "app.py") need more than one dot to count.
        if (labels.length < 3) return null;
      }
      if (!isWww && !hasPath && labels.length === 2 && labels[0]!.length === 1 && !URL_SHORTENER_HOSTS.has(domainPart.toLowerCase())) return null;
    }

    const host = hostOf(link).replace(DOT_SPLIT, '.');
    let kind: LinkKind = 'url';
    if (URL_SHORTENER_HOSTS.has(host) || URL_SHORTENER_HOSTS.has(host.replace(/^www\./, ''))) kind = 'shortener';
    else if (hasScheme && isIpLiteral(host)) kind = 'ip_host';
    else if (defanged) kind = 'obfuscated_url';
    const probability = hasScheme || /^www/i.test(link) ? 0.99 : defanged ? 0.9 : 0.85;
    if (link.length < match[0].length) LINK.lastIndex = end;
    return { kind, start, end, probability };
  }
}
