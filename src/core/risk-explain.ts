import type { RiskSignal } from './risk.ts';

/**
 * Each risk signal in words, for a moderator reading why an author scores as they do. Pure:
 * the sentence says what was observed and what it did to the level.
 */

const DAY_MS = 86_400_000;

const effect = (points: number) => (points > 0 ? `adds ${points} point${points === 1 ? '' : 's'}` : points < 0 ? `lowers the level by ${-points}` : 'adds nothing');

const percent = (ratio: number) => `${Math.round(ratio * 100)}%`;

export function explainRiskSignal(signal: RiskSignal, now = Date.now()): string {
  const v = signal.value;
  const points = effect(signal.contribution);
  switch (signal.id) {
    case 'account_age': {
      const days = Number(v);
      return `First seen ${days < 1 ? 'less than a day' : `${Math.floor(days)} day${Math.floor(days) === 1 ? '' : 's'}`} ago; new accounts are riskier — ${points}.`;
    }
    case 'disposable_email':
      return v === true ? `The email address is from a disposable-address provider — ${points}.` : `The email address is not from a known disposable-address provider — ${points}.`;
    case 'email_unverified':
      return v === true ? `Email verified (metadata email_verified) — ${points}.` : v === false ? `Email not verified (metadata email_verified is false) — ${points}.` : `Email verification unknown (no email_verified metadata) — ${points}.`;
    case 'phone_unverified':
      return v === true ? `Phone verified (metadata phone_verified) — ${points}.` : v === false ? `Phone not verified (metadata phone_verified is false) — ${points}.` : `Phone verification unknown (no phone_verified metadata) — ${points}.`;
    case 'posting_velocity':
      return `${Number(v)} item${Number(v) === 1 ? '' : 's'} posted in the last hour (20 or more is fast, 60 or more very fast) — ${points}.`;
    case 'posting_burst':
      return `At most ${Number(v)} item${Number(v) === 1 ? '' : 's'} posted within one minute (5 or more is a burst) — ${points}.`;
    case 'duplicate_content':
      return `${Number(v)} item${Number(v) === 1 ? '' : 's'} repeated text another author had already posted — ${points}.`;
    case 'flagged_ratio':
      return `${percent(Number(v))} of the author's content was flagged — ${points}.`;
    case 'recent_incident': {
      if (v === null) return `No block or flagged item on record — ${points}.`;
      const days = Math.floor((now - Number(v)) / DAY_MS);
      return `Last incident (flagged item or block) ${days < 1 ? 'today' : `${days} day${days === 1 ? '' : 's'} ago`}; incidents within 7 days weigh most, within 30 days less — ${points}.`;
    }
    case 'unicode_spoofing':
      return `${Number(v)} item${Number(v) === 1 ? '' : 's'} used disguised text (lookalike or invisible characters) — ${points}.`;
    case 'link_density':
      return `${Number(v)} link${Number(v) === 1 ? '' : 's'} per item on average (0.5 or more is link-heavy) — ${points}.`;
    case 'night_burst':
      return `${Number(v)} item${Number(v) === 1 ? '' : 's'} posted at night (00–06 UTC) in the last hour, unusual for this author's history — ${points}.`;
    case 'verified_identity':
      return v === true ? `Identity verified or a paying customer (metadata) — ${points}.` : `Neither identity verified nor a paying customer — ${points}.`;
    default:
      return `${signal.id}: ${String(v)} — ${points}.`;
  }
}
