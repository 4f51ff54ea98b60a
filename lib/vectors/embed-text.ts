import { z } from 'zod';
import { unitVector } from './vector';

/**
 * An OpenAI-compatible embeddings service (OpenAI, Azure's compatible endpoint, vLLM, Ollama, text-embeddings
 * inference …), to embed a text written in the app the way the imported query vectors were made.
 */
export interface EmbeddingsEndpoint {
  /** Base URL; requests go to `{url}/embeddings`. */
  url: string;
  model: string;
  key?: string;
}

/** From SKB_EMBEDDINGS_URL, SKB_EMBEDDINGS_MODEL and (optionally) SKB_EMBEDDINGS_KEY; null when no URL is set. */
export function embeddingsEndpoint(env: Record<string, string | undefined> = process.env): EmbeddingsEndpoint | null {
  const url = env.SKB_EMBEDDINGS_URL?.trim();
  if (!url) return null;
  const model = env.SKB_EMBEDDINGS_MODEL?.trim();
  if (!model) throw new Error('SKB_EMBEDDINGS_URL is set but SKB_EMBEDDINGS_MODEL is not: name the embedding model');
  return { url: url.replace(/\/+$/, ''), model, key: env.SKB_EMBEDDINGS_KEY?.trim() || undefined };
}

const answerSchema = z.object({
  data: z.array(z.object({ index: z.number().int().min(0), embedding: z.array(z.number()) })),
});

/** Embeds texts in one request; the vectors come back unit-length, in the texts' order. */
export async function embedTexts(endpoint: EmbeddingsEndpoint, texts: string[], timeoutMs = 15_000): Promise<Float32Array[]> {
  const res = await fetch(`${endpoint.url}/embeddings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(endpoint.key ? { authorization: `Bearer ${endpoint.key}` } : {}) },
    body: JSON.stringify({ model: endpoint.model, input: texts }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!res.ok) throw new Error(`The embeddings service answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  const parsed = answerSchema.safeParse(await res.json().catch(() => null));
  if (!parsed.success) throw new Error('The embeddings service answered without { data: [{ index, embedding }] }');
  const byIndex = new Map(parsed.data.data.map((d) => [d.index, d.embedding]));
  return texts.map((_, i) => {
    const values = byIndex.get(i);
    if (!values) throw new Error(`The embeddings service answered no embedding for input ${i}`);
    const unit = unitVector(values);
    if (typeof unit === 'string') throw new Error(`The embeddings service's embedding ${i}: ${unit}`);
    return unit;
  });
}
