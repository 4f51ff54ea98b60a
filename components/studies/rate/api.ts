/** Addresses of the participant pages and of the participation API they use (through requestJson). */

const enc = encodeURIComponent;

/** An anonymous participant's API: the token in the path is the credential. */
export const participantApi = (token: string) => `/api/participate/${enc(token)}`;
/** A signed-in rater's own participation in a study. */
export const raterApi = (studyId: number) => `/api/studies/${studyId}/me`;
/** The study link's API, which issues a participant token. */
export const joinApi = (linkToken: string) => `/api/join/${enc(linkToken)}`;

/** A personal link's page. */
export const ratePage = (token: string) => `/rate/${enc(token)}`;
/** A signed-in rater's page for a study. */
export const raterPage = (slug: string, studyId: number) => `/kb/${enc(slug)}/studies/${studyId}/rate`;
