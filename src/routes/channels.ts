import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ChannelSchema, CreateChannelBody, UpdateChannelBody } from '../schemas/channel.ts';
import { errorResponses } from '../schemas/common.ts';
import { createChannel, deleteChannel, getChannel, listChannels, toChannelView, updateChannel } from '../services/channels.ts';

const IdOrKey = Type.Object({ idOrKey: Type.String({ minLength: 1, maxLength: 200 }) });
const tags = ['channels'];

export async function channelRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const db = app.deps.db;

  app.get(
    '/channels',
    { schema: { summary: 'List channels', tags, response: { 200: Type.Object({ channels: Type.Array(ChannelSchema) }), ...errorResponses() } } },
    async (request) => ({ channels: (await listChannels(db, request.principal.projectId)).map(toChannelView) }),
  );

  app.post(
    '/channels',
    { schema: { summary: 'Create a channel', tags, body: CreateChannelBody, response: { 201: ChannelSchema, ...errorResponses(409) } } },
    async (request, reply) => reply.status(201).send(toChannelView(await createChannel(db, request.principal.projectId, request.body))),
  );

  app.get(
    '/channels/:idOrKey',
    { schema: { summary: 'Get a channel by id or key', tags, params: IdOrKey, response: { 200: ChannelSchema, ...errorResponses(404) } } },
    async (request) => toChannelView(await getChannel(db, request.principal.projectId, request.params.idOrKey)),
  );

  app.put(
    '/channels/:idOrKey',
    {
      schema: {
        summary: 'Update a channel',
        tags,
        params: IdOrKey,
        body: UpdateChannelBody,
        response: { 200: ChannelSchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => toChannelView(await updateChannel(db, request.principal.projectId, request.params.idOrKey, request.body)),
  );

  app.delete(
    '/channels/:idOrKey',
    { schema: { summary: 'Delete a channel', tags, params: IdOrKey, response: { 200: ChannelSchema, ...errorResponses(404) } } },
    async (request) => toChannelView(await deleteChannel(db, request.principal.projectId, request.params.idOrKey)),
  );
}
