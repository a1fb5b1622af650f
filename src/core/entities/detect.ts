/**
 * Runs the enabled detectors over one text and resolves overlaps: the longest
 * match wins, so "jane@example.com" is one email rather than an email plus the
 * domain "example.com", and a URL with an IP host stays one URL.
 */
import { detectDigitEntities, hasDigits } from './digits.ts';
import { detectEmails, mightContainEmail } from './email.ts';
import { detectIpAddresses, mightContainIp } from './ip.ts';
import { detectAddresses, detectNames, detectUsernames } from './people.ts';
import { detectLetterIds, mightContainLetterId } from './sensitive.ts';
import { DisjointSpans } from '../../lib/disjoint-spans.ts';
import type { DetectedEntity } from './types.ts';
import { detectLinks, mightContainLink, type DetectedLink } from './url.ts';

/** When two candidates have the same extent, the more specific entity wins. */
const PRIORITY: Record<string, number> = {
  credit_card: 0, sensitive_other: 1, email: 2, ip_address: 3, url: 4, shortener: 4, ip_host: 4,
  obfuscated_url: 4, phone: 5, address: 6, username: 7, name: 8,
};

export function resolveOverlaps(found: DetectedEntity[]): DetectedEntity[] {
  if (found.length <= 1) return found;
  const byPreference = [...found].sort(
    (a, b) => b.end - b.start - (a.end - a.start) || (PRIORITY[a.entity] ?? 9) - (PRIORITY[b.entity] ?? 9) || a.start - b.start,
  );
  const kept: DetectedEntity[] = [];
  const spans = new DisjointSpans(found.reduce((largest, entity) => Math.max(largest, entity.end), 0));
  for (const candidate of byPreference) {
    if (spans.overlaps(candidate.start, candidate.end)) continue;
    spans.add(candidate.start, candidate.end);
    kept.push(candidate);
  }
  return kept.sort((a, b) => a.start - b.start);
}

export function detectPii(text: string, enabled: (entity: string) => boolean): DetectedEntity[] {
  const found: DetectedEntity[] = [];
  if (enabled('email') && mightContainEmail(text)) detectEmails(text, found);
  if (enabled('url') && mightContainLink(text)) {
    const links: DetectedLink[] = [];
    detectLinks(text, links);
    for (const link of links) found.push({ entity: 'url', start: link.start, end: link.end, probability: link.probability });
  }
  if (enabled('ip_address') && mightContainIp(text)) detectIpAddresses(text, found);
  const phone = enabled('phone');
  const creditCard = enabled('credit_card');
  const sensitive = enabled('sensitive_other');
  if ((phone || creditCard || sensitive) && hasDigits(text, 5)) {
    detectDigitEntities(text, { phone, credit_card: creditCard, sensitive_other: sensitive }, found);
  }
  if (sensitive && mightContainLetterId(text)) detectLetterIds(text, found);
  if (enabled('address') && hasDigits(text, 1)) detectAddresses(text, found);
  if (enabled('name')) detectNames(text, found);
  if (enabled('username')) detectUsernames(text, found);
  return resolveOverlaps(found);
}

/** Links for the url policy; a link whose specific kind is disabled falls back to the generic `url` entity. */
export function detectUrlEntities(text: string, enabled: (entity: string) => boolean): DetectedEntity[] {
  if (!mightContainLink(text)) return [];
  const links: DetectedLink[] = [];
  detectLinks(text, links);
  const found: DetectedEntity[] = [];
  for (const link of links) {
    const entity = enabled(link.kind) ? link.kind : enabled('url') ? 'url' : null;
    if (entity) found.push({ entity, start: link.start, end: link.end, probability: link.probability });
  }
  return resolveOverlaps(found);
}
