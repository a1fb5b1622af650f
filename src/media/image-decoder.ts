import sharp, { type Metadata } from 'sharp';
import type { MediaConfig } from '../config.ts';
import { sniffMime } from './sniff.ts';
import { MediaError, type DecodedImage, type ImageDecoder, type Raster } from './types.ts';

const PREVIEW_SIDE = 1024;
const CLASSIFIER_SIDE = 224;
/** libvips gives up on one image after this long (a pathological file must not hold its threads). */
const DECODE_TIMEOUT_SECONDS = 15;
/** Formats libvips decodes here. SVG is refused: a vector document is not a photo upload, and renders references. */
const DECODABLE = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/heif', 'image/tiff']);

// libvips work runs on libuv's threads, not the event loop; a few at once are enough for the media workers to keep up.
sharp.concurrency(2);
sharp.cache(false);

/**
 * Decodes an image once into the two rasters every later part works from. The pixel cap is checked
 * from the header before any pixel is decoded (a 100-byte PNG may declare a 100,000 × 100,000
 * canvas), and libvips enforces it again while decoding (`limitInputPixels`).
 */
export function createImageDecoder(options: Pick<MediaConfig, 'maxImagePixels'>): ImageDecoder {
  const limitInputPixels = options.maxImagePixels;
  return {
    async decode(bytes: Buffer): Promise<DecodedImage> {
      if (bytes.length === 0) throw new MediaError('undecodable', 'The image is empty (0 bytes)');
      const mime = sniffMime(bytes);
      if (!DECODABLE.has(mime)) {
        throw new MediaError('wrong_type', mime === 'application/octet-stream' ? 'The file is not an image' : `The file is not an image this server decodes (${mime})`);
      }
      let metadata: Metadata;
      try {
        // The header only: no pixel is decoded here, so the declared size can be checked and named.
        metadata = await sharp(bytes, { limitInputPixels: false, failOn: 'error' }).metadata();
      } catch (error) {
        throw decodeError(error);
      }
      const width = metadata.width ?? 0;
      const height = metadata.height ?? 0;
      if (width <= 0 || height <= 0) throw new MediaError('undecodable', 'The image declares no size');
      if (width * height > limitInputPixels) {
        throw new MediaError('too_large', `The image declares ${width}×${height} pixels, over the ${limitInputPixels}-pixel limit`);
      }
      try {
        // One decode: the preview comes from the file, the classifier input from the preview.
        const previewOut = await sharp(bytes, { limitInputPixels, failOn: 'error', animated: false })
          .rotate()
          .flatten({ background: '#ffffff' })
          .resize(PREVIEW_SIDE, PREVIEW_SIDE, { fit: 'inside', withoutEnlargement: true })
          .toColourspace('srgb')
          .removeAlpha()
          .timeout({ seconds: DECODE_TIMEOUT_SECONDS })
          .raw()
          .toBuffer({ resolveWithObject: true });
        const preview: Raster = { data: previewOut.data, width: previewOut.info.width, height: previewOut.info.height, channels: 3 };
        const classifierOut = await sharp(previewOut.data, { raw: { width: preview.width, height: preview.height, channels: 3 } })
          .resize(CLASSIFIER_SIDE, CLASSIFIER_SIDE, { fit: 'fill' })
          .raw()
          .toBuffer({ resolveWithObject: true });
        return {
          width,
          height,
          format: metadata.format ?? mime.slice('image/'.length),
          preview,
          classifierInput: { data: classifierOut.data, width: CLASSIFIER_SIDE, height: CLASSIFIER_SIDE, channels: 3 },
        };
      } catch (error) {
        throw decodeError(error);
      }
    },
  };
}

function decodeError(error: unknown): MediaError {
  const message = error instanceof Error ? error.message : String(error);
  if (/timeout/i.test(message)) return new MediaError('timed_out', `Decoding the image took longer than ${DECODE_TIMEOUT_SECONDS} s`, { cause: error });
  if (/pixel limit/i.test(message)) return new MediaError('too_large', 'The image is over the pixel limit', { cause: error });
  if (/unsupported image format/i.test(message)) return new MediaError('wrong_type', 'The file is not an image', { cause: error });
  return new MediaError('undecodable', `The image cannot be decoded (truncated or corrupt): ${message.split('\n')[0]}`, { cause: error });
}
