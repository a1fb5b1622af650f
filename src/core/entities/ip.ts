/** IPv4 and IPv6 addresses in text, validated with ipaddr.js. */
import ipaddr from 'ipaddr.js';
import type { DetectedEntity } from './types.ts';

const IPV4 = /(?<![\w.])(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}(?![\w]|\.\d)/g;
const IPV6_CANDIDATE = /(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:[0-9A-Fa-f]{0,4}|\d{1,3}(?:\.\d{1,3}){3})(?![\w:])/g;
// Versions and document numbering ("chapter 10.1.2.3") look exactly like dotted quads.
const VERSION_CONTEXT = /\b(?:v|ver|version|release|build|firmware|update|patch|rev|revision|chrome|node|python|java|ios|android|macos|windows|sdk|api|app|chapter|section|sect|paragraph|para|clause|article|art|figure|fig|table|step|rule|item|no|§)\.?\s*$|§\s*$/i;
const IP_CONTEXT = /\b(?:ip|ips|ipv4|server|host|address|addr|dns|gateway|router|subnet|ping|connect|proxy|vpn)\b/i;

export function mightContainIp(text: string): boolean {
  return /\d\.\d|:[0-9A-Fa-f]*:/.test(text);
}

export function detectIpAddresses(text: string, out: DetectedEntity[]): void {
  IPV4.lastIndex = 0;
  for (let match = IPV4.exec(text); match !== null; match = IPV4.exec(text)) {
    const octets = match[0].split('.').map(Number);
    const before = text.slice(Math.max(0, match.index - 30), match.index);
    if (VERSION_CONTEXT.test(before)) continue;
    // "1.2.3.4" in prose is usually a version or a section number unless the context says otherwise.
    const allSmall = octets.every((octet) => octet < 10);
    const context = text.slice(Math.max(0, match.index - 60), match.index + match[0].length + 30);
    if (allSmall && !IP_CONTEXT.test(context) && !octets.every((octet) => octet === octets[0])) continue;
    out.push({ entity: 'ip_address', start: match.index, end: match.index + match[0].length, probability: allSmall ? 0.7 : 0.95 });
  }
  if (!text.includes(':')) return;
  // Asked of the whole text: once, not for each candidate ("a::b " repeated has 20,000).
  let ipContext: boolean | undefined;
  IPV6_CANDIDATE.lastIndex = 0;
  for (let match = IPV6_CANDIDATE.exec(text); match !== null; match = IPV6_CANDIDATE.exec(text)) {
    const candidate = match[0];
    if (!ipaddr.IPv6.isValid(candidate)) continue;
    const groups = candidate.split(':').filter(Boolean);
    const compressed = candidate.includes('::');
    // Times ("10:30:00") are not valid IPv6; "a::b"-like tokens are too short to be meaningful.
    if (!compressed && groups.length < 8) continue;
    if (compressed && candidate !== '::1' && groups.length < 2) continue;
    if (!/[0-9]/.test(candidate) && !(ipContext ??= IP_CONTEXT.test(text))) continue;
    out.push({ entity: 'ip_address', start: match.index, end: match.index + candidate.length, probability: 0.95 });
  }
}
