import type { Queryable } from '../db/database.ts';
import { badRequest } from '../errors.ts';
import { TtlCache } from '../lib/ttl-cache.ts';
import { expectOk, outboundFetch, OutboundError } from '../net/outbound.ts';
import { getSigningSecrets } from './webhooks.ts';

/**
 * Custom data: when a moderator opens an author, the server asks the customer's endpoint for
 * extra facts to show beside the author (never the browser: the endpoint gets the project's
 * webhook signing secret). Contract (docs/dashboard.md#custom-data):
 *
 *   POST <endpoint>  X-Webhook-Secret: <secret>  + the configured headers
 *   {"version": 1, "projectId": "...", "author": {"externalId": "...", "email": "..." | null}}
 *   → 200 {"version": 1, "items": [CustomDataItem, ...]}
 *
 * Items of unknown kinds and invalid items are skipped and counted; an endpoint that is slow,
 * failing or answers garbage yields a quiet `unavailable`, never an error.
 */

export const CUSTOM_DATA_VERSION = 1;
const MAX_HEADERS = 20;
const MAX_ITEMS = 200;
const MAX_TEXT = 1000;
const FORBIDDEN_HEADERS = new Set(['content-type', 'content-length', 'host', 'x-webhook-secret', 'connection', 'transfer-encoding', 'cookie', 'expect', 'upgrade', 'te']);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

export interface CustomDataSettings {
  enabled: boolean;
  endpointUrl: string | null;
  headers: Array<{ name: string; hasValue: true }>;
  updatedAt: number | null;
  updatedBy: string | null;
}

interface StoredSettings {
  enabled: boolean;
  endpointUrl: string | null;
  headers: Array<{ name: string; value: string }>;
  updatedAt: number | null;
  updatedBy: string | null;
}

async function storedSettings(db: Queryable, projectId: string): Promise<StoredSettings> {
  const { rows } = await db.query('SELECT * FROM custom_data_settings WHERE project_id = $1', [projectId]);
  const r = rows[0];
  if (!r) return { enabled: false, endpointUrl: null, headers: [], updatedAt: null, updatedBy: null };
  return {
    enabled: r.enabled as boolean,
    endpointUrl: (r.endpoint_url as string | null) ?? null,
    headers: r.headers as Array<{ name: string; value: string }>,
    updatedAt: Number(r.updated_at),
    updatedBy: (r.updated_by as string | null) ?? null,
  };
}

/** The settings as the dashboard shows them: header values are write-only. */
export async function getCustomDataSettings(db: Queryable, projectId: string): Promise<CustomDataSettings> {
  const s = await storedSettings(db, projectId);
  return { ...s, headers: s.headers.map((h) => ({ name: h.name, hasValue: true as const })) };
}

export interface CustomDataSettingsInput {
  enabled: boolean;
  endpointUrl: string | null;
  /** A header without `value` keeps the value stored under that name. */
  headers: Array<{ name: string; value?: string }>;
}

function checkEndpoint(url: string | null, enabled: boolean): string | null {
  if (url === null || url.trim() === '') {
    if (enabled) throw badRequest('An enabled integration needs an endpoint URL', [{ message: 'required when enabled', path: '/endpointUrl' }]);
    return null;
  }
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw badRequest('The endpoint URL is not a valid URL', [{ message: 'invalid URL', path: '/endpointUrl' }]);
  }
  if (parsed.protocol !== 'https:') throw badRequest('The endpoint URL must use https', [{ message: 'https only', path: '/endpointUrl' }]);
  if (parsed.username || parsed.password) throw badRequest('The endpoint URL must not carry credentials; use a header instead', [{ message: 'no credentials in URLs', path: '/endpointUrl' }]);
  if (parsed.hash) throw badRequest('The endpoint URL must not have a #fragment', [{ message: 'no fragment', path: '/endpointUrl' }]);
  return parsed.toString();
}

