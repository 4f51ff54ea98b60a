// The two ways the study load reaches the participant's API: the production app over HTTP with no session
// (the token in the path is the credential), or the library functions the route handlers call (for the test).
import type pg from 'pg';
import { joinByStudyLink, participantByToken } from '../../lib/studies/participants';
import { finishParticipation, giveConsent, saveRating, startParticipation } from '../../lib/studies/participate';
import { answerOf, request, type Answer } from './app-server';

export interface RatingBody {
  itemId: number;
  dimension: string;
  value: number;
}

/** One anonymous participant's browser: join through the study link, then everything by their own token. */
export interface StudyClient {
  /** Answers `{token}`. */
  join(linkToken: string): Promise<Answer>;
  /** Starts: answers the Participation, the study, the participant's items (given now) and answers. */
  open(token: string): Promise<Answer>;
  consent(token: string): Promise<Answer>;
  rate(token: string, body: RatingBody): Promise<Answer>;
  finish(token: string): Promise<Answer>;
}

export function httpStudyClient(baseUrl: string): StudyClient {
  // A browser sends its Origin with every mutation; the API checks it.
  const send = (method: string, path: string, body?: unknown) => request(`${baseUrl}${path}`, {
    method,
    headers: body === undefined ? { origin: baseUrl } : { 'content-type': 'application/json', origin: baseUrl },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const own = (token: string) => `/api/participate/${encodeURIComponent(token)}`;
  return {
    join: (linkToken) => send('POST', `/api/join/${encodeURIComponent(linkToken)}`),
    open: (token) => send('POST', `${own(token)}/start`),
    consent: (token) => send('POST', `${own(token)}/consent`),
    rate: (token, body) => send('PUT', `${own(token)}/ratings`, body),
    finish: (token) => send('POST', `${own(token)}/finish`),
  };
}

/** The library calls behind the participant routes, with errors answered as the routes answer them. */
export function libraryStudyClient(pool: pg.Pool): StudyClient {
  const as = (token: string) => participantByToken(pool, token);
  // Each participant from an address of their own, as a crowd's browsers are.
  let joins = 0;
  return {
    join: (linkToken) => answerOf(async () => ({ token: (await joinByStudyLink(pool, linkToken, `participant-${++joins}`)).token })),
    open: (token) => answerOf(async () => startParticipation(pool, await as(token))),
    consent: (token) => answerOf(async () => { await giveConsent(pool, await as(token)); return { consented: true }; }),
    rate: (token, body) => answerOf(async () => saveRating(pool, await as(token), body)),
    finish: (token) => answerOf(async () => { await finishParticipation(pool, await as(token)); return { finished: true }; }),
  };
}
