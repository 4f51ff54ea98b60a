/** Addresses of the campaign pages and of their JSON API. Requests go through requestJson (components/queries/api). */

const enc = encodeURIComponent;

export const campaignsPage = (slug: string) => `/kb/${enc(slug)}/campaigns`;
export const campaignPage = (slug: string, id: number) => `${campaignsPage(slug)}/${id}`;
export const reviewPage = (slug: string, id: number, entityId?: number) => `${campaignPage(slug, id)}/review${entityId === undefined ? '' : `/${entityId}`}`;
export const workPage = (slug: string, id: number, assignmentId: number) => `${campaignPage(slug, id)}/work/${assignmentId}`;
export const auditWorkPage = (slug: string, id: number, assignmentId: number) => `${campaignPage(slug, id)}/audit/${assignmentId}`;
export const auditReviewPage = (slug: string, id: number, item?: number) => `${campaignPage(slug, id)}/audit-review${item === undefined ? '' : `/${item}`}`;
export const entityPage = (slug: string, entityId: number) => `/kb/${enc(slug)}/entities/${entityId}`;

export const campaignApi = (id: number) => `/api/campaigns/${id}`;
export const assignmentApi = (id: number) => `/api/assignments/${id}`;
