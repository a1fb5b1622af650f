import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { badRequest, type ErrorIssue } from '../errors.ts';
import { errorResponses } from '../schemas/common.ts';
import {
  AuthorListSchema,
  AuthorSchema,
  CreateAuthorBody,
  DEFAULT_AUTHORS_PAGE_SIZE,
  ListAuthorsQuery,
  MAX_AUTHORS_PAGE_SIZE,
  UpdateAuthorBody,
} from '../schemas/authors.ts';
import {
  CONTENT_TYPE_BITS,
  createAuthor,
  deleteAuthor,
  getAuthor,
  listAuthors,
  updateAuthor,
  type AuthorListQuery,
  type TimeRange,
} from '../services/authors.ts';

const IdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
const tags = ['authors'];

export async function authorRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const db = app.deps.db;

  app.get(
    '/authors',
    { schema: { summary: 'List authors', tags, querystring: ListAuthorsQuery, response: { 200: AuthorListSchema, ...errorResponses() } } },
    async (request) => listAuthors(db, request.principal.projectId, parseListQuery(request.query)),
  );

  app.post(
    '/authors',
    { schema: { summary: 'Create an author ahead of content (200, as the hosted API answers creates)', tags, body: CreateAuthorBody, response: { 200: AuthorSchema, ...errorResponses(409) } } },
    async (request) => createAuthor(db, request.principal.projectId, request.body),
  );

  app.get(
    '/authors/:id',
    { schema: { summary: 'Get an author by id or external id', tags, params: IdParam, response: { 200: AuthorSchema, ...errorResponses(404) } } },
    async (request) => getAuthor(db, request.principal.projectId, request.params.id),
  );

  app.put(
    '/authors/:id',
    {
      schema: { summary: 'Update an author', tags, params: IdParam, body: UpdateAuthorBody, response: { 200: AuthorSchema, ...errorResponses(404) } },
    },
    async (request) => updateAuthor(db, request.principal.projectId, request.params.id, request.body),
  );

  app.delete(
    '/authors/:id',
    {
      schema: {
        summary: 'Delete an author and their content',
        tags,
        params: IdParam,
        response: { 200: Type.Object({ success: Type.Boolean() }), ...errorResponses(404) },
      },
    },
    async (request) => {
      await deleteAuthor(db, request.principal.projectId, request.params.id);
      return { success: true };
    },
  );
}

export function parseListQuery(query: ListAuthorsQuery): AuthorListQuery {
  const issues: ErrorIssue[] = [];
  const integer = (name: 'pageSize' | 'pageNumber', fallback: number, max: number): number => {
    const raw = query[name];
    if (raw === undefined) return fallback;
    const value = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
    if (!(value >= 1 && value <= max)) {
      issues.push({ message: `${name} must be a whole number from 1 to ${max}`, path: `/querystring/${name}` });
      return fallback;
    }
    return value;
  };
  const pageSize = integer('pageSize', DEFAULT_AUTHORS_PAGE_SIZE, MAX_AUTHORS_PAGE_SIZE);
  const pageNumber = integer('pageNumber', 1, 1_000_000);
  const memberSince = parseRange(query.memberSinceDate, 'memberSinceDate', issues);
  const lastActive = parseRange(query.lastActiveDate, 'lastActiveDate', issues);
  let contentTypeMask: number | null = null;
  if (query.contentTypes !== undefined) {
    contentTypeMask = 0;
    for (const type of query.contentTypes.split(',').map((t) => t.trim())) {
      const bit = CONTENT_TYPE_BITS[type];
      if (bit === undefined) {
        issues.push({ message: `Unknown content type "${type}"; use ${Object.keys(CONTENT_TYPE_BITS).join(', ')}`, path: '/querystring/contentTypes' });
      } else contentTypeMask |= bit;
    }
  }
  if (issues.length > 0) throw badRequest('Invalid request querystring', issues);
  return { pageSize, pageNumber, sortBy: query.sortBy ?? null, sortDirection: query.sortDirection ?? 'desc', memberSince, lastActive, contentTypeMask };
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** A point in time: an ISO 8601 date (UTC midnight) or date-time, or milliseconds since the epoch. */
function parseInstant(text: string): number | null {
  if (/^\d{1,16}$/.test(text)) return Number(text);
  if (!ISO_DATE.test(text)) return null;
  const at = Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text);
  return Number.isFinite(at) ? at : null;
}

/** `FROM` (on or after) or `FROM..TO` (TO exclusive); either end of a range may be empty. */
function parseRange(raw: string | undefined, name: string, issues: ErrorIssue[]): TimeRange | null {
  if (raw === undefined) return null;
  const [fromText, toText, ...rest] = raw.split('..');
  const isRange = toText !== undefined;
  const from = fromText ? parseInstant(fromText) : null;
  const to = isRange && toText ? parseInstant(toText) : null;
  const bad =
    rest.length > 0 ||
    (fromText !== '' && from === null) ||
    (isRange && toText !== '' && to === null) ||
    (!isRange && fromText === '') ||
    (from !== null && to !== null && from > to);
  if (bad) {
    issues.push({ message: `${name} must be an ISO 8601 date or time, or a range FROM..TO`, path: `/querystring/${name}` });
    return null;
  }
  return { from, to };
}
