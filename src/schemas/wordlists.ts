import { Type, type Static } from '@sinclair/typebox';

/** Words are matched as whole tokens; a "word" may also be a short phrase ("buy now"). */
export const MAX_WORD_LENGTH = 200;
export const MAX_WORDS_PER_LIST = 200_000;

const Word = Type.String({ minLength: 1, maxLength: MAX_WORD_LENGTH });
const Words = Type.Array(Word, { maxItems: MAX_WORDS_PER_LIST });

/** Lowercase letters, digits, `_` and `-`: the key becomes part of the policy id `wordlist_<key>`. */
export const WordlistKey = Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,63}$', description: 'Policy id becomes wordlist_<key>' });

export const WordlistIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });

export const CreateWordlistBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    key: Type.Optional(WordlistKey),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    strict: Type.Optional(Type.Boolean()),
    words: Type.Optional(Words),
  },
  { additionalProperties: false },
);
export type CreateWordlistBody = Static<typeof CreateWordlistBody>;

/** The SDK's WordlistUpdateParams; `words` replaces the whole list. */
export const UpdateWordlistBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    key: Type.Optional(WordlistKey),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    strict: Type.Optional(Type.Boolean({ description: 'Deprecated in the SDK; stored and echoed, no effect on matching' })),
    words: Type.Optional(Words),
  },
  { additionalProperties: false },
);
export type UpdateWordlistBody = Static<typeof UpdateWordlistBody>;

export const AddWordsBody = Type.Object({ words: Type.Array(Word, { minItems: 1, maxItems: MAX_WORDS_PER_LIST }) }, { additionalProperties: false });

/** The SDK sends `?words=a,b,c` (comma format); repeated `words=` parameters are accepted too. */
export const RemoveWordsQuery = Type.Object(
  { words: Type.Union([Type.String({ minLength: 1 }), Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })]) },
  { additionalProperties: false },
);

/** GET/PUT /v1/wordlist/{id}: the SDK's WordlistRetrieveResponse plus `key` and `description`. */
export const WordlistSchema = Type.Object(
  {
    id: Type.String(),
    key: Type.Union([Type.String(), Type.Null()]),
    name: Type.Union([Type.String(), Type.Null()]),
    description: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String({ description: 'ISO 8601' }),
    organizationId: Type.String({ description: 'The project that owns the list' }),
    strict: Type.Boolean(),
    userId: Type.Union([Type.String(), Type.Null()]),
    words: Type.Array(Type.String(), { description: 'Lowercase, sorted' }),
  },
  { $id: 'Wordlist' },
);
export type WordlistView = Static<typeof WordlistSchema>;

/** GET /v1/wordlist items: the SDK's WordlistListResponseItem plus `key`. */
export const WordlistSummarySchema = Type.Object({
  id: Type.String(),
  key: Type.Union([Type.String(), Type.Null()]),
  name: Type.Union([Type.String(), Type.Null()]),
  description: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.Union([Type.String(), Type.Null()]),
  userId: Type.Union([Type.String(), Type.Null()]),
});
export type WordlistSummary = Static<typeof WordlistSummarySchema>;

export const EmbeddingStatusSchema = Type.Object({
  progress: Type.Number({ description: 'Percent of words indexed (0-100); indexing is synchronous, so always 100' }),
  remainingWords: Type.Integer(),
  totalWords: Type.Integer(),
});

export const AddWordsResponse = Type.Object({ addedCount: Type.Integer(), addedWords: Type.Array(Type.String()), totalCount: Type.Integer() });
export const RemoveWordsResponse = Type.Object({ removedCount: Type.Integer(), removedWords: Type.Array(Type.String()), totalCount: Type.Integer() });
