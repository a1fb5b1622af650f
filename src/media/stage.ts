import type { MediaConfig } from '../config.ts';
import { kindOfMime } from './sniff.ts';
import {
  MediaError,
  type AudioConverter,
  type DecodedImage,
  type HashListMatch,
  type HashListMatcher,
  type ImageClassifier,
  type ImageDecoder,
  type ImageLabel,
  type MediaFetcher,
  type MediaKind,
  type PageExtractor,
  type TextReader,
  type Transcriber,
  type VideoSampler,
  type VisionBackend,
} from './types.ts';
import type { MediaWorkerPool } from './media-workers.ts';

/** The parts of the media stage. Absent parts make their kind (or label set) "not analysed", never clean. */
export interface MediaParts {
  fetcher: MediaFetcher;
  decoder: ImageDecoder;
  /** nsfwjs in the media workers; null with MEDIA_WORKERS=0. */
  classifier: ImageClassifier | null;
  /** OCR in the media workers; null with MEDIA_OCR=false or MEDIA_WORKERS=0. */
  reader: TextReader | null;
  /** Admission against the workers' bounded queue. */
  pool: MediaWorkerPool | null;
  hashLists?: HashListMatcher | null;
  vision?: VisionBackend | null;
  video?: VideoSampler | null;
  audio?: AudioConverter | null;
  transcriber?: Transcriber | null;
  pages?: PageExtractor | null;
  limits: Pick<MediaConfig, 'video' | 'pageMaxImages'>;
}

export interface MediaFieldInput {
  key: string | null;
  type: MediaKind;
  url: string;
}

/** Text found in a media field; it runs through the channel's text policies under the field's key. */
export interface DerivedText {
  source: 'image_text' | 'transcript' | 'page';
  text: string;
}

export interface MediaFieldOutcome {
  key: string | null;
  kind: MediaKind;
  /** False: nothing (or not enough) was analysed; the recommendation is then not allow by default. */
  analysed: boolean;
  /** Highest score per label over the field's images (the image, video frames, page images). */
  labels: ImageLabel[];
  /** Images looked at (1 for an image; frames; page images). */
  images: number;
  texts: DerivedText[];
  /** OCR lines, per image, for the result's data. */
  imageText: string[];
  hashMatches: HashListMatch[];
  /** Video: the frames' positions whose labels reached the threshold. */
  flaggedTimestampsMs?: number[];
  errors: Array<{ id: string; message: string }>;
}

export interface MediaStageResult {
  fields: MediaFieldOutcome[];
  /** Image labels no configured model covered, when images were analysed. */
  notCovered: string[];
}

/** The labels the hosted product has for images that only a vision backend can give here. */
export const VISION_ONLY_LABELS = ['violence', 'weapon', 'gore', 'drugs', 'hate'] as const;
/** Default threshold of the image labels (the `image` policy entry may set another). */
export const IMAGE_LABEL_THRESHOLD = 0.5;

interface ImageFindings {
  labels: ImageLabel[];
  lines: string[];
  hashMatches: HashListMatch[];
  errors: string[];
}

