import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ApiError, badRequest, notFound } from '../errors.ts';
import { errorResponses } from '../schemas/common.ts';
import {
  ADD_BODY_LIMIT,
  AddImageHashesBody,
  AddImageHashesResponse,
  AddImageQuery,
  CreateImageHashListBody,
  IMAGE_BODY_LIMIT,
  ImageHashListIdParams,
  ImageHashListSchema,
  ImageHashPageSchema,
  ListImageHashesQuery,
  MatchImageBody,
  MatchImageResponse,
  RemoveImageHashesQuery,
  RemoveImageHashesResponse,
  UpdateImageHashListBody,
} from '../schemas/image-hash-lists.ts';
import {
  addImageBytes,
  addImageHashes,
  createImageHashList,
  deleteImageHashList,
  getImageHashList,
  hashDataUrl,
  listImageHashes,
  listImageHashLists,
  matchImageHashes,
  normalizeHashEntries,
  removeImageHashes,
  updateImageHashList,
} from '../services/image-hash-lists.ts';

const tags = ['image hash lists'];

const splitHashes = (raw: string | string[]) => (Array.isArray(raw) ? raw : [raw]).flatMap((part) => part.split(','));

/** Content types the raw-image route reads as bytes; what the bytes are is decided by decoding them. */
const RAW_IMAGE_TYPES = /^(image\/[\w.+-]+|application\/octet-stream)\s*(;.*)?$/i;

export async function imageHashListRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const db = app.deps.db;
  // The same decompression-bomb limit as images sent for moderation.
  const maxPixels = app.deps.config.media.maxImagePixels;

  app.addContentTypeParser(RAW_IMAGE_TYPES, { parseAs: 'buffer', bodyLimit: IMAGE_BODY_LIMIT }, (_request, body, done) => done(null, body));

  app.get(
    '/image-hashlist',
    { schema: { summary: 'List image hash lists', tags, response: { 200: Type.Array(ImageHashListSchema), ...errorResponses() } } },
    async (request) => listImageHashLists(db, request.principal.projectId),
  );

  app.post(
    '/image-hashlist',
    {
      schema: {
        summary: 'Create an image hash list',
        tags,
        body: CreateImageHashListBody,
        response: { 201: ImageHashListSchema, ...errorResponses(409) },
      },
    },
    async (request, reply) => reply.status(201).send(await createImageHashList(db, request.principal.projectId, request.body)),
  );

  app.post(
    '/image-hashlist/match',
    {
      bodyLimit: ADD_BODY_LIMIT,
      schema: {
        summary: "Look an image (data: URL) or a hash up in the project's image hash lists",
        tags,
        body: MatchImageBody,
        response: { 200: MatchImageResponse, ...errorResponses(404, 413) },
      },
    },
    async (request) => {
      const { hash, image, lists } = request.body;
      if ((hash === undefined) === (image === undefined)) {
        throw badRequest('Send exactly one of "hash" and "image"', [{ message: 'exactly one of hash and image', path: '/' }]);
      }
      const probe = hash !== undefined ? normalizeHashEntries([hash], '/hash')[0]!.hash : await hashDataUrl(image!, '/image', maxPixels);
      const { matches, missingLists } = await matchImageHashes(db, request.principal.projectId, lists ?? 'all', probe);
      if (missingLists.length > 0) {
        throw notFound(`Image hash list "${missingLists[0]}"`);
      }
      return { hash: probe, matched: matches.length > 0, matches };
    },
  );

  app.get(
    '/image-hashlist/:id',
    { schema: { summary: 'Get an image hash list by id (or key)', tags, params: ImageHashListIdParams, response: { 200: ImageHashListSchema, ...errorResponses(404) } } },
    async (request) => getImageHashList(db, request.principal.projectId, request.params.id),
  );

  app.put(
    '/image-hashlist/:id',
    {
      schema: {
        summary: 'Update the name, key, description or threshold of an image hash list',
        tags,
        params: ImageHashListIdParams,
        body: UpdateImageHashListBody,
        response: { 200: ImageHashListSchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => updateImageHashList(db, request.principal.projectId, request.params.id, request.body),
  );

  app.delete(
    '/image-hashlist/:id',
    { schema: { summary: 'Delete an image hash list and its hashes', tags, params: ImageHashListIdParams, response: { 200: ImageHashListSchema, ...errorResponses(404) } } },
    async (request) => deleteImageHashList(db, request.principal.projectId, request.params.id),
  );

  app.get(
    '/image-hashlist/:id/hashes',
    {
      schema: {
        summary: 'List the hashes of an image hash list, a page at a time',
        tags,
        params: ImageHashListIdParams,
        querystring: ListImageHashesQuery,
        response: { 200: ImageHashPageSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const limit = request.query.limit === undefined ? undefined : Number(request.query.limit);
      if (limit !== undefined && (limit < 1 || limit > 1000)) throw badRequest('limit must be 1 to 1000', [{ message: 'out of range', path: '/querystring/limit' }]);
      return listImageHashes(db, request.principal.projectId, request.params.id, {
        ...(limit !== undefined ? { limit } : {}),
        ...(request.query.after !== undefined ? { after: request.query.after } : {}),
      });
    },
  );

  app.post(
    '/image-hashlist/:id/hashes',
    {
      bodyLimit: ADD_BODY_LIMIT,
      schema: {
        summary: 'Add hashes, or images (data: URLs, hashed here and not stored), to an image hash list',
        tags,
        params: ImageHashListIdParams,
        body: AddImageHashesBody,
        response: { 200: AddImageHashesResponse, ...errorResponses(404, 413) },
      },
    },
    async (request) => addImageHashes(db, request.principal.projectId, request.params.id, request.body, maxPixels),
  );

  app.post(
    '/image-hashlist/:id/images',
    {
      bodyLimit: IMAGE_BODY_LIMIT,
      schema: {
        summary: 'Add one image sent as the raw body (Content-Type image/* or application/octet-stream); its hash is stored, the image is not',
        tags,
        params: ImageHashListIdParams,
        querystring: AddImageQuery,
        response: { 200: AddImageHashesResponse, ...errorResponses(404, 413, 415) },
      },
    },
    async (request) => {
      if (!Buffer.isBuffer(request.body)) {
        throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send the image as the request body with Content-Type image/* or application/octet-stream', [
          { message: 'not an image body', path: '/body' },
        ]);
      }
      return addImageBytes(db, request.principal.projectId, request.params.id, request.body, request.query.label, maxPixels);
    },
  );

  app.delete(
    '/image-hashlist/:id/hashes',
    {
      schema: {
        summary: 'Remove hashes from an image hash list (query `hashes=a,b`)',
        tags,
        params: ImageHashListIdParams,
        querystring: RemoveImageHashesQuery,
        response: { 200: RemoveImageHashesResponse, ...errorResponses(404) },
      },
    },
    async (request) => removeImageHashes(db, request.principal.projectId, request.params.id, splitHashes(request.query.hashes)),
  );
}
