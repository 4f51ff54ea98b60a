import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatMessage } from '../../lib/llm/types';

/**
 * What the fake answers one request with: a chat completion with this content (and usage, when given); an
 * HTTP status with a body and headers; a raw body with 200; or nothing at all until the server closes.
 */
export type FakeReply =
  | { content: string; delayMs?: number; usage?: { prompt_tokens: number; completion_tokens: number }; finishReason?: string; refusal?: string }
  | { status: number; body?: string; headers?: Record<string, string>; delayMs?: number }
  | { raw: string }
  | { hang: true };

export interface FakeRequest {
  model: string;
  messages: ChatMessage[];
  /** The request's Authorization header, when it had one. */
  authorization?: string;
  temperature?: number;
  max_tokens?: number;
}

export interface FakeChatServer {
  /** Ends in /v1, as OpenAI's does: requests go to `${baseUrl}/chat/completions`. */
  baseUrl: string;
  /** Every request received, in order of arrival. */
  requests: FakeRequest[];
  /** The most requests it was answering at once. */
  readonly maxInFlight: number;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A local OpenAI-compatible chat-completions endpoint for tests (127.0.0.1, a free port). `reply` is asked
 * for each request (n counts them from 1); other paths and methods get 404.
 */
export async function startFakeChatServer(reply: (req: { model: string; messages: ChatMessage[]; n: number }) => FakeReply | Promise<FakeReply>): Promise<FakeChatServer> {
  const requests: FakeRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `No route ${req.method} ${req.url}` } }));
      return;
    }
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void answer(Buffer.concat(chunks).toString('utf8'), req.headers.authorization, res).catch((err: Error) => {
        if (!res.headersSent) res.writeHead(500).end(err.message);
      });
    });
  });

  async function answer(text: string, authorization: string | undefined, res: http.ServerResponse): Promise<void> {
    const body = JSON.parse(text) as FakeRequest;
    requests.push({ ...body, ...(authorization ? { authorization } : {}) });
    const r = await reply({ model: body.model, messages: body.messages, n: requests.length });
    if ('hang' in r) return;
    if ('raw' in r) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(r.raw);
      return;
    }
    if (r.delayMs) await sleep(r.delayMs);
    if (res.destroyed) return;
    if ('status' in r) {
      res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers })
        .end(r.body ?? JSON.stringify({ error: { message: `fake status ${r.status}` } }));
      return;
    }
    const message = r.refusal !== undefined ? { role: 'assistant', content: null, refusal: r.refusal } : { role: 'assistant', content: r.content };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
      id: `chatcmpl-fake-${requests.length}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: body.model,
      choices: [{ index: 0, message, finish_reason: r.finishReason ?? 'stop' }],
      ...(r.usage ? { usage: { ...r.usage, total_tokens: r.usage.prompt_tokens + r.usage.completion_tokens } } : {}),
    }));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    get maxInFlight() { return maxInFlight; },
    close: () => new Promise<void>((resolve) => {
      // Hanging requests hold their sockets open: close them, or close() would wait for them.
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
