/**
 * A tiny OpenAI-compatible chat-completions server for tests. It decides
 * deterministically: the content violates when it contains (case-insensitive)
 * any "double-quoted" term of the <guideline> block in the system message.
 * It can be made slow, fail with a status, or answer with arbitrary content.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeOpenAIBehaviour {
  delayMs?: number;
  /** Answer every request with this HTTP status and a JSON error body. */
  failWithStatus?: number;
  /** Replace the model's message content (to test defensive parsing). */
  rawContent?: string;
}

export interface FakeOpenAI {
  /** Base URL including /v1, as MODEL_BACKEND_URL would be set. */
  url: string;
  requests: Array<{ headers: http.IncomingHttpHeaders; body: unknown }>;
  behaviour: FakeOpenAIBehaviour;
  close(): Promise<void>;
}

interface ChatMessage {
  role: string;
  content: string;
}

function decide(messages: ChatMessage[]): { violates: boolean; probability: number; reason: string } {
  const system = messages.find((message) => message.role === 'system')?.content ?? '';
  const user = messages.filter((message) => message.role === 'user').map((message) => message.content).join('\n').toLowerCase();
  const guideline = /<guideline>([\s\S]*?)<\/guideline>/.exec(system)?.[1] ?? '';
  const terms = [...guideline.matchAll(/"([^"]+)"/g)].map((match) => match[1]!.toLowerCase());
  const hit = terms.find((term) => user.includes(term));
  return hit
    ? { violates: true, probability: 0.92, reason: `The content mentions "${hit}".` }
    : { violates: false, probability: 0.04, reason: 'Nothing in the content matches the guideline.' };
}

export async function startFakeOpenAI(options: { apiKey?: string } = {}): Promise<FakeOpenAI> {
  const requests: FakeOpenAI['requests'] = [];
  const behaviour: FakeOpenAIBehaviour = {};
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const reply = (status: number, payload: unknown) => {
        const send = () => {
          if (response.destroyed) return;
          response.statusCode = status;
          response.setHeader('content-type', 'application/json');
          response.end(JSON.stringify(payload));
        };
        if (behaviour.delayMs) setTimeout(send, behaviour.delayMs).unref();
        else send();
      };
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return reply(400, { error: { message: 'invalid JSON body' } });
      }
      requests.push({ headers: request.headers, body });
      if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
        return reply(404, { error: { message: `no route ${request.method} ${request.url}` } });
      }
      if (options.apiKey && request.headers.authorization !== `Bearer ${options.apiKey}`) {
        return reply(401, { error: { message: 'invalid api key' } });
      }
      if (behaviour.failWithStatus) return reply(behaviour.failWithStatus, { error: { message: 'simulated failure' } });
      const { messages, model } = body as { messages?: ChatMessage[]; model?: string };
      if (!Array.isArray(messages) || typeof model !== 'string') {
        return reply(400, { error: { message: 'model and messages are required' } });
      }
      const content = behaviour.rawContent ?? JSON.stringify(decide(messages));
      reply(200, {
        id: `chatcmpl-${requests.length}`,
        object: 'chat.completion',
        created: 0,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    behaviour,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
