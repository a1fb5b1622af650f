import { Type, type Static } from '@sinclair/typebox';
import { DEFAULT_HASH_THRESHOLD, IMAGE_HASH_BITS } from '../media/image-hash.ts';

export const MAX_HASHES_PER_LIST = 1_000_000;
export const MAX_HASHES_PER_REQUEST = 10_000;
export const MAX_IMAGES_PER_REQUEST = 16;
/** One image to hash, decoded (data: URL payload or raw request body). */
export const MAX_IMAGE_BYTES = 10 * 1_048_576;
/** JSON bodies of the add route carry images as base64 data: URLs (4/3 of their size). */
export const ADD_BODY_LIMIT = 32 * 1_048_576;
/** The raw-bytes route: one image plus nothing. */
export const IMAGE_BODY_LIMIT = MAX_IMAGE_BYTES;

/** Lowercase letters, digits, `_` and `-`, as wordlist keys. */
export const ImageHashListKey = Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' });

const Threshold = Type.Integer({
  minimum: 0,
  maximum: IMAGE_HASH_BITS / 2,
  description: `Largest Hamming distance (of ${IMAGE_HASH_BITS} bits) at which an image matches an entry; default ${DEFAULT_HASH_THRESHOLD}`,
});

const HashString = Type.String({
  pattern: '^\\s*[0-9a-fA-F]{16}([0-9a-fA-F]{16})?\\s*$',
  description: '32 hex digits (this server\'s 128-bit hash) or 16 (a 64-bit horizontal dHash)',
});
const Label = Type.String({ maxLength: 500 });

const HashEntryInput = Type.Union([HashString, Type.Object({ hash: HashString, label: Type.Optional(Label) }, { additionalProperties: false })]);

const DataUrl = Type.String({
  minLength: 6,
  maxLength: Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 200,
  pattern: '^data:',
  description: 'data:image/...;base64,... (the image is hashed and not stored)',
});

const ImageInput = Type.Object({ data: DataUrl, label: Type.Optional(Label) }, { additionalProperties: false });

export const ImageHashListIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });

export const CreateImageHashListBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    key: Type.Optional(ImageHashListKey),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    threshold: Type.Optional(Threshold),
    hashes: Type.Optional(Type.Array(HashEntryInput, { maxItems: MAX_HASHES_PER_REQUEST })),
  },
  { additionalProperties: false },
);
export type CreateImageHashListBody = Static<typeof CreateImageHashListBody>;

export const UpdateImageHashListBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    key: Type.Optional(Type.Union([ImageHashListKey, Type.Null()])),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
    threshold: Type.Optional(Threshold),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateImageHashListBody = Static<typeof UpdateImageHashListBody>;

export const AddImageHashesBody = Type.Object(
  {
    hashes: Type.Optional(Type.Array(HashEntryInput, { minItems: 1, maxItems: MAX_HASHES_PER_REQUEST })),
    images: Type.Optional(Type.Array(ImageInput, { minItems: 1, maxItems: MAX_IMAGES_PER_REQUEST })),
  },
  { additionalProperties: false, minProperties: 1, description: 'Hashes, images to hash, or both' },
);
export type AddImageHashesBody = Static<typeof AddImageHashesBody>;

export const AddImageQuery = Type.Object({ label: Type.Optional(Label) }, { additionalProperties: false });

/** `?hashes=a,b` (comma format, as the SDK writes arrays) or repeated `hashes=` parameters. */
export const RemoveImageHashesQuery = Type.Object(
  { hashes: Type.Union([Type.String({ minLength: 1 }), Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: MAX_HASHES_PER_REQUEST })]) },
  { additionalProperties: false },
);

export const ListImageHashesQuery = Type.Object(
  {
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', description: '1 to 1000 (default 100)' })),
    after: Type.Optional(Type.String({ maxLength: 64, description: 'The last hash of the previous page' })),
  },
  { additionalProperties: false },
);

export const MatchImageBody = Type.Object(
  {
    hash: Type.Optional(HashString),
    image: Type.Optional(DataUrl),
    lists: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 100, description: 'List ids or keys; absent: every list' })),
  },
  { additionalProperties: false, description: 'Exactly one of `hash` and `image`' },
);
export type MatchImageBody = Static<typeof MatchImageBody>;

export const ImageHashListSchema = Type.Object(
  {
    id: Type.String(),
    key: Type.Union([Type.String(), Type.Null()]),
    name: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    threshold: Type.Integer(),
    hashCount: Type.Integer(),
    projectId: Type.String(),
    createdAt: Type.String({ description: 'ISO 8601' }),
    updatedAt: Type.String({ description: 'ISO 8601' }),
  },
  { $id: 'ImageHashList' },
);
export type ImageHashListView = Static<typeof ImageHashListSchema>;

export const ImageHashEntrySchema = Type.Object({
  hash: Type.String(),
  label: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ description: 'ISO 8601' }),
});

export const ImageHashPageSchema = Type.Object({
  hashes: Type.Array(ImageHashEntrySchema, { description: 'Sorted by hash' }),
  totalCount: Type.Integer(),
  nextAfter: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `after` for the next page; null on the last' }),
});

export const AddImageHashesResponse = Type.Object({
  addedCount: Type.Integer(),
  addedHashes: Type.Array(Type.String(), { description: 'Hashes that were not in the list yet' }),
  imageHashes: Type.Array(Type.String(), { description: 'The hash computed for each image sent, in order' }),
  totalCount: Type.Integer(),
});

export const RemoveImageHashesResponse = Type.Object({
  removedCount: Type.Integer(),
  removedHashes: Type.Array(Type.String()),
  totalCount: Type.Integer(),
});

export const ImageHashMatchSchema = Type.Object({
  listId: Type.String(),
  listKey: Type.Union([Type.String(), Type.Null()]),
  listName: Type.String(),
  hash: Type.String({ description: 'The listed hash that matched' }),
  label: Type.Union([Type.String(), Type.Null()]),
  distance: Type.Integer(),
  threshold: Type.Integer(),
});

export const MatchImageResponse = Type.Object({
  hash: Type.String({ description: 'The hash looked up (computed when an image was sent)' }),
  matched: Type.Boolean(),
  matches: Type.Array(ImageHashMatchSchema, { description: 'Closest first; at most one per list' }),
});
