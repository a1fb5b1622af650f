/**
 * The media stage's parts, each behind a small interface so an operator (or a later version) can
 * swap one for a stronger one. The pipeline (src/pipeline/moderate.ts → src/media/stage.ts) only
 * knows these shapes. Every part reports failure by throwing a MediaError: the stage turns it into
 * an `errors` entry for the field (and the field counts as not analysed), never into a 5xx.
 */

export type MediaKind = 'image' | 'video' | 'audio' | 'url';

export type MediaErrorCode =
  /** Not an http(s) or data: URL, credentials in it, a malformed data: URL. */
  | 'bad_url'
  /** The address (or one reached by a redirect) is private, loopback, link-local or otherwise not public. */
  | 'blocked_address'
  /** DNS failure, connection refused or reset, TLS failure, too many redirects. */
  | 'unreachable'
  /** The server answered, but not 2xx. */
  | 'http_error'
  /** Over the byte cap of its kind (declared or counted), or an image over the pixel cap. */
  | 'too_large'
  /** No complete answer within the time cap of its kind (fetch, decode, ffmpeg, backend). */
  | 'timed_out'
  /** The bytes are not of the kind the field says (sniffed, whatever the content type header claimed). */
  | 'wrong_type'
  /** The bytes claim to be the right kind but cannot be decoded (truncated, corrupt, empty). */
  | 'undecodable'
  /** A backend the kind needs is not configured (audio transcription, vision labels). */
  | 'not_configured'
  /** A configured backend failed or answered nonsense. */
  | 'backend_failed';

export class MediaError extends Error {
  constructor(
    readonly code: MediaErrorCode,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MediaError';
  }
}

// ---------------------------------------------------------------------------------------------
// Fetching (src/media/fetcher.ts, media-core)

/** What was fetched: the bytes and the type sniffed from them (never the Content-Type header alone). */
export interface FetchedMedia {
  bytes: Buffer;
  /** Sniffed from the first bytes: image/png, image/jpeg, image/gif, image/webp, image/avif, image/tiff,
   *  image/svg+xml, video/mp4, video/webm, video/quicktime, audio/mpeg, audio/wav, audio/ogg, audio/flac,
   *  text/html, application/octet-stream (unknown). */
  mime: string;
  /** The URL that answered after redirects; `data:` for inline content. */
  finalUrl: string;
}

export interface MediaFetcher {
  /**
   * GET one URL (http, https or data:) under the byte and time caps of `kind`, every hop vetted
   * (SSRF-safe). Throws MediaError: bad_url, blocked_address, unreachable, http_error, too_large, timed_out.
   * Does NOT check that the bytes are of `kind`: callers check `mime`.
   */
  fetch(url: string, kind: MediaKind, signal?: AbortSignal): Promise<FetchedMedia>;
}

// ---------------------------------------------------------------------------------------------
// Images (src/media/image-decoder.ts, image-classifier.ts, ocr.ts: media-core)

/** Raw interleaved 8-bit pixels. */
export interface Raster {
  data: Uint8Array;
  width: number;
  height: number;
  channels: 1 | 3 | 4;
}

/**
 * One image decoded once: every later part (classifier, OCR, hashing, vision backend) works from
 * these rasters, never from the original bytes again.
 */
export interface DecodedImage {
  /** Original dimensions and the sniffed format (png, jpeg, webp, gif, ...). */
  width: number;
  height: number;
  format: string;
  /** RGB, the whole image fitted inside 1024×1024 (never enlarged), orientation applied. For OCR, hashing, backends. */
  preview: Raster;
  /** RGB 224×224 (the whole image squashed to the square), the input of the nudity classifier. */
  classifierInput: Raster;
}

export interface ImageDecoder {
  /** Throws MediaError: wrong_type (not an image), undecodable (truncated/corrupt/0 bytes), too_large (pixel cap: decompression bombs). */
  decode(bytes: Buffer, signal?: AbortSignal): Promise<DecodedImage>;
}

/**
 * Label ids follow the hosted product's image vocabulary: nudity, suggestive, gore, violence,
 * weapon, drugs, hate, smoking, alcohol, text, toxicity. Probability 0..1.
 */
