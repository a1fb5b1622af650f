import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { createAudioConverter } from './audio.ts';
import { createMediaFetcher } from './fetcher.ts';
import { createHashListMatcher } from './hash-lists/matcher.ts';
import { createImageDecoder } from './image-decoder.ts';
import { createWorkerImageClassifier, createWorkerTextReader, MediaWorkerPool } from './media-workers.ts';
import { PageExtractionWorker } from './page-worker.ts';
import { createMediaStage, type MediaStage } from './stage.ts';
import { createTranscriber } from './transcriber.ts';
import { createVideoSampler } from './video-frames.ts';
import { createVisionBackend } from './vision-backend.ts';

/** Time cap of extracting one page's text in the page worker. */
const PAGE_EXTRACTION_TIMEOUT_MS = 5_000;

/** The media stage as configured: the parts this server has; the others are reported as not analysed. */
export function createMediaStageFromConfig(config: Config, db: Database): MediaStage {
  const media = config.media;
  const pool = media.workers > 0 ? new MediaWorkerPool({ size: media.workers, maxQueue: media.maxQueue, ocr: media.ocr }) : null;
  const pageWorker = new PageExtractionWorker();
  const ffmpegPath = media.video.ffmpegPath;
  return createMediaStage({
    fetcher: createMediaFetcher(media),
    decoder: createImageDecoder(media),
    classifier: pool ? createWorkerImageClassifier(pool) : null,
    reader: pool && media.ocr ? createWorkerTextReader(pool) : null,
    pool,
    hashLists: createHashListMatcher(db),
    vision: media.vision ? createVisionBackend(media.vision, { allowPrivate: config.allowPrivateOutbound }) : null,
    video: createVideoSampler({ ffmpegPath, maxBytes: media.maxBytes.video, maxSeconds: media.video.maxSeconds, maxPixels: media.maxImagePixels }),
    audio: createAudioConverter({ ffmpegPath, maxBytes: media.maxBytes.audio }),
    transcriber: media.transcription ? createTranscriber(media.transcription, { allowPrivate: config.allowPrivateOutbound }) : null,
    pages: {
      extract: (html, pageUrl) => pageWorker.extract(html, pageUrl, { timeoutMs: PAGE_EXTRACTION_TIMEOUT_MS, maxImages: Math.max(media.pageMaxImages, 1) }),
      close: () => pageWorker.close(),
    },
    limits: { video: media.video, pageMaxImages: media.pageMaxImages },
  });
}
