/**
 * Author trust levels, following the hosted product's documented rules:
 *  -1 Untrusted  more than 5% of the last 100 items flagged
 *   0 New        everyone else
 *   1 Basic      member ≥ 7 days and ≥ 5 clean items
 *   2 Member     member ≥ 30 days and ≥ 25 clean items
 *   3 Regular    member ≥ 90 days and ≥ 50 clean items
 *   4 Trusted    set by a moderator only
 * Verified identity or a paying customer is extra evidence: one level up,
 * never above 3 and never out of Untrusted.
 */

export const TRUST_LEVELS = { UNTRUSTED: -1, NEW: 0, BASIC: 1, MEMBER: 2, REGULAR: 3, TRUSTED: 4 } as const;
export const TRUST_LEVEL_NAMES: Record<number, string> = { [-1]: 'Untrusted', 0: 'New', 1: 'Basic', 2: 'Member', 3: 'Regular', 4: 'Trusted' };

const DAY_MS = 86_400_000;
/** Share of flagged items among the recent ones above which an author is untrusted. */
export const UNTRUSTED_VIOLATION_RATE = 0.05;
export const RECENT_WINDOW = 100;

/** Promotion steps, highest first: membership age and clean items needed. */
const PROMOTIONS = [
  { level: 3, days: 90, clean: 50 },
  { level: 2, days: 30, clean: 25 },
  { level: 1, days: 7, clean: 5 },
] as const;

export interface TrustFacts {
  firstSeen: number;
  totalContent: number;
  flaggedContent: number;
  /** Items in the recent window (at most 100) and how many of them were flagged. */
  recentCount: number;
  recentFlagged: number;
  metadata: Record<string, unknown>;
  manualTrustLevel: number | null;
}

export interface TrustLevel {
  level: number;
  manual: boolean;
}

export function automaticTrustLevel(facts: TrustFacts, now: number): number {
  if (facts.recentCount > 0 && facts.recentFlagged / facts.recentCount > UNTRUSTED_VIOLATION_RATE) return TRUST_LEVELS.UNTRUSTED;
  const days = Math.max(0, now - facts.firstSeen) / DAY_MS;
  const clean = Math.max(0, facts.totalContent - facts.flaggedContent);
  const earned = PROMOTIONS.find((step) => days >= step.days && clean >= step.clean)?.level ?? TRUST_LEVELS.NEW;
  const vouched = facts.metadata.identity_verified === true || facts.metadata.is_paying_customer === true;
  return vouched ? Math.min(TRUST_LEVELS.REGULAR, earned + 1) : earned;
}

export function trustLevel(facts: TrustFacts, now: number): TrustLevel {
  if (facts.manualTrustLevel !== null) return { level: facts.manualTrustLevel, manual: true };
  return { level: automaticTrustLevel(facts, now), manual: false };
}
