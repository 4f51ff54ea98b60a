/**
 * Addresses and requests of the query-set pages. Unlike `fetchJson`, a failed request keeps its status and
 * details, so a form can show the per-line problems of a 400 or word a 409 for what it means.
 */

const enc = encodeURIComponent;

/** The JSON API of one query set. */
export const setApi = (slug: string, name: string) => `/api/kbs/${enc(slug)}/query-sets/${enc(name)}`;

/** The pages of a knowledge base's query sets. */
export const queriesPage = (slug: string) => `/kb/${enc(slug)}/queries`;
export const setPage = (slug: string, name: string, tab?: string) => `${queriesPage(slug)}/${enc(name)}${tab ? `?tab=${tab}` : ''}`;
export const queryPage = (slug: string, name: string, qid: string) => `${setPage(slug, name)}/q/${enc(qid)}`;
export const releasePage = (slug: string, name: string, n: number) => `${setPage(slug, name)}/releases/${n}`;
export const runPage = (slug: string, name: string, id: number) => `${setPage(slug, name)}/runs/${id}`;

/** A problem the server found in an uploaded file. */
export interface LineProblem {
  file: string;
  line: number;
  reason: string;
}

/** A non-2xx answer of the JSON API. */
export class ApiError extends Error {
  constructor(readonly status: number, message: string, readonly details: unknown) {
    super(message);
    this.name = 'ApiError';
  }

  /** The per-line problems of a refused file (import, run), empty for other errors. */
  get problems(): LineProblem[] {
    if (!Array.isArray(this.details)) return [];
    return this.details.filter((d): d is LineProblem =>
      typeof d === 'object' && d !== null && typeof d.file === 'string' && typeof d.line === 'number' && typeof d.reason === 'string');
  }
}

/** fetch for the JSON API; `json` is sent as a JSON body. Throws an ApiError on a non-2xx answer. */
export async function requestJson<T>(url: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const { json, ...rest } = init;
  const res = await fetch(url, json === undefined ? rest : {
    ...rest,
    headers: { 'content-type': 'application/json', ...rest.headers },
    body: JSON.stringify(json),
  });
  const answer = (await res.json().catch(() => null)) as { error?: string; details?: unknown } | null;
  if (!res.ok) throw new ApiError(res.status, answer?.error ?? `${res.status} ${res.statusText}`, answer?.details);
  return answer as T;
}
