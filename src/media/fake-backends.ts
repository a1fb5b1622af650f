/**
 * Local stand-ins for the operator's model backends, speaking their real protocols on
 * 127.0.0.1: an OpenAI-compatible transcription endpoint (multipart upload) and chat
 * completions with image input. Tests only: no speech or vision model runs offline here.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MultipartPart {
  name: string;
  filename: string | null;
  contentType: string | null;
  data: Buffer;
}

/** Parses a multipart/form-data body as RFC 7578 lays it out. */
export function parseMultipart(body: Buffer, contentType: string): MultipartPart[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  if (!boundary) throw new Error('multipart without boundary');
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: MultipartPart[] = [];
  let start = body.indexOf(delimiter);
  if (start < 0) throw new Error('boundary not found in the body');
  for (;;) {
    start += delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    start += 2; // CRLF after the delimiter
    const headerEnd = body.indexOf('\r\n\r\n', start);
    const next = body.indexOf(delimiter, headerEnd);
    if (headerEnd < 0 || next < 0) throw new Error('truncated multipart body');
    const headers = body.subarray(start, headerEnd).toString('utf8');
    const disposition = /content-disposition:\s*form-data;([^\r\n]*)/i.exec(headers)?.[1] ?? '';
    const type = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim() ?? null;
    parts.push({
      name: /\bname="([^"]*)"/.exec(disposition)?.[1] ?? '',
      filename: /\bfilename="([^"]*)"/.exec(disposition)?.[1] ?? null,
      contentType: type,
      data: body.subarray(headerEnd + 4, next - 2),
    });
    start = next;
  }
  return parts;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface FakeBackend {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A server that answers each request with `respond` (status and JSON or text), recording what came in. */
export async function startFakeBackend(
  respond: (request: RecordedRequest) => Promise<{ status?: number; json?: unknown; text?: string; delayMs?: number }> | { status?: number; json?: unknown; text?: string; delayMs?: number },
): Promise<FakeBackend> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(recorded);
      try {
        const answer = await respond(recorded);
        if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
        if (res.destroyed) return;
        const body = answer.json !== undefined ? JSON.stringify(answer.json) : (answer.text ?? '');
        res.writeHead(answer.status ?? 200, { 'content-type': answer.json !== undefined ? 'application/json' : 'text/plain' });
        res.end(body);
      } catch (error) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: (error as Error).message } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
