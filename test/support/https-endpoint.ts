import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTPS endpoint with a self-signed certificate made for this test run (openssl), so a
 * test can trust it explicitly while nothing else does.
 */
export interface HttpsEndpoint {
  url: string;
  certFile: string;
  cert: string;
  requests: Array<{ headers: Record<string, string | string[] | undefined>; body: string; path: string }>;
  respond: (request: { body: string; path: string }) => { status?: number; body?: string; delayMs?: number };
  close(): Promise<void>;
}

export async function startHttpsEndpoint(): Promise<HttpsEndpoint> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'om-tls-'));
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyFile, '-out', certFile,
    '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
  ], { stdio: 'ignore' });
  const cert = fs.readFileSync(certFile, 'utf8');
  const timers = new Set<NodeJS.Timeout>();
  const endpoint: HttpsEndpoint = {
    url: '',
    certFile,
    cert,
    requests: [],
    respond: () => ({ status: 200, body: '{"version":1,"items":[]}' }),
    close: async () => {},
  };
  const server = https.createServer({ key: fs.readFileSync(keyFile), cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      endpoint.requests.push({ headers: req.headers, body, path: req.url ?? '' });
      const answer = endpoint.respond({ body, path: req.url ?? '' });
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
        res.end(answer.body ?? '');
      };
      if (answer.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          send();
        }, answer.delayMs);
        timers.add(timer);
      } else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  endpoint.close = async () => {
    for (const timer of timers) clearTimeout(timer);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return endpoint;
}
