/**
 * The `pii` and `url` entity-matcher policies. They only find and describe
 * matches; the pipeline applies `replacement`s (merging spans of all policies).
 */
import type { EntityMatch, FieldResult, Policy, PolicySettings } from '../policy.ts';
import { detectPii, detectUrlEntities } from './detect.ts';
import { renderMask } from './mask.ts';
import { resolveEntitySettings, type EntityPolicyId, type ResolvedEntitySettings } from './settings.ts';
import type { DetectedEntity } from './types.ts';

export { parseEntitySettings, PII_ENTITIES, URL_ENTITIES, defaultMask } from './settings.ts';
export type { EntitySettings, EntityOverride, ParseResult } from './settings.ts';
export { renderMask } from './mask.ts';
export { detectPii, detectUrlEntities } from './detect.ts';
export type { DetectedEntity } from './types.ts';

const EMPTY: FieldResult = Object.freeze({ probability: 0, matches: [], flagged: false }) as FieldResult;

// Settings objects are reused across the fields of a submission; resolve each once.
const resolvedCache = new WeakMap<object, ResolvedEntitySettings>();

function resolved(policyId: EntityPolicyId, settings: PolicySettings): ResolvedEntitySettings {
  let value = resolvedCache.get(settings);
  if (!value) {
    value = resolveEntitySettings(policyId, settings);
    resolvedCache.set(settings, value);
  }
  return value;
}

function toFieldResult(text: string, found: DetectedEntity[], config: ResolvedEntitySettings): FieldResult {
  if (found.length === 0) return { ...EMPTY, matches: [] };
  const matches: EntityMatch[] = [];
  let probability = 0;
  let flagged = false;
  for (const entity of found) {
    const entitySettings = config.entities.get(entity.entity);
    if (!entitySettings) continue;
    const matched = text.slice(entity.start, entity.end);
    const match: EntityMatch = { match: matched, probability: entity.probability, span: [entity.start, entity.end] };
    if (entitySettings.shouldMask) match.replacement = renderMask(entitySettings.mask, matched);
    matches.push(match);
    probability = Math.max(probability, entity.probability);
    if (entitySettings.flag) flagged = true;
  }
  return { probability, matches, flagged: flagged && config.policyFlag };
}

function createEntityPolicy(policyId: EntityPolicyId, severity: number): Policy {
  const detect = policyId === 'pii' ? detectPii : detectUrlEntities;
  return {
    id: policyId,
    type: 'entity_matcher',
    severity,
    defaultThreshold: 0.5,
    evaluate(text, settings) {
      const config = resolved(policyId, settings);
      const found = detect(text, (entity) => config.entities.get(entity)?.enable === true);
      return toFieldResult(text, found, config);
    },
  };
}

export const piiPolicy: Policy = createEntityPolicy('pii', 0.5);
export const urlPolicy: Policy = createEntityPolicy('url', 0.3);
