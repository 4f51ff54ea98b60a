import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getLlmCall, listLlmCalls, STORED_TEXT_CHARS } from '../../lib/llm/calls';
import { LlmClient } from '../../lib/llm/client';
import { renderPrompt } from '../../lib/llm/prompts';
import type { LlmConfig, LlmEndpoint, LlmRequest } from '../../lib/llm/types';
import { openAppDatabase, pool } from '../support/app-database';
import { startFakeChatServer, type FakeChatServer, type FakeReply } from '../support/fake-chat-server';
import type { TestDatabase } from '../support/test-database';

let testDb: TestDatabase;
let kbId: number;
let fake: FakeChatServer | null = null;

const querySchema = z.object({ query: z.string().min(1) });
const prompt = (n = 0) => renderPrompt('synthesis.compose', {
  template: 'a gene associated with <disease>', seeds: `Crohn disease ${n}`, answerType: 'gene/protein', properties: '- expressed in the colon',
});
const config = (over: Partial<Pick<LlmConfig, 'concurrency' | 'timeoutMs' | 'maxRetries'>> = {}) => ({ concurrency: 4, timeoutMs: 5_000, maxRetries: 2, ...over });

async function serve(reply: (n: number) => FakeReply | Promise<FakeReply>): Promise<FakeChatServer> {
  fake = await startFakeChatServer(({ n }) => reply(n));
  return fake;
}
const endpoint = (server: FakeChatServer, apiKey?: string): LlmEndpoint => ({ baseUrl: server.baseUrl, model: 'fake-model', ...(apiKey ? { apiKey } : {}) });
const request = (server: FakeChatServer, over: Partial<LlmRequest<{ query: string }>> = {}): LlmRequest<{ query: string }> => ({
  endpoint: endpoint(server), prompt: prompt(), schema: querySchema, context: { kbId, purpose: 'compose' }, ...over,
});
const answer = (query: string, usage = { prompt_tokens: 120, completion_tokens: 30 }): FakeReply => ({ content: JSON.stringify({ query }), usage });
const stored = async (callId: number | null) => (await getLlmCall(pool(), callId!))!;

beforeAll(async () => {
  testDb = await openAppDatabase();
  kbId = (await pool().query<{ id: number }>(`INSERT INTO knowledge_base (slug, name) VALUES ('llm-kb', 'LLM kb') RETURNING id`)).rows[0]!.id;
});
afterEach(async () => {
  await fake?.close();
  fake = null;
});
afterAll(async () => {
  await testDb?.drop();
});

