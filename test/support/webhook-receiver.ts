import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the receiver saw it: the raw body (for signature checks), headers and parsed JSON. */
export interface ReceivedWebhook {
  raw: Buffer;
  headers: http.IncomingHttpHeaders;
  json: any;
  /** The status the receiver answered. */
  status: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Decides the answer of the nth request (1-based) to each event id; 200 by default. */
  respond: (request: { eventId: string; attemptForEvent: number; total: number }) => number;
  /** Milliseconds to wait before answering (the request is recorded on arrival). */
  delayMs: number;
  /** Resolves once `predicate` holds, polling the received list. */
  waitFor(predicate: (received: ReceivedWebhook[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** A loopback HTTP server that records every webhook request. */
export async function startWebhookReceiver(port = 0): Promise<WebhookReceiver> {
  const perEvent = new Map<string, number>();
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    respond: () => 200,
    delayMs: 0,
    async waitFor(predicate, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(receiver.received)) {
        if (Date.now() > deadline) throw new Error(`webhook receiver: condition not met within ${timeoutMs} ms (${receiver.received.length} requests received)`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let json: unknown = null;
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        // keep null: the test will notice
      }
      const eventId = String(req.headers['x-om-event-id'] ?? '');
      const attemptForEvent = (perEvent.get(eventId) ?? 0) + 1;
      perEvent.set(eventId, attemptForEvent);
      const status = receiver.respond({ eventId, attemptForEvent, total: receiver.received.length + 1 });
      receiver.received.push({ raw, headers: req.headers, json, status });
      const answer = () => {
        if (!res.destroyed) res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'nope');
      };
      if (receiver.delayMs > 0) setTimeout(answer, receiver.delayMs);
      else answer();
    });
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}