export interface ImageLabel {
  id: string;
  probability: number;
}

export interface ImageClassifier {
  /** Labels this classifier covers (nsfwjs: nudity, suggestive). */
  readonly labels: readonly string[];
  classify(image: DecodedImage, signal?: AbortSignal): Promise<ImageLabel[]>;
}

export interface TextReader {
  /** Lines of text found in the image, top to bottom; [] when there is none. */
  read(image: DecodedImage, signal?: AbortSignal): Promise<string[]>;
}

// ---------------------------------------------------------------------------------------------
// Known-bad images (media-extras: src/media/hash-lists/*)

export interface HashListMatch {
  /** The image hash list's id (as in its CRUD API): a match is a flag with this id. */
  listId: string;
  listName: string;
  /** The matching entry in the list. */
  entryId: string;
  /** Hamming distance between the two hashes (128-bit dHash pairs; 0 = identical). */
  distance: number;
}

export interface HashListMatcher {
  /** The project's lists that match this image (distance ≤ each list's threshold); [] when none do. */
  match(projectId: string, image: DecodedImage): Promise<HashListMatch[]>;
}

// ---------------------------------------------------------------------------------------------
// Vision backend for labels no offline model covers (media-extras: src/media/vision-backend.ts)

export interface VisionBackend {
  /** Labels it is asked about: violence, weapon, gore, drugs, hate (hate symbols). */
  readonly labels: readonly string[];
  /** Throws MediaError backend_failed / timed_out. */
  classify(image: DecodedImage, signal?: AbortSignal): Promise<ImageLabel[]>;
}

// ---------------------------------------------------------------------------------------------
// Video and audio (media-extras: src/media/video-frames.ts, audio.ts, transcriber.ts)

export interface VideoFrame {
  /** Position in the video, in milliseconds. */
  timestampMs: number;
  /** One still, PNG or JPEG bytes: the image stage decodes it like any image. */
  image: Buffer;
}

export interface SampledVideo {
  frames: VideoFrame[];
  /** The audio track as 16 kHz mono 16-bit PCM WAV; null when the video has no audio. */
  audio: Buffer | null;
  durationMs: number | null;
}

export interface VideoSampler {
  /** Keyframes plus scene changes up to `maxFrames`, with ffmpeg (-protocol_whitelist file,pipe), under a time cap.
   *  Throws MediaError: wrong_type, undecodable, timed_out. */
  sample(bytes: Buffer, limits: { maxFrames: number; timeoutMs: number }, signal?: AbortSignal): Promise<SampledVideo>;
}

export interface AudioConverter {
  /** Any audio (or video) file to 16 kHz mono 16-bit PCM WAV. Throws MediaError: wrong_type, undecodable, timed_out. */
  toWav16kMono(bytes: Buffer, limits: { timeoutMs: number; maxSeconds: number }, signal?: AbortSignal): Promise<Buffer>;
}

export interface Transcript {
  text: string;
  /** Detected language when the backend says it. */
  language?: string;
}

export interface Transcriber {
  /** OpenAI-compatible POST {url}/v1/audio/transcriptions. Throws MediaError backend_failed / timed_out. */
  transcribe(wav: Buffer, signal?: AbortSignal): Promise<Transcript>;
}

// ---------------------------------------------------------------------------------------------
// Web pages (media-extras: src/media/page-extractor.ts)

export interface ExtractedPage {
  title: string;
  /** The main text (Readability over linkedom; html-to-text as fallback), paragraphs separated by blank lines. */
  text: string;
  /** Absolute http(s) URLs of the main content's images, in document order, deduplicated. */
  imageUrls: string[];
  /** True when the page was not read in full (markup or text over the extractor's caps). */
  truncated?: boolean;
}

export interface PageExtractor {
  /** No network. `pageUrl` resolves relative image URLs. May answer from a worker thread (a promise). */
  extract(html: string, pageUrl: string): ExtractedPage | Promise<ExtractedPage>;
  close?(): Promise<void>;
}
