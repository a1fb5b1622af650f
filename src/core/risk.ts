/**
 * Author risk evaluation: a 0–100 level summed from behavioural signals.
 * Every signal reports what it saw and how many points it added, so a
 * moderator (or a test) can see why an author scores as they do.
 * Pure: the facts come from the author row, the disposable-domain check is
 * passed in.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export interface RiskFacts {
  firstSeen: number;
  email: string | null;
  metadata: Record<string, unknown>;
  totalContent: number;
  flaggedContent: number;
  lastIncident: number | null;
  /** Items in the hour bucket `hourBucket` (ms / 1 h) and how many of those were posted at night (00–05 UTC). */
  hourBucket: number;
  hourCount: number;
  hourNightCount: number;
  /** Items in the minute bucket `minuteBucket`, and the most ever seen in one minute. */
  minuteBucket: number;
  minuteCount: number;
  peakMinuteCount: number;
  nightContent: number;
  spoofedContent: number;
  linkCount: number;
  duplicateContent: number;
}

export interface RiskSignal {
  id: string;
  /** What was observed (a count, ratio, age in days, or flag). */
  value: number | boolean | string | null;
  /** Points this signal added to the risk level (negative lowers it). */
  contribution: number;
}

export interface RiskEvaluation {
  risk_level: number;
  signals: RiskSignal[];
}

export type DisposableCheck = (domain: string) => boolean;

export const RISK_SIGNAL_IDS = [
  'account_age',
  'disposable_email',
  'email_unverified',
  'phone_unverified',
  'posting_velocity',
  'posting_burst',
  'duplicate_content',
  'flagged_ratio',
  'recent_incident',
  'unicode_spoofing',
  'link_density',
  'night_burst',
  'verified_identity',
] as const;

const round2 = (n: number) => Math.round(n * 100) / 100;

export function evaluateRisk(facts: RiskFacts, now: number, isDisposable: DisposableCheck): RiskEvaluation {
  const signals: RiskSignal[] = [];
  const add = (id: (typeof RISK_SIGNAL_IDS)[number], value: RiskSignal['value'], contribution: number) =>
    signals.push({ id, value, contribution: Math.round(contribution) });
  const total = facts.totalContent;

  const ageDays = Math.max(0, now - facts.firstSeen) / DAY_MS;
  add('account_age', round2(ageDays), ageDays < 1 ? 15 : ageDays < 7 ? 8 : 0);

  const domain = facts.email?.split('@')[1]?.toLowerCase() ?? null;
  const disposable = domain !== null && isDisposable(domain);
  add('disposable_email', disposable, disposable ? 20 : 0);

  const emailVerified = facts.metadata.email_verified;
  add('email_unverified', typeof emailVerified === 'boolean' ? emailVerified : null, emailVerified === true ? 0 : emailVerified === false ? 8 : 4);
  const phoneVerified = facts.metadata.phone_verified;
  add('phone_unverified', typeof phoneVerified === 'boolean' ? phoneVerified : null, phoneVerified === true ? 0 : phoneVerified === false ? 5 : 2);

  // Counters only count while their bucket is the current one.
  const hourNow = Math.floor(now / HOUR_MS);
  const lastHourCount = facts.hourBucket >= hourNow - 1 ? facts.hourCount : 0;
  add('posting_velocity', lastHourCount, lastHourCount >= 60 ? 15 : lastHourCount >= 20 ? 8 : 0);

  const minuteNow = Math.floor(now / MINUTE_MS);
  const burst = Math.max(facts.peakMinuteCount, facts.minuteBucket >= minuteNow - 1 ? facts.minuteCount : 0);
  add('posting_burst', burst, burst >= 10 ? 10 : burst >= 5 ? 5 : 0);

  const duplicateRatio = total > 0 ? facts.duplicateContent / total : 0;
  add('duplicate_content', facts.duplicateContent, facts.duplicateContent >= 2 ? 15 * Math.min(1, duplicateRatio * 2) : 0);

  const flaggedRatio = total > 0 ? facts.flaggedContent / total : 0;
  add('flagged_ratio', round2(flaggedRatio), 20 * flaggedRatio);

  const sinceIncident = facts.lastIncident === null ? null : now - facts.lastIncident;
  add(
    'recent_incident',
    facts.lastIncident,
    sinceIncident === null ? 0 : sinceIncident <= 7 * DAY_MS ? 15 : sinceIncident <= 30 * DAY_MS ? 7 : 0,
  );

  add('unicode_spoofing', facts.spoofedContent, facts.spoofedContent > 0 ? Math.min(15, 5 + 10 * (facts.spoofedContent / Math.max(1, total))) : 0);

  const linksPerItem = total > 0 ? facts.linkCount / total : 0;
  add('link_density', round2(linksPerItem), linksPerItem >= 1 ? 10 : linksPerItem >= 0.5 ? 5 : 0);

  // Night-time activity that the author's own history does not explain.
  const earlierTotal = total - lastHourCount;
  const earlierNightShare = earlierTotal > 0 ? (facts.nightContent - facts.hourNightCount) / earlierTotal : 0;
  const nightBurst = facts.hourBucket >= hourNow - 1 && facts.hourNightCount >= 5 && earlierTotal >= 5 && earlierNightShare < 0.2;
  add('night_burst', facts.hourBucket >= hourNow - 1 ? facts.hourNightCount : 0, nightBurst ? 10 : 0);

  const vouched = facts.metadata.identity_verified === true || facts.metadata.is_paying_customer === true;
  add('verified_identity', vouched, vouched ? -10 : 0);

  const level = signals.reduce((sum, s) => sum + s.contribution, 0);
  return { risk_level: Math.max(0, Math.min(100, level)), signals };
}

/** Whether a timestamp falls in the night-time window (00:00–05:59 UTC). */
export const isNightTime = (at: number) => new Date(at).getUTCHours() < 6;