export async function saveCustomDataSettings(db: Queryable, projectId: string, input: CustomDataSettingsInput, updatedBy: string): Promise<CustomDataSettings> {
  const endpointUrl = checkEndpoint(input.endpointUrl, input.enabled);
  if (input.headers.length > MAX_HEADERS) throw badRequest(`At most ${MAX_HEADERS} headers`, [{ message: 'too many headers', path: '/headers' }]);
  const current = await storedSettings(db, projectId);
  const previous = new Map(current.headers.map((h) => [h.name.toLowerCase(), h.value]));
  const seen = new Set<string>();
  const headers = input.headers.map((h, i) => {
    const lower = h.name.toLowerCase();
    if (!HEADER_NAME.test(h.name)) throw badRequest(`Header name "${h.name}" is not a valid HTTP header name`, [{ message: 'invalid header name', path: `/headers/${i}/name` }]);
    if (FORBIDDEN_HEADERS.has(lower)) throw badRequest(`Header "${h.name}" is set by the service and cannot be configured`, [{ message: 'reserved header', path: `/headers/${i}/name` }]);
    if (seen.has(lower)) throw badRequest(`Header "${h.name}" is listed twice`, [{ message: 'duplicate header', path: `/headers/${i}/name` }]);
    seen.add(lower);
    const value = h.value ?? previous.get(lower);
    if (value === undefined) throw badRequest(`Header "${h.name}" needs a value`, [{ message: 'value required for a new header', path: `/headers/${i}/value` }]);
    if (/[\r\n\0]/.test(value) || value.length > 4000) throw badRequest(`The value of header "${h.name}" must be one line of at most 4000 characters`, [{ message: 'invalid header value', path: `/headers/${i}/value` }]);
    return { name: h.name, value };
  });
  await db.query(
    `INSERT INTO custom_data_settings (project_id, enabled, endpoint_url, headers, updated_at, updated_by) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (project_id) DO UPDATE SET enabled = EXCLUDED.enabled, endpoint_url = EXCLUDED.endpoint_url, headers = EXCLUDED.headers,
       updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by`,
    [projectId, input.enabled, endpointUrl, JSON.stringify(headers), Date.now(), updatedBy],
  );
  answers.deleteWhere((key) => key.startsWith(`${projectId}\u0000`));
  return getCustomDataSettings(db, projectId);
}

// ---------------------------------------------------------------- items

export type CustomDataItem =
  | { type: 'field'; label?: string; value: string; tooltip?: string }
  | { type: 'status'; label?: string; value: string; variant?: 'default' | 'success' | 'warning' | 'danger' | 'info'; tooltip?: string }
  | { type: 'link'; label: string; url: string; variant?: 'default' | 'outline' | 'ghost'; tooltip?: string }
  | { type: 'metric'; label: string; value: string; tooltip?: string }
  | { type: 'heading'; label: string }
  | { type: 'separator' };

type FieldRule = 'required' | 'optional';
const KINDS: Record<string, { fields: Record<string, FieldRule>; variants?: readonly string[] }> = {
  field: { fields: { label: 'optional', value: 'required', tooltip: 'optional' } },
  status: { fields: { label: 'optional', value: 'required', variant: 'optional', tooltip: 'optional' }, variants: ['default', 'success', 'warning', 'danger', 'info'] },
  link: { fields: { label: 'required', url: 'required', variant: 'optional', tooltip: 'optional' }, variants: ['default', 'outline', 'ghost'] },
  metric: { fields: { label: 'required', value: 'required', tooltip: 'optional' } },
  heading: { fields: { label: 'required' } },
  separator: { fields: {} },
};

export const CUSTOM_DATA_KINDS = Object.keys(KINDS);

/** One item as the endpoint sent it: the valid item, 'unknown' for a kind we do not know, or 'invalid'. */
export function parseCustomDataItem(raw: unknown): CustomDataItem | 'unknown' | 'invalid' {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'invalid';
  const record = raw as Record<string, unknown>;
  if (typeof record.type !== 'string') return 'invalid';
  const kind = KINDS[record.type];
  if (!kind) return 'unknown';
  const item: Record<string, unknown> = { type: record.type };
  for (const [field, rule] of Object.entries(kind.fields)) {
    let value = record[field];
    // Figures are often sent as numbers; they are shown as text.
    if (typeof value === 'number' && Number.isFinite(value) && field === 'value') value = String(value);
    if (value === undefined || value === null) {
      if (rule === 'required') return 'invalid';
      continue;
    }
    if (typeof value !== 'string' || value.length > (field === 'url' ? 2048 : MAX_TEXT)) return 'invalid';
    if (rule === 'required' && value.trim() === '') return 'invalid';
    item[field] = value;
  }
  if (item.variant !== undefined && !kind.variants!.includes(item.variant as string)) return 'invalid';
  if (item.url !== undefined) {
    try {
      const url = new URL(item.url as string);
      if (url.protocol !== 'https:') return 'invalid';
    } catch {
      return 'invalid';
    }
  }
  return item as CustomDataItem;
}

