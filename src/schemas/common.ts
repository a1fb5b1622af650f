import { Type, type TSchema, type Static } from '@sinclair/typebox';

export const ErrorBodySchema = Type.Object(
  {
    code: Type.String({ description: 'Stable machine-readable error code, e.g. BAD_REQUEST' }),
    message: Type.String(),
    issues: Type.Array(Type.Object({ message: Type.String(), path: Type.Optional(Type.String()) })),
    error: Type.Optional(Type.String({ description: '429 only: the message again, under the name the hosted API uses' })),
  },
  { $id: 'ErrorBody', description: 'Every failed request answers with this body.' },
);

/** Standard error responses of an authenticated route, for the OpenAPI document. */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries([400, 401, ...statuses].map((s) => [s, Type.Ref(ErrorBodySchema)]));

/**
 * A union whose variants are told apart by their `type` field. Ajv then
 * reports the errors of the one variant the caller meant, not of every variant.
 */
export function TaggedUnion<T extends TSchema[]>(variants: [...T], options: Record<string, unknown> = {}) {
  return Type.Unsafe<Static<T[number]>>({
    ...options,
    type: 'object',
    required: ['type'],
    oneOf: variants,
    discriminator: { propertyName: 'type' },
  });
}

export const Id = Type.String({ minLength: 1, maxLength: 200 });
