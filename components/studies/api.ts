/** Addresses of the study pages and of their JSON API. Requests go through requestJson (components/queries/api). */

const enc = encodeURIComponent;

export const studiesPage = (slug: string) => `/kb/${enc(slug)}/studies`;
export const studyPage = (slug: string, id: number) => `${studiesPage(slug)}/${id}`;
export const resultsPage = (slug: string, id: number) => `${studyPage(slug, id)}/results`;
export const ratePage = (slug: string, id: number) => `${studyPage(slug, id)}/rate`;

export const studiesApi = (slug: string) => `/api/kbs/${enc(slug)}/studies`;
export const studyApi = (id: number) => `/api/studies/${id}`;
export const modelRatersApi = (id: number) => `${studyApi(id)}/model-raters`;
export const crowdApi = (id: number) => `${studyApi(id)}/crowd`;

/** The addresses participants open; the origin is the browser's, as the links are shared from there. */
export const personalLinkUrl = (origin: string, token: string) => `${origin}/rate/${enc(token)}`;
export const studyLinkUrl = (origin: string, token: string) => `${origin}/join/${enc(token)}`;

export type ExportFormat = 'ratings-csv' | 'ratings-jsonl' | 'summary-csv' | 'summary-md' | 'model-ratings-csv' | 'participants-csv' | 'participants-jsonl';

export const exportUrl = (id: number, format: ExportFormat, excludeFailed: boolean) =>
  `${studyApi(id)}/export?format=${format}${excludeFailed ? '&excludeFailed=1' : ''}`;
