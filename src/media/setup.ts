import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { createMediaFetcher } from './fetcher.ts';
import { createImageDecoder } from './image-decoder.ts';
import { createWorkerImageClassifier, createWorkerTextReader, MediaWorkerPool } from './media-workers.ts';
import { createMediaStage, type MediaStage } from './stage.ts';

/** The media stage as configured: the parts this server has, the others reported as not analysed. */
export function createMediaStageFromConfig(config: Config, _db: Database): MediaStage {
  const media = config.media;
  const pool = media.workers > 0 ? new MediaWorkerPool({ size: media.workers, maxQueue: media.maxQueue, ocr: media.ocr }) : null;
  return createMediaStage({
    fetcher: createMediaFetcher(media),
    decoder: createImageDecoder(media),
    classifier: pool ? createWorkerImageClassifier(pool) : null,
    reader: pool && media.ocr ? createWorkerTextReader(pool) : null,
    pool,
    limits: { video: media.video, pageMaxImages: media.pageMaxImages },
  });
}