export type CustomDataAnswer =
  | { status: 'disabled' }
  | { status: 'unavailable'; reason: 'timeout' | 'error' | 'invalid_response' }
  | { status: 'ok'; items: CustomDataItem[]; skipped: { unknownKind: number; invalid: number }; fetchedAt: number; cached: boolean };

export function parseCustomDataResponse(text: string, now = Date.now()): CustomDataAnswer {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { status: 'unavailable', reason: 'invalid_response' };
  }
  const record = body as { version?: unknown; items?: unknown };
  if (typeof body !== 'object' || body === null || record.version !== CUSTOM_DATA_VERSION || !Array.isArray(record.items)) {
    return { status: 'unavailable', reason: 'invalid_response' };
  }
  const items: CustomDataItem[] = [];
  const skipped = { unknownKind: 0, invalid: 0 };
  for (const raw of record.items.slice(0, MAX_ITEMS)) {
    const parsed = parseCustomDataItem(raw);
    if (parsed === 'unknown') skipped.unknownKind++;
    else if (parsed === 'invalid') skipped.invalid++;
    else items.push(parsed);
  }
  skipped.invalid += Math.max(0, record.items.length - MAX_ITEMS);
  return { status: 'ok', items, skipped, fetchedAt: now, cached: false };
}

// Entries carry their own end (the configured cache time); the cache's TTL is only an upper bound.
const answers = new TtlCache<{ answer: CustomDataAnswer; until: number }>(3_600_000);

export interface CustomDataCallOptions {
  timeoutMs: number;
  maxResponseBytes: number;
  cacheMs: number;
  allowPrivate: boolean;
  ca: string | null;
}

/** The endpoint's answer about one author; cached per author for `cacheMs` (failures too, so a down endpoint is not hammered). */
export async function fetchCustomData(
  db: Queryable,
  projectId: string,
  author: { externalId: string; email: string | null },
  options: CustomDataCallOptions,
): Promise<CustomDataAnswer> {
  const settings = await storedSettings(db, projectId);
  if (!settings.enabled || settings.endpointUrl === null) return { status: 'disabled' };
  const key = `${projectId}\u0000${settings.updatedAt}\u0000${author.externalId}`;
  const now = Date.now();
  const cached = answers.get(key, now);
  if (cached !== undefined && cached.until > now) return cached.answer.status === 'ok' ? { ...cached.answer, cached: true } : cached.answer;
  const answer = await callEndpoint(db, projectId, settings, author, options);
  if (options.cacheMs > 0) answers.set(key, { answer, until: Date.now() + options.cacheMs });
  return answer;
}

async function callEndpoint(
  db: Queryable,
  projectId: string,
  settings: StoredSettings,
  author: { externalId: string; email: string | null },
  options: CustomDataCallOptions,
): Promise<CustomDataAnswer> {
  // Checked again at call time: a URL stored before a rule changed must still be https.
  if (!settings.endpointUrl!.startsWith('https://')) return { status: 'unavailable', reason: 'error' };
  const secrets = await getSigningSecrets(db, projectId);
  const headers: Record<string, string> = {};
  for (const h of settings.headers) headers[h.name] = h.value;
  headers['content-type'] = 'application/json';
  headers['x-webhook-secret'] = secrets.current;
  headers['user-agent'] = 'OpenModeration-CustomData/1';
  const body = JSON.stringify({ version: CUSTOM_DATA_VERSION, projectId, author: { externalId: author.externalId, email: author.email } });
  try {
    const response = expectOk(
      await outboundFetch(settings.endpointUrl!, {
        method: 'POST',
        headers,
        body,
        timeoutMs: options.timeoutMs,
        maxBytes: options.maxResponseBytes,
        allowPrivate: options.allowPrivate,
        maxRedirects: 0,
        ...(options.ca ? { ca: options.ca } : {}),
      }),
    );
    if (response.status !== 200) return { status: 'unavailable', reason: 'invalid_response' };
    return parseCustomDataResponse(response.body.toString('utf8'));
  } catch (error) {
    if (error instanceof OutboundError && error.code === 'timeout') return { status: 'unavailable', reason: 'timeout' };
    return { status: 'unavailable', reason: 'error' };
  }
}
