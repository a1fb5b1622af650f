/**
 * Speech to text through an OpenAI-compatible transcription endpoint the operator runs
 * (`POST {TRANSCRIPTION_BACKEND_URL}/audio/transcriptions`, multipart with `file` and `model`):
 * whisper.cpp's server, faster-whisper servers, LocalAI, vLLM, or a hosted API. No speech model
 * installs offline here, so without a backend audio is reported as not scanned, never as clean.
 */
import { randomBytes } from 'node:crypto';
import type { MediaBackendConfig } from '../config.ts';
import { callBackend, endpointUrl, type BackendCallOptions } from './backend-http.ts';
import { MediaError, type Transcriber, type Transcript } from './types.ts';

/** OpenAI's own upload limit; most compatible servers take the same. */
export const DEFAULT_MAX_UPLOAD_BYTES = 25 * 1_048_576;
const MAX_TRANSCRIPT_CHARS = 100_000;

export interface TranscriberOptions {
  allowPrivate?: boolean;
  maxUploadBytes?: number;
}

export function noTranscriptionBackend(): MediaError {
  return new MediaError('not_configured', 'No transcription backend is configured (set TRANSCRIPTION_BACKEND_URL): the audio was not scanned');
}

/** A multipart/form-data body of text fields and one file. */
export function multipartBody(fields: Record<string, string>, file: { field: string; filename: string; contentType: string; bytes: Buffer }) {
  const boundary = `----open-moderation-${randomBytes(12).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`, 'utf8'));
  }
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`, 'utf8'),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8'),
  );
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(parts) };
}

/** Sends one 16 kHz mono WAV and returns the backend's text. */
export async function transcribeWav(backend: MediaBackendConfig | null, wav: Buffer, options: TranscriberOptions & { signal?: AbortSignal } = {}): Promise<Transcript> {
  if (!backend) throw noTranscriptionBackend();
  const maxUpload = options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  if (wav.length > maxUpload) throw new MediaError('too_large', `The audio is ${wav.length} bytes as WAV; the transcription backend takes at most ${maxUpload}`);
  const { contentType, body } = multipartBody(
    { model: backend.model, response_format: 'json' },
    { field: 'file', filename: 'audio.wav', contentType: 'audio/wav', bytes: wav },
  );
  const call: BackendCallOptions = { ...(options.allowPrivate !== undefined ? { allowPrivate: options.allowPrivate } : {}), ...(options.signal ? { signal: options.signal } : {}) };
  const answer = (await callBackend(backend, 'transcription', endpointUrl(backend.url, '/audio/transcriptions'), { headers: { 'content-type': contentType }, body }, call)) as {
    text?: unknown;
    language?: unknown;
  } | null;
  if (typeof answer?.text !== 'string') throw new MediaError('backend_failed', 'The transcription backend answered without a "text" string');
  const transcript: Transcript = { text: answer.text.trim().slice(0, MAX_TRANSCRIPT_CHARS) };
  if (typeof answer.language === 'string' && answer.language.trim() !== '') transcript.language = answer.language.trim().slice(0, 40);
  return transcript;
}

/** The media stage's `Transcriber` (src/media/types.ts); with `backend` null every call throws `not_configured`. */
export function createTranscriber(backend: MediaBackendConfig | null, options: TranscriberOptions = {}): Transcriber {
  return {
    transcribe: (wav, signal) => transcribeWav(backend, wav, { ...options, ...(signal ? { signal } : {}) }),
  };
}