describe('LlmClient against an OpenAI-compatible endpoint', () => {
  it('sends the prompt, parses the answer and stores the call with its tokens, latency and attempts', async () => {
    const server = await serve(() => ({ ...answer('Which gene expressed in the colon is linked to Crohn disease?'), delayMs: 50 }));
    const client = new LlmClient(pool(), config());
    const req = { ...request(server), endpoint: endpoint(server, 'sk-test'), temperature: 0.7, maxTokens: 200 };
    const result = await client.call(req);

    expect(result).toMatchObject({ ok: true, value: { query: 'Which gene expressed in the colon is linked to Crohn disease?' }, tokens: 150, reused: false });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ model: 'fake-model', messages: req.prompt.messages, authorization: 'Bearer sk-test', temperature: 0.7, max_tokens: 200 });
    const call = await stored(result.callId);
    expect(call).toMatchObject({
      kbId, jobId: null, studyId: null, purpose: 'compose', model: 'fake-model', baseUrlHost: new URL(server.baseUrl).host,
      promptId: 'synthesis.compose', promptVersion: 1, messages: req.prompt.messages, status: 'ok', httpStatus: 200, error: null,
      attempts: 1, promptTokens: 120, completionTokens: 30, totalTokens: 150,
      response: JSON.stringify({ query: 'Which gene expressed in the colon is linked to Crohn disease?' }),
    });
    expect(call.latencyMs).toBeGreaterThanOrEqual(50);
    expect(client).toMatchObject({ tokensUsed: 150, callCount: 1, failureCount: 0 });
  });

  it('reads the JSON object out of a fenced, chatty answer and estimates tokens when no usage is reported', async () => {
    const content = 'Sure! Here it is:\n```json\n{"query": "Which gene {really} matters?"}\n```\nHope this helps.';
    const server = await serve(() => ({ content }));
    const client = new LlmClient(pool(), config());
    const req = request(server);
    const result = await client.call(req);
    expect(result).toMatchObject({ ok: true, value: { query: 'Which gene {really} matters?' } });
    const chars = req.prompt.messages.reduce((n, m) => n + m.content.length, 0) + content.length;
    const call = await stored(result.callId);
    expect(call.promptTokens).toBeNull();
    expect(call.completionTokens).toBeNull();
    expect(call.totalTokens).toBe(Math.ceil(chars / 4));
    expect(client.tokensUsed).toBe(call.totalTokens);
  });

  it('keeps at most `concurrency` requests in flight and serves the waiting calls in turn', async () => {
    const server = await serve(() => ({ ...answer('q'), delayMs: 150 }));
    const client = new LlmClient(pool(), config({ concurrency: 2 }));
    const started = Date.now();
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => client.call({ ...request(server), prompt: prompt(i) })));
    const elapsed = Date.now() - started;

    expect(results.every((r) => r.ok)).toBe(true);
    expect(server.requests).toHaveLength(6);
    expect(server.maxInFlight).toBe(2);
    expect(elapsed).toBeGreaterThanOrEqual(3 * 150);
    // First come, first served: calls go out two at a time in the order they were made. The two
    // requests of one round may reach the server in either order, so compare round by round.
    const arrived = server.requests.map((r) => r.messages[1]!.content.match(/Crohn disease (\d)/)![1]);
    const rounds = [0, 2, 4].map((at) => arrived.slice(at, at + 2).sort());
    expect(rounds).toEqual([['0', '1'], ['2', '3'], ['4', '5']]);
  });

  it("waits as long as a 429's Retry-After says before trying again", async () => {
    const server = await serve((n) => (n === 1 ? { status: 429, headers: { 'retry-after': '1' }, body: '{"error":{"message":"slow down"}}' } : answer('q')));
    const client = new LlmClient(pool(), config());
    const started = Date.now();
    const result = await client.call(request(server));
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(result.ok).toBe(true);
    expect(server.requests).toHaveLength(2);
    expect(await stored(result.callId)).toMatchObject({ status: 'ok', attempts: 2, httpStatus: 200 });
  });

  it('retries a 500 and succeeds; without retries left the 500 is a recorded failure', async () => {
    let server = await serve((n) => (n === 1 ? { status: 500, body: 'upstream exploded' } : answer('q')));
    const retried = await new LlmClient(pool(), config()).call(request(server));
    expect(retried.ok).toBe(true);
    expect(await stored(retried.callId)).toMatchObject({ attempts: 2, status: 'ok' });
    await server.close();

    server = await serve(() => ({ status: 503, body: 'overloaded' }));
    const client = new LlmClient(pool(), config({ maxRetries: 1 }));
    const failed = await client.call(request(server));
    expect(failed).toMatchObject({ ok: false, reason: 'http', tokens: 0 });
    expect(server.requests).toHaveLength(2);
    const call = await stored(failed.ok ? null : failed.callId);
    expect(call).toMatchObject({ status: 'http', httpStatus: 503, attempts: 2, response: 'overloaded', totalTokens: 0 });
    expect(call.error).toContain('HTTP 503');
    expect(client).toMatchObject({ callCount: 1, failureCount: 1 });
  });

  it('does not retry a 400: the request itself is wrong', async () => {
    const server = await serve(() => ({ status: 400, body: '{"error":{"message":"unknown model"}}' }));
    const result = await new LlmClient(pool(), config()).call(request(server));
    expect(result).toMatchObject({ ok: false, reason: 'http' });
    expect(result.ok ? '' : result.message).toContain('unknown model');
    expect(server.requests).toHaveLength(1);
  });

  it('records a body that is no chat completion as malformed, keeping what came', async () => {
    const server = await serve(() => ({ raw: '<html>gateway says hi' }));
    const result = await new LlmClient(pool(), config()).call(request(server));
    expect(result).toMatchObject({ ok: false, reason: 'malformed' });
    expect(await stored(result.ok ? null : result.callId)).toMatchObject({ status: 'malformed', response: '<html>gateway says hi', attempts: 1, httpStatus: 200 });
  });

  it("records an answer whose JSON does not match the request's schema as malformed, naming the field", async () => {
    const server = await serve(() => ({ content: '{"question": "Which gene?"}', usage: { prompt_tokens: 10, completion_tokens: 5 } }));
    const client = new LlmClient(pool(), config());
    const result = await client.call(request(server));
    expect(result).toMatchObject({ ok: false, reason: 'malformed', tokens: 15 });
    expect(result.ok ? '' : result.message).toMatch(/query/);
    expect(await stored(result.ok ? null : result.callId)).toMatchObject({ status: 'malformed', response: '{"question": "Which gene?"}' });
    // Tokens were spent on it all the same.
    expect(client.tokensUsed).toBe(15);

    await server.close();
    const prose = await serve(() => ({ content: 'I think the answer is a gene.' }));
    const noJson = await client.call(request(prose));
    expect(noJson).toMatchObject({ ok: false, reason: 'malformed', message: 'The answer holds no JSON object' });
  });

  it('records refusals, content-filtered and empty answers as refused', async () => {
    const replies: FakeReply[] = [
      { content: '', refusal: "I can't help with that." },
      { content: '{"query": "partial"}', finishReason: 'content_filter' },
      { content: '   ' },
    ];
    const server = await serve((n) => replies[n - 1]!);
    const client = new LlmClient(pool(), config());
    const results = [];
    for (let i = 0; i < replies.length; i++) results.push(await client.call(request(server)));
    expect(results.map((r) => (r.ok ? 'ok' : r.reason))).toEqual(['refused', 'refused', 'refused']);
    expect(results.map((r) => (r.ok ? '' : r.message))).toEqual([
      "The model refused: I can't help with that.", "The endpoint's content filter stopped the answer", 'The model gave an empty answer']);
    expect((await stored(results[0]!.ok ? null : results[0]!.callId)).response).toBe("I can't help with that.");
    expect(server.requests).toHaveLength(3);
  });

  it('times out a hanging endpoint per attempt and records the failure', async () => {
    const server = await serve(() => ({ hang: true }));
    const client = new LlmClient(pool(), config({ timeoutMs: 300, maxRetries: 1 }));
    const started = Date.now();
    const result = await client.call(request(server));
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    expect(result).toMatchObject({ ok: false, reason: 'timeout' });
    expect(server.requests).toHaveLength(2);
    const call = await stored(result.ok ? null : result.callId);
    expect(call).toMatchObject({ status: 'timeout', attempts: 2, response: null, httpStatus: null });
    expect(call.error).toContain('No answer within 300 ms');
  });

  it('records an endpoint nobody listens on as a network failure', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = await new LlmClient(pool(), config({ maxRetries: 0 }))
      .call({ ...request({ baseUrl: `http://127.0.0.1:${port}/v1` } as FakeChatServer) });
    expect(result).toMatchObject({ ok: false, reason: 'network' });
    expect(await stored(result.ok ? null : result.callId)).toMatchObject({ status: 'network', attempts: 1 });
  });

  it('stops calling once the token budget is used up, still recording each refused call', async () => {
    const server = await serve(() => answer('q', { prompt_tokens: 30, completion_tokens: 10 }));
    const client = new LlmClient(pool(), config(), { tokenBudget: 60 });
    expect((await client.call(request(server))).ok).toBe(true);
    expect((await client.call(request(server))).ok).toBe(true);
    const over = await client.call(request(server));
    expect(over).toMatchObject({ ok: false, reason: 'budget', tokens: 0 });
    expect(over.ok ? '' : over.message).toContain('60');
    expect(server.requests).toHaveLength(2);
    expect(await stored(over.ok ? null : over.callId)).toMatchObject({ status: 'budget', attempts: 0, response: null, totalTokens: 0 });
    expect(client).toMatchObject({ tokensUsed: 80, callCount: 3, failureCount: 1 });
  });

  it("reuses a job's finished call for the same item and request on resume, without asking again", async () => {
    const jobId = (await pool().query<{ id: number }>(
      `INSERT INTO synthesis_job (kb_id, set_name, spec, templates, total) VALUES ($1, 'syn', '{}', '{}', 1) RETURNING id`, [kbId])).rows[0]!.id;
    const server = await serve((n) => answer(`query ${n}`));
    const context = { kbId, jobId, purpose: 'compose', itemKey: 'item 3 / compose' };
    const first = await new LlmClient(pool(), config()).call(request(server, { context }));
    expect(first).toMatchObject({ ok: true, value: { query: 'query 1' }, reused: false });

    const resumed = new LlmClient(pool(), config());
    const again = await resumed.call(request(server, { context }));
    expect(again).toEqual({ ok: true, value: { query: 'query 1' }, callId: first.ok ? first.callId : -1, tokens: 0, reused: true });
    expect(server.requests).toHaveLength(1);
    expect(resumed).toMatchObject({ tokensUsed: 0, callCount: 0 });

    // Another item, another prompt or no job: a new request each.
    await resumed.call(request(server, { context: { ...context, itemKey: 'item 4 / compose' } }));
    await resumed.call(request(server, { context, prompt: prompt(9) }));
    await resumed.call(request(server, { context: { kbId, purpose: 'compose', itemKey: 'item 3 / compose' } }));
    expect(server.requests).toHaveLength(4);

    const listed = await listLlmCalls(pool(), { kbId, jobId, limit: 10, offset: 0 });
    expect(listed.total).toBe(3);
    expect(listed.items.map((c) => c.itemKey)).toEqual(['item 3 / compose', 'item 4 / compose', 'item 3 / compose']);
  });

  it('stores a huge response cut to its first 200,000 characters and says so', async () => {
    const content = `{"query": "big"}${' '.repeat(250_000)}`;
    const server = await serve(() => ({ content }));
    const result = await new LlmClient(pool(), config()).call(request(server));
    expect(result).toMatchObject({ ok: true, value: { query: 'big' } });
    const call = await stored(result.callId);
    expect(call.response).toHaveLength(STORED_TEXT_CHARS);
    expect(call.error).toContain('stored cut to its first 200,000');
  });

  it('lists a knowledge base\'s calls newest first, paged', async () => {
    const all = await listLlmCalls(pool(), { kbId, limit: 1000, offset: 0 });
    const page = await listLlmCalls(pool(), { kbId, limit: 2, offset: 1 });
    expect(page.total).toBe(all.total);
    expect(page.items.map((c) => c.id)).toEqual(all.items.slice(1, 3).map((c) => c.id));
    expect(all.items[0]!.id).toBeGreaterThan(all.items[1]!.id);
    expect(await getLlmCall(pool(), 987_654)).toBeNull();
  });
});
