import type { FieldResult, Policy, PolicySettings, PolicyContext } from '../core/policy.ts';
import type { UnicodeAnalysis } from '../core/unicode/types.ts';
import { bindPolicy, isPortablePolicy } from '../policies/registry.ts';
import { findInsight, type InsightResult, type InsightScratch } from '../policies/insights.ts';
import { prepareText, type PreparedField } from './prepare-text.ts';

/**
 * The CPU-bound part of the pipeline for the text fields of one request: normalization, the
 * built-in policies and the insights. Pure, so that the pipeline can run it on the event loop for
 * short texts and in a worker thread for long ones (text-workers.ts) with the same result.
 */
export interface TextJob {
  fields: Array<{ key: string | null; text: string }>;
  normalize: boolean;
  /** Every policy of the request, in order; only the portable ones run here. */
  settings: PolicySettings[];
  insights: string[];
}

export interface TextAnalysis {
  fields: Array<{ key: string | null; original: string; text: string; unicode: UnicodeAnalysis | null }>;
  /** Per entry of `settings`: the per-field results of a portable policy, its error, or null (not run here). */
  outcomes: Array<{ perField: FieldResult[] } | { error: string } | null>;
  insights: InsightResult[];
}

/** Runs one policy over one prepared field. */
export function evaluateField(policy: Policy, settings: PolicySettings, field: PreparedField): FieldResult | Promise<FieldResult> {
  const ctx: PolicyContext = { fieldKey: field.key, original: field.original, analyses: field.analyses };
  return policy.evaluate(policy.id === 'unicode_spoofing' ? field.original : field.text, settings, ctx);
}

export function runInsights(ids: readonly string[], fields: readonly PreparedField[]): InsightResult[] {
  if (ids.length === 0) return [];
  const text = fields.map((f) => f.text).join('\n');
  const results: InsightResult[] = [];
  const scratch: InsightScratch = {};
  for (const id of ids) {
    const insight = findInsight(id);
    if (!insight) continue;
    const { value, probability } = insight.run(text, scratch);
    results.push({ id, type: 'insight', probability: round(probability), value });
  }
  return results;
}

const noEnvironment = () => {
  throw new Error('A portable policy asked for the request environment');
};

export function analyseTexts(job: TextJob): TextAnalysis {
  const prepared = job.fields.map((field) => prepareText(field.key, field.text, job.normalize, job.settings));
  const outcomes = job.settings.map((settings) => {
    if (!isPortablePolicy(settings)) return null;
    const policy = bindPolicy(settings, noEnvironment);
    try {
      return {
        perField: prepared.map((field) => {
          const result = evaluateField(policy, settings, field);
          if (result instanceof Promise) throw new Error(`Policy ${settings.id} answered asynchronously`);
          return result;
        }),
      };
    } catch (error) {
      return { error: error instanceof Error ? error.message : `Policy ${settings.id} failed` };
    }
  });
  return {
    fields: prepared.map(({ key, original, text, unicode }) => ({ key, original, text, unicode })),
    outcomes,
    insights: runInsights(job.insights, prepared),
  };
}

export const round = (n: number) => Math.round(n * 10_000) / 10_000;
