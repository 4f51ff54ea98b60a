import type { z } from 'zod';
import type { LlmClient } from '../llm/client';
import { renderPrompt, type PromptId } from '../llm/prompts';
import type { LlmEndpoint, LlmResult } from '../llm/types';

/** What an item's stages need of the LLM client. */
export type LlmCaller = Pick<LlmClient, 'call'>;

/** Longest document text put into a prompt: beyond it a document is cut (models' context windows are finite). */
const MAX_DOCUMENT_CHARS = 12_000;

export const promptDocument = (text: string) => (text.length > MAX_DOCUMENT_CHARS ? `${text.slice(0, MAX_DOCUMENT_CHARS)}\n…` : text);

/** The calls of one item: who they are made for, and what they used (call ids and prompt versions, for provenance). */
export class ItemCalls {
  readonly callIds: number[] = [];
  readonly prompts: { id: string; version: number }[] = [];

  constructor(private readonly client: LlmCaller, private readonly kbId: number, private readonly jobId: number | null, private readonly position: number) {}

  /**
   * One prompt to one endpoint. `unit` names the unit of work within the item ("filter / model / entity"), so
   * a resumed job reuses a finished call instead of paying for it again.
   */
  async call<T>(endpoint: LlmEndpoint, id: PromptId, vars: Record<string, string>, schema: z.ZodType<T>, unit: string, maxTokens: number): Promise<LlmResult<T>> {
    const prompt = renderPrompt(id, vars);
    if (!this.prompts.some((p) => p.id === prompt.promptId && p.version === prompt.promptVersion)) {
      this.prompts.push({ id: prompt.promptId, version: prompt.promptVersion });
    }
    const purpose = unit.split(' / ')[0]!;
    const result = await this.client.call({
      endpoint, prompt, schema, maxTokens,
      context: { kbId: this.kbId, jobId: this.jobId, purpose, itemKey: `item ${this.position} / ${unit}` },
    });
    if (result.callId !== null) this.callIds.push(result.callId);
    return result;
  }
}

/** A failed call in words, for the item's reason. */
export const failureText = (r: Extract<LlmResult<unknown>, { ok: false }>) => `${r.reason}: ${r.message}`;