export function createMediaStage(parts: MediaParts) {
  const where = (field: MediaFieldInput) => (field.key === null ? '' : ` in field "${field.key}"`);
  const notAnalysed = (field: MediaFieldInput, reason: string) => ({ id: `${field.type}_analysis`, message: `${field.type}${where(field)} was not analysed: ${reason}` });
  const reasonOf = (error: unknown) => (error instanceof MediaError ? `${error.message} (${error.code})` : `analysis failed (${error instanceof Error ? error.message : String(error)})`);

  /** One decoded image through every image part; a part that fails is an error, the others still count. */
  async function analyseImage(projectId: string, image: DecodedImage, signal?: AbortSignal): Promise<ImageFindings & { classified: boolean }> {
    const errors: string[] = [];
    const [scores, lines, matches, vision] = await Promise.all([
      parts.classifier ? parts.classifier.classify(image, signal).catch((e) => (errors.push(reasonOf(e)), null)) : null,
      parts.reader ? parts.reader.read(image, signal).catch((e) => (errors.push(`text in the image not read: ${reasonOf(e)}`), [] as string[])) : ([] as string[]),
      parts.hashLists ? parts.hashLists.match(projectId, image).catch((e) => (errors.push(`hash lists not checked: ${reasonOf(e)}`), [] as HashListMatch[])) : ([] as HashListMatch[]),
      parts.vision ? parts.vision.classify(image, signal).catch((e) => (errors.push(`vision backend: ${reasonOf(e)}`), [] as ImageLabel[])) : ([] as ImageLabel[]),
    ]);
    return { labels: [...(scores ?? []), ...vision], lines, hashMatches: matches, errors, classified: scores !== null };
  }

  async function imageField(projectId: string, field: MediaFieldInput, signal?: AbortSignal): Promise<MediaFieldOutcome> {
    const outcome = emptyOutcome(field);
    if (!parts.classifier) {
      outcome.errors.push(notAnalysed(field, 'image analysis is turned off on this server (MEDIA_WORKERS=0)'));
      return outcome;
    }
    try {
      const fetched = await parts.fetcher.fetch(field.url, 'image', signal);
      if (fetched.bytes.length === 0) throw new MediaError('undecodable', 'the image is empty (0 bytes)');
      if (kindOfMime(fetched.mime) !== 'image') throw new MediaError('wrong_type', `the file is not an image (it looks like ${fetched.mime})`);
      const image = await parts.decoder.decode(fetched.bytes, signal);
      const findings = await analyseImage(projectId, image, signal);
      addFindings(outcome, findings);
      outcome.images = 1;
      outcome.analysed = findings.classified;
      for (const message of findings.errors) outcome.errors.push(findings.classified ? { id: `${field.type}_analysis`, message: `${field.type}${where(field)}: ${message}` } : notAnalysed(field, message));
    } catch (error) {
      outcome.errors.push(notAnalysed(field, reasonOf(error)));
    }
    return outcome;
  }

  async function videoField(projectId: string, field: MediaFieldInput, labelThreshold: number, signal?: AbortSignal): Promise<MediaFieldOutcome> {
    const outcome = emptyOutcome(field);
    if (!parts.video) {
      outcome.errors.push(notAnalysed(field, 'video analysis is not available on this server'));
      return outcome;
    }
    try {
      const fetched = await parts.fetcher.fetch(field.url, 'video', signal);
      const kind = kindOfMime(fetched.mime);
      if (kind !== 'video' && kind !== 'audio') throw new MediaError('wrong_type', `the file is not a video (it looks like ${fetched.mime})`);
      const sampled = await parts.video.sample(fetched.bytes, { maxFrames: parts.limits.video.maxFrames, timeoutMs: parts.limits.video.timeoutMs }, signal);
      const flagged: number[] = [];
      let classifiedFrames = 0;
      const frameErrors: string[] = [];
      // Frames one after another: a video must not take every media worker at once.
      for (const frame of sampled.frames) {
        try {
          const image = await parts.decoder.decode(frame.image, signal);
          const findings = await analyseImage(projectId, image, signal);
          addFindings(outcome, findings);
          if (findings.classified) classifiedFrames++;
          if (findings.labels.some((label) => label.probability >= labelThreshold) || findings.hashMatches.length > 0) flagged.push(frame.timestampMs);
          frameErrors.push(...findings.errors);
        } catch (error) {
          frameErrors.push(`frame at ${frame.timestampMs} ms: ${reasonOf(error)}`);
        }
      }
      outcome.images = sampled.frames.length;
      outcome.flaggedTimestampsMs = flagged;
      const framesAnalysed = classifiedFrames > 0 && classifiedFrames === sampled.frames.length;
      if (sampled.frames.length === 0) frameErrors.push('no frame could be taken from the video');
      for (const message of [...new Set(frameErrors)].slice(0, 5)) outcome.errors.push(framesAnalysed ? { id: 'video_analysis', message: `video${where(field)}: ${message}` } : notAnalysed(field, message));
      let audioAnalysed = sampled.audio === null;
      if (sampled.audio !== null) {
        if (!parts.transcriber) outcome.errors.push({ id: 'audio_analysis', message: `the audio track of the video${where(field)} was not analysed: no transcription backend is configured (TRANSCRIPTION_BACKEND_URL)` });
        else {
          try {
            const transcript = await parts.transcriber.transcribe(sampled.audio, signal);
            if (transcript.text.trim() !== '') outcome.texts.push({ source: 'transcript', text: transcript.text });
            audioAnalysed = true;
          } catch (error) {
            outcome.errors.push({ id: 'audio_analysis', message: `the audio track of the video${where(field)} was not analysed: ${reasonOf(error)}` });
          }
        }
      }
      outcome.analysed = framesAnalysed && audioAnalysed;
    } catch (error) {
      outcome.errors.push(notAnalysed(field, reasonOf(error)));
    }
    return outcome;
  }

  async function audioField(field: MediaFieldInput, signal?: AbortSignal): Promise<MediaFieldOutcome> {
    const outcome = emptyOutcome(field);
    if (!parts.transcriber || !parts.audio) {
      outcome.errors.push(notAnalysed(field, parts.audio ? 'no transcription backend is configured (TRANSCRIPTION_BACKEND_URL)' : 'audio analysis is not available on this server'));
      return outcome;
    }
    try {
      const fetched = await parts.fetcher.fetch(field.url, 'audio', signal);
      const kind = kindOfMime(fetched.mime);
      if (kind !== 'audio' && kind !== 'video') throw new MediaError('wrong_type', `the file is not audio (it looks like ${fetched.mime})`);
      const wav = await parts.audio.toWav16kMono(fetched.bytes, { timeoutMs: parts.limits.video.timeoutMs, maxSeconds: parts.limits.video.maxSeconds }, signal);
      const transcript = await parts.transcriber.transcribe(wav, signal);
      if (transcript.text.trim() !== '') outcome.texts.push({ source: 'transcript', text: transcript.text });
      outcome.analysed = true;
    } catch (error) {
      outcome.errors.push(notAnalysed(field, reasonOf(error)));
    }
    return outcome;
  }

  async function pageField(projectId: string, field: MediaFieldInput, signal?: AbortSignal): Promise<MediaFieldOutcome> {
    const outcome = emptyOutcome(field);
    if (!parts.pages) {
      outcome.errors.push(notAnalysed(field, 'web page analysis is not available on this server'));
      return outcome;
    }
    try {
      const fetched = await parts.fetcher.fetch(field.url, 'url', signal);
      if (kindOfMime(fetched.mime) !== 'page') throw new MediaError('wrong_type', `the address is not a web page (it looks like ${fetched.mime})`);
      const page = await parts.pages.extract(fetched.bytes.toString('utf8'), fetched.finalUrl);
      const text = [page.title, page.text].filter((part) => part.trim() !== '').join('\n\n');
      if (text !== '') outcome.texts.push({ source: 'page', text });
      outcome.analysed = true;
      if (page.truncated) outcome.errors.push({ id: 'url_analysis', message: `the page${where(field)} was longer than the extractor reads; only its beginning was analysed` });
      const imageUrls = parts.classifier ? page.imageUrls.slice(0, parts.limits.pageMaxImages) : [];
      for (const url of imageUrls) {
        const image = await imageField(projectId, { key: field.key, type: 'image', url }, signal);
        outcome.images += image.images;
        mergeLabels(outcome.labels, image.labels);
        outcome.texts.push(...image.texts);
        outcome.imageText.push(...image.imageText);
        outcome.hashMatches.push(...image.hashMatches);
        // A page image that cannot be fetched is noted; the page itself was analysed.
        for (const error of image.errors) outcome.errors.push({ id: 'url_analysis', message: `an image of the page${where(field)} (${hostOf(url)}): ${error.message.replace(/^image( in field "[^"]*")? /, '')}` });
      }
      if (page.imageUrls.length > imageUrls.length && parts.classifier) {
        outcome.errors.push({ id: 'url_analysis', message: `the page${where(field)} has ${page.imageUrls.length} images; the first ${imageUrls.length} were analysed (MEDIA_PAGE_MAX_IMAGES)` });
      }
    } catch (error) {
      outcome.errors.push(notAnalysed(field, reasonOf(error)));
    }
    return outcome;
  }

  return {
    parts,
    /**
     * Room on the image workers for this request (503 when they are full), before anything is
     * fetched. Each field analyses one image at a time (classifier and OCR side by side).
     */
    admit(fields: readonly MediaFieldInput[]): () => void {
      const imageFields = fields.filter((f) => f.type === 'image' || f.type === 'video' || f.type === 'url').length;
      if (imageFields === 0 || !parts.classifier || !parts.pool) return () => {};
      return parts.pool.admit(imageFields * (parts.reader ? 2 : 1));
    },
    async run(projectId: string, fields: readonly MediaFieldInput[], options: { labelThreshold?: number; signal?: AbortSignal } = {}): Promise<MediaStageResult> {
      const { signal } = options;
      const labelThreshold = options.labelThreshold ?? IMAGE_LABEL_THRESHOLD;
      const outcomes = await Promise.all(
        fields.map((field) => {
          switch (field.type) {
            case 'image':
              return imageField(projectId, field, signal);
            case 'video':
              return videoField(projectId, field, labelThreshold, signal);
            case 'audio':
              return audioField(field, signal);
            default:
              return pageField(projectId, field, signal);
          }
        }),
      );
      const sawImages = outcomes.some((o) => o.images > 0);
      const covered = new Set([...(parts.classifier?.labels ?? []), ...(parts.vision?.labels ?? [])]);
      const notCovered = sawImages ? VISION_ONLY_LABELS.filter((label) => !covered.has(label)) : [];
      return { fields: outcomes, notCovered };
    },
  };
}

