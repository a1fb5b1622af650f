/**
 * The media stage's `HashListMatcher` (src/media/types.ts) over the image hash lists of
 * src/services/image-hash-lists.ts: the hash is cut from the preview the stage already decoded.
 */
import type { Queryable } from '../../db/database.ts';
import { matchImageHashes } from '../../services/image-hash-lists.ts';
import { computeImageHashFromPixels } from '../image-hash.ts';
import type { DecodedImage, HashListMatch, HashListMatcher } from '../types.ts';

export interface ImageHashListMatch extends HashListMatch {
  listKey: string | null;
  /** The operator's note on the listed picture. */
  label: string | null;
  threshold: number;
  /** The image's own hash, for the result and for adding it to a list. */
  imageHash: string;
}

export interface ImageHashListMatcher extends HashListMatcher {
  /**
   * `lists` (ids or keys) restricts the lists searched, as a channel setting may; absent: all of the
   * project's lists. Lists named but not found throw: a channel pointing at a deleted list must show.
   */
  match(projectId: string, image: DecodedImage, lists?: readonly string[]): Promise<ImageHashListMatch[]>;
}

export class MissingImageHashListError extends Error {
  constructor(readonly refs: string[]) {
    super(`Image hash list${refs.length > 1 ? 's' : ''} not found: ${refs.join(', ')}`);
    this.name = 'MissingImageHashListError';
  }
}

export function createHashListMatcher(db: Queryable): ImageHashListMatcher {
  return {
    async match(projectId, image, lists) {
      const imageHash = await computeImageHashFromPixels(image.preview);
      const { matches, missingLists } = await matchImageHashes(db, projectId, lists ?? 'all', imageHash);
      if (missingLists.length > 0) throw new MissingImageHashListError(missingLists);
      return matches.map((m) => ({
        listId: m.listId,
        listName: m.listName,
        listKey: m.listKey,
        // Entries are identified by their hash (unique within a list).
        entryId: m.hash,
        distance: m.distance,
        threshold: m.threshold,
        label: m.label,
        imageHash,
      }));
    },
  };
}
