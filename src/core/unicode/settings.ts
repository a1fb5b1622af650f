import { UNICODE_SIGNALS, type UnicodeSignal } from './types.ts';

export type UnicodeSpoofingMode = 'flag' | 'shadow';

export interface UnicodeSpoofingSettings {
  id: 'unicode_spoofing';
  flag: boolean;
  mode?: UnicodeSpoofingMode;
  signals?: Partial<Record<UnicodeSignal, boolean>>;
  threshold?: number;
}

export interface SettingsIssue {
  message: string;
  path: string;
}

export type ParseResult =
  | { ok: true; value: UnicodeSpoofingSettings }
  | { ok: false; issues: SettingsIssue[] };

const KNOWN_KEYS = new Set(['id', 'flag', 'mode', 'signals', 'threshold']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Validates the policy's settings as stored on a channel or sent as a
 * per-request override. Unknown keys are rejected so that a typo in a signal
 * name cannot silently leave a signal enabled.
 */
export function parseUnicodeSettings(raw: unknown): ParseResult {
  const issues: SettingsIssue[] = [];
  if (!isPlainObject(raw)) {
    return { ok: false, issues: [{ message: 'settings must be an object', path: '' }] };
  }
  for (const key of Object.keys(raw)) {
    if (!KNOWN_KEYS.has(key)) issues.push({ message: `unknown setting "${key}"`, path: key });
  }
  if (raw.id !== 'unicode_spoofing') {
    issues.push({ message: 'id must be "unicode_spoofing"', path: 'id' });
  }
  if (typeof raw.flag !== 'boolean') {
    issues.push({ message: 'flag must be a boolean', path: 'flag' });
  }
  if (raw.mode !== undefined && raw.mode !== 'flag' && raw.mode !== 'shadow') {
    issues.push({ message: 'mode must be "flag" or "shadow"', path: 'mode' });
  }
  if (raw.threshold !== undefined) {
    const threshold = raw.threshold;
    if (typeof threshold !== 'number' || !Number.isFinite(threshold) || threshold < 0 || threshold > 1) {
      issues.push({ message: 'threshold must be a number between 0 and 1', path: 'threshold' });
    }
  }
  let signals: Partial<Record<UnicodeSignal, boolean>> | undefined;
  if (raw.signals !== undefined) {
    if (!isPlainObject(raw.signals)) {
      issues.push({ message: 'signals must be an object', path: 'signals' });
    } else {
      signals = {};
      for (const [name, enabled] of Object.entries(raw.signals)) {
        if (!(UNICODE_SIGNALS as readonly string[]).includes(name)) {
          issues.push({ message: `unknown signal "${name}" (expected one of ${UNICODE_SIGNALS.join(', ')})`, path: `signals.${name}` });
        } else if (typeof enabled !== 'boolean') {
          issues.push({ message: 'signal switch must be a boolean', path: `signals.${name}` });
        } else {
          signals[name as UnicodeSignal] = enabled;
        }
      }
    }
  }
  if (issues.length > 0) return { ok: false, issues };
  const value: UnicodeSpoofingSettings = { id: 'unicode_spoofing', flag: raw.flag as boolean };
  if (raw.mode !== undefined) value.mode = raw.mode as UnicodeSpoofingMode;
  if (signals !== undefined) value.signals = signals;
  if (raw.threshold !== undefined) value.threshold = raw.threshold as number;
  return { ok: true, value };
}
