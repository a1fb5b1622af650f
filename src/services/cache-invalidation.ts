import type { Change } from '../db/change-notifications.ts';
import { forgetCachedKeys } from './api-keys.ts';
import { forgetCachedChannels } from './channels.ts';
import { forgetCompiledWordlists } from './wordlists.ts';
import { forgetLoadedImageHashLists } from './image-hash-lists.ts';

/** Drops this node's cached copies of what a change announced (null: of everything). */
export function dropCachedCopies(change: Change): void {
  const projectId = change?.projectId ?? null;
  if (change === null || change.topic === 'api_keys') forgetCachedKeys();
  if (change === null || change.topic === 'channels') forgetCachedChannels(projectId);
  if (change === null || change.topic === 'wordlists') forgetCompiledWordlists(projectId);
  if (change === null || change.topic === 'image_hash_lists') forgetLoadedImageHashLists(projectId);
}
