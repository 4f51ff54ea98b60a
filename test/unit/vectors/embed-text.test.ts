import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddingsEndpoint, embedTexts } from '../../../lib/vectors/embed-text';

/** A tiny OpenAI-compatible service: embeds a text as [its length, its count of "a", 0], answering in reverse order. */
let server: http.Server;
let base: string;
const seen: { url?: string; auth?: string; body: unknown }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as { model: string; input: string[] };
      seen.push({ url: req.url, auth: req.headers.authorization, body });
      if (body.model === 'broken') {
        res.writeHead(500).end('model not loaded');
        return;
      }
      const data = body.input.map((t, index) => ({ object: 'embedding', index, embedding: body.model === 'zeros' ? [0, 0, 0] : [t.length, t.split('a').length - 1, 0] }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: data.reverse(), model: body.model }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('OpenAI-compatible embeddings client', () => {
  it('reads its endpoint from the environment', () => {
    expect(embeddingsEndpoint({})).toBeNull();
    expect(embeddingsEndpoint({ SKB_EMBEDDINGS_URL: 'http://x/v1/', SKB_EMBEDDINGS_MODEL: 'm', SKB_EMBEDDINGS_KEY: 'k' })).toEqual({ url: 'http://x/v1', model: 'm', key: 'k' });
    expect(() => embeddingsEndpoint({ SKB_EMBEDDINGS_URL: 'http://x' })).toThrow(/SKB_EMBEDDINGS_MODEL is not/);
  });

  it('posts the texts to {url}/embeddings with the model and key, and returns unit vectors in input order', async () => {
    const endpoint = embeddingsEndpoint({ SKB_EMBEDDINGS_URL: base, SKB_EMBEDDINGS_MODEL: 'tiny', SKB_EMBEDDINGS_KEY: 'secret' })!;
    const vectors = await embedTexts(endpoint, ['aaaa', 'abc']);
    expect(seen.at(-1)).toEqual({ url: '/v1/embeddings', auth: 'Bearer secret', body: { model: 'tiny', input: ['aaaa', 'abc'] } });
    // [4, 4, 0] and [3, 1, 0], made unit-length.
    expect(Array.from(vectors[0]!)).toEqual([Math.fround(Math.SQRT1_2), Math.fround(Math.SQRT1_2), 0]);
    expect(Array.from(vectors[1]!)).toEqual([Math.fround(3 / Math.sqrt(10)), Math.fround(1 / Math.sqrt(10)), 0]);
  });

  it('says what went wrong when the service fails or answers unusable vectors', async () => {
    await expect(embedTexts({ url: base.replace(/\/$/, ''), model: 'broken' }, ['x'])).rejects.toThrow('The embeddings service answered 500: model not loaded');
    await expect(embedTexts({ url: base.replace(/\/$/, ''), model: 'zeros' }, ['x'])).rejects.toThrow(/embedding 0: the vector is all zeros/);
    expect(seen.at(-1)!.auth).toBeUndefined();
  });
});
