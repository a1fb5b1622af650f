/**
 * Entity settings of the `pii` and `url` policies, in the per-request override
 * shape of the SDK (`{ id, flag?, entities: { [entity]: { enable, flag, shouldMask, mask } } }`).
 */

export const PII_ENTITIES = [
  'email',
  'phone',
  'url',
  'address',
  'name',
  'username',
  'ip_address',
  'credit_card',
  'sensitive_other',
] as const;

/**
 * The url policy classifies every link as exactly one of these: the most
 * specific kind wins (shortener > ip_host > obfuscated_url > url).
 */
export const URL_ENTITIES = ['url', 'shortener', 'ip_host', 'obfuscated_url'] as const;

export type PiiEntity = (typeof PII_ENTITIES)[number];
export type UrlEntity = (typeof URL_ENTITIES)[number];
export type EntityPolicyId = 'pii' | 'url';

export interface EntityOverride {
  enable?: boolean;
  flag?: boolean;
  shouldMask?: boolean;
  mask?: string;
}

export interface EntitySettings {
  id: EntityPolicyId;
  flag?: boolean;
  entities?: Record<string, EntityOverride>;
}

export interface ResolvedEntity {
  enable: boolean;
  flag: boolean;
  shouldMask: boolean;
  mask: string;
}

export interface ResolvedEntitySettings {
  policyFlag: boolean;
  entities: Map<string, ResolvedEntity>;
}

/**
 * Noisy, heuristic entities (name, address, username) are off by default;
 * everything with a precise shape or a checksum is on.
 */
const DEFAULT_ENABLED: Record<EntityPolicyId, ReadonlySet<string>> = {
  pii: new Set(['email', 'phone', 'url', 'ip_address', 'credit_card', 'sensitive_other']),
  url: new Set(URL_ENTITIES),
};

export function entityNames(policyId: EntityPolicyId): readonly string[] {
  return policyId === 'pii' ? PII_ENTITIES : URL_ENTITIES;
}

export function defaultMask(entity: string): string {
  return `{{ ${entity.replace(/_/g, ' ')} hidden }}`;
}

export interface SettingsIssue {
  message: string;
  path: string;
}

export type ParseResult =
  | { ok: true; value: EntitySettings }
  | { ok: false; issues: SettingsIssue[] };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Validates stored or per-request settings; unknown entities and wrong types are reported, not ignored. */
export function parseEntitySettings(policyId: EntityPolicyId, raw: unknown): ParseResult {
  const issues: SettingsIssue[] = [];
  if (!isRecord(raw)) return { ok: false, issues: [{ message: 'settings must be an object', path: '' }] };
  if (raw.id !== undefined && raw.id !== policyId) {
    issues.push({ message: `id must be '${policyId}'`, path: 'id' });
  }
  if (raw.flag !== undefined && typeof raw.flag !== 'boolean') {
    issues.push({ message: 'flag must be a boolean', path: 'flag' });
  }
  const entities: Record<string, EntityOverride> = {};
  if (raw.entities !== undefined) {
    if (!isRecord(raw.entities)) {
      issues.push({ message: 'entities must be an object', path: 'entities' });
    } else {
      const known = new Set(entityNames(policyId));
      for (const [name, value] of Object.entries(raw.entities)) {
        const path = `entities.${name}`;
        if (!known.has(name)) {
          issues.push({ message: `unknown entity '${name}' (known: ${[...known].join(', ')})`, path });
          continue;
        }
        if (!isRecord(value)) {
          issues.push({ message: 'entity settings must be an object', path });
          continue;
        }
        const override: EntityOverride = {};
        for (const key of ['enable', 'flag', 'shouldMask'] as const) {
          const setting = value[key];
          if (setting === undefined) continue;
          if (typeof setting !== 'boolean') issues.push({ message: `${key} must be a boolean`, path: `${path}.${key}` });
          else override[key] = setting;
        }
        if (value.mask !== undefined) {
          if (typeof value.mask !== 'string') issues.push({ message: 'mask must be a string', path: `${path}.mask` });
          else override.mask = value.mask;
        }
        entities[name] = override;
      }
    }
  }
  if (issues.length > 0) return { ok: false, issues };
  const value: EntitySettings = { id: policyId, entities };
  if (typeof raw.flag === 'boolean') value.flag = raw.flag;
  return { ok: true, value };
}

/**
 * Merges overrides over the defaults. Lenient on purpose: evaluation must not
 * fail on settings that were validated (or not) elsewhere, so bad values fall
 * back to the default.
 */
export function resolveEntitySettings(policyId: EntityPolicyId, raw: unknown): ResolvedEntitySettings {
  const record = isRecord(raw) ? raw : {};
  const overrides = isRecord(record.entities) ? record.entities : {};
  const entities = new Map<string, ResolvedEntity>();
  for (const name of entityNames(policyId)) {
    const override = isRecord(overrides[name]) ? (overrides[name] as Record<string, unknown>) : {};
    const enable = typeof override.enable === 'boolean' ? override.enable : DEFAULT_ENABLED[policyId].has(name);
    entities.set(name, {
      enable,
      flag: typeof override.flag === 'boolean' ? override.flag : true,
      shouldMask: typeof override.shouldMask === 'boolean' ? override.shouldMask : false,
      mask: typeof override.mask === 'string' ? override.mask : defaultMask(name),
    });
  }
  return { policyFlag: record.flag !== false, entities };
}
