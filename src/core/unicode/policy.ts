import type { FieldResult, Policy, PolicyContext, PolicySettings } from '../policy.ts';
import { analyzeUnicode } from './analyze.ts';
import { UNICODE_SIGNALS, type UnicodeAnalysis, type UnicodeSignal } from './types.ts';

export { parseUnicodeSettings } from './settings.ts';
export type { UnicodeSpoofingSettings, ParseResult, SettingsIssue } from './settings.ts';

/** Key under which the pipeline shares the analysis of a field in `ctx.analyses`. */
export const UNICODE_ANALYSIS_KEY = 'unicode';

const SAMPLE_WORD_LIMIT = 10;

function isAnalysis(value: unknown): value is UnicodeAnalysis {
  return (
    typeof value === 'object' &&
    value !== null &&
    'signals' in value &&
    'findings' in value &&
    Array.isArray((value as UnicodeAnalysis).findings)
  );
}

function signalEnabled(settings: PolicySettings, signal: UnicodeSignal): boolean {
  const switches = settings.signals;
  if (typeof switches !== 'object' || switches === null) return true;
  return (switches as Record<string, unknown>)[signal] !== false;
}

function sampleWords(analysis: UnicodeAnalysis): string[] {
  const samples: string[] = [];
  const seen = new Set<string>();
  for (const finding of analysis.findings) {
    if (samples.length >= SAMPLE_WORD_LIMIT) break;
    if (seen.has(finding.word)) continue;
    seen.add(finding.word);
    samples.push(finding.word);
  }
  return samples;
}

export const unicodeSpoofingPolicy: Policy = {
  id: 'unicode_spoofing',
  type: 'classifier',
  severity: 0.4,
  defaultThreshold: 0.5,

  evaluate(text: string, settings: PolicySettings, ctx: PolicyContext): FieldResult {
    // Detection always looks at what the author sent, never at normalized text.
    const shared = ctx.analyses.get(UNICODE_ANALYSIS_KEY);
    let analysis: UnicodeAnalysis;
    if (isAnalysis(shared)) {
      analysis = shared;
    } else {
      analysis = analyzeUnicode(text);
      ctx.analyses.set(UNICODE_ANALYSIS_KEY, analysis);
    }

    const mayFlag = settings.flag !== false && settings.mode !== 'shadow';
    let anyEnabledFired = false;
    const labels = UNICODE_SIGNALS.map((signal) => {
      const detected = analysis.signals[signal];
      const enabled = signalEnabled(settings, signal);
      if (detected && enabled) anyEnabledFired = true;
      return { id: signal, probability: detected ? 1 : 0, flagged: detected && enabled && mayFlag };
    });

    return {
      probability: anyEnabledFired ? 1 : 0,
      flagged: anyEnabledFired && mayFlag,
      labels,
      data: {
        counts: { words_total: analysis.wordsTotal, words_affected: analysis.wordsAffected },
        sample_words: sampleWords(analysis),
      },
    };
  },

  mergeData(perField: Array<Record<string, unknown> | undefined>): Record<string, unknown> | undefined {
    let wordsTotal = 0;
    let wordsAffected = 0;
    const samples: string[] = [];
    let sawAny = false;
    for (const data of perField) {
      if (!data) continue;
      sawAny = true;
      const counts = data.counts as { words_total?: unknown; words_affected?: unknown } | undefined;
      if (counts && typeof counts.words_total === 'number') wordsTotal += counts.words_total;
      if (counts && typeof counts.words_affected === 'number') wordsAffected += counts.words_affected;
      if (Array.isArray(data.sample_words)) {
        for (const word of data.sample_words) {
          if (samples.length >= SAMPLE_WORD_LIMIT) break;
          if (typeof word === 'string' && !samples.includes(word)) samples.push(word);
        }
      }
    }
    if (!sawAny) return undefined;
    return { counts: { words_total: wordsTotal, words_affected: wordsAffected }, sample_words: samples };
  },
};
