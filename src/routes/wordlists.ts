import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../schemas/common.ts';
import {
  AddWordsBody,
  AddWordsResponse,
  CreateWordlistBody,
  EmbeddingStatusSchema,
  RemoveWordsQuery,
  RemoveWordsResponse,
  UpdateWordlistBody,
  WordlistIdParams,
  WordlistSchema,
  WordlistSummarySchema,
} from '../schemas/wordlists.ts';
import {
  addWords,
  createWordlist,
  deleteWordlist,
  embeddingStatus,
  getWordlist,
  listWordlists,
  removeWords,
  updateWordlist,
} from '../services/wordlists.ts';

const tags = ['wordlists'];

/** `?words=a,b` as the SDK sends it (qs comma format), or repeated `words=` parameters. */
const splitWords = (raw: string | string[]) => (Array.isArray(raw) ? raw : [raw]).flatMap((part) => part.split(','));

export async function wordlistRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const db = app.deps.db;

  app.get(
    '/wordlist',
    { schema: { summary: 'List wordlists', tags, response: { 200: Type.Array(WordlistSummarySchema), ...errorResponses() } } },
    async (request) => listWordlists(db, request.principal.projectId),
  );

  app.post(
    '/wordlist',
    { schema: { summary: 'Create a wordlist', tags, body: CreateWordlistBody, response: { 201: WordlistSchema, ...errorResponses(409) } } },
    async (request, reply) => reply.status(201).send(await createWordlist(db, request.principal.projectId, request.body)),
  );

  app.get(
    '/wordlist/:id',
    { schema: { summary: 'Get a wordlist by id (or key)', tags, params: WordlistIdParams, response: { 200: WordlistSchema, ...errorResponses(404) } } },
    async (request) => getWordlist(db, request.principal.projectId, request.params.id),
  );

  app.put(
    '/wordlist/:id',
    {
      schema: {
        summary: 'Update a wordlist; `words` replaces all words',
        tags,
        params: WordlistIdParams,
        body: UpdateWordlistBody,
        response: { 200: WordlistSchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => updateWordlist(db, request.principal.projectId, request.params.id, request.body),
  );

  app.delete(
    '/wordlist/:id',
    { schema: { summary: 'Delete a wordlist', tags, params: WordlistIdParams, response: { 200: WordlistSchema, ...errorResponses(404) } } },
    async (request) => deleteWordlist(db, request.principal.projectId, request.params.id),
  );

  app.get(
    '/wordlist/:id/embedding-status',
    {
      schema: {
        summary: 'Indexing progress of a wordlist (synchronous: always complete)',
        tags,
        params: WordlistIdParams,
        response: { 200: EmbeddingStatusSchema, ...errorResponses(404) },
      },
    },
    async (request) => embeddingStatus(db, request.principal.projectId, request.params.id),
  );

  app.post(
    '/wordlist/:id/words',
    {
      schema: {
        summary: 'Add words to a wordlist',
        tags,
        params: WordlistIdParams,
        body: AddWordsBody,
        response: { 200: AddWordsResponse, ...errorResponses(404) },
      },
    },
    async (request) => addWords(db, request.principal.projectId, request.params.id, request.body.words),
  );

  app.delete(
    '/wordlist/:id/words',
    {
      schema: {
        summary: 'Remove words from a wordlist (query `words=a,b,c`)',
        tags,
        params: WordlistIdParams,
        querystring: RemoveWordsQuery,
        response: { 200: RemoveWordsResponse, ...errorResponses(404) },
      },
    },
    async (request) => removeWords(db, request.principal.projectId, request.params.id, splitWords(request.query.words)),
  );
}
