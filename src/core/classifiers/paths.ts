import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
/** Repository root (src/core/classifiers → ../../..). */
export const REPO_ROOT = resolve(here, '../../..');
/** Committed weights; OPEN_MODERATION_MODELS_DIR lets tests point at a retrained copy. */
export const MODELS_DIR = process.env.OPEN_MODERATION_MODELS_DIR ?? resolve(REPO_ROOT, 'models');
