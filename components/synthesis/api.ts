import type { JobView } from '@/lib/synthesis/job-store';
import type { LlmStatus } from '@/lib/synthesis/template-list';
import type { ItemOutcome, SynthesisTemplate, TemplateSize } from '@/lib/synthesis/types';

/**
 * Addresses and answer shapes of the synthesis API and pages, as the browser sees them. Requests go through
 * requestJson (components/queries/api), so a refused form keeps the server's status and field problems.
 */

const enc = encodeURIComponent;

export const synthesisApi = (slug: string) => `/api/kbs/${enc(slug)}/synthesis`;
export const jobApi = (slug: string, id: number) => `${synthesisApi(slug)}/jobs/${id}`;
export const synthesizePage = (slug: string) => `/kb/${enc(slug)}/synthesize`;
export const llmCallPage = (slug: string, id: number | string) => `/kb/${enc(slug)}/llm-calls/${enc(String(id))}`;
export const PROMPTS_API = '/api/llm/prompts';

export type { JobView } from '@/lib/synthesis/job-store';
export type { LlmStatus } from '@/lib/synthesis/template-list';
export type JobStatus = JobView['status'];

export type ListedTemplate = SynthesisTemplate & { size?: TemplateSize };

export interface TemplateList {
  llm: LlmStatus;
  total: number;
  items: ListedTemplate[];
}

export type PreviewItem = ItemOutcome & { position: number };

/** What the page sends to start a job (and, without the set's name, to preview). */
export interface JobSpecBody {
  querySet?: string;
  templates: string[] | { minAnswers: number; maxAnswers: number };
  count: number;
  seed: number;
  useLlm: boolean;
  filterModels?: string[];
  agreement: 'all' | 'majority';
  maxAnswers: number;
}

export type { PromptTemplate as PromptView } from '@/lib/llm/prompts/template';