export type MediaStage = ReturnType<typeof createMediaStage>;

function emptyOutcome(field: MediaFieldInput): MediaFieldOutcome {
  return { key: field.key, kind: field.type, analysed: false, labels: [], images: 0, texts: [], imageText: [], hashMatches: [], errors: [] };
}

function addFindings(outcome: MediaFieldOutcome, findings: ImageFindings): void {
  mergeLabels(outcome.labels, findings.labels);
  if (findings.lines.length > 0) {
    outcome.imageText.push(...findings.lines);
    outcome.texts.push({ source: 'image_text', text: findings.lines.map(separateDigitRuns).join('\n') });
  }
  for (const match of findings.hashMatches) {
    if (!outcome.hashMatches.some((m) => m.listId === match.listId && m.entryId === match.entryId)) outcome.hashMatches.push(match);
  }
}

/**
 * OCR often drops the spaces around numbers ("Callmeat4155550134"); a space between letters and
 * digits lets the entity matchers see the number on its own. The lines in the result stay as read.
 */
export function separateDigitRuns(line: string): string {
  return line.replace(/(\p{L})(?=\d)|(\d)(?=\p{L})/gu, '$1$2 ');
}

function mergeLabels(into: ImageLabel[], labels: readonly ImageLabel[]): void {
  for (const label of labels) {
    const seen = into.find((l) => l.id === label.id);
    if (!seen) into.push({ ...label });
    else seen.probability = Math.max(seen.probability, label.probability);
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an image';
  }
}
