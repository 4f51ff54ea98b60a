import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '../../lib/auth/session';
import { createUser } from '../../lib/auth/users';
import { Role } from '../../lib/auth/roles';
import { recordLlmCall, type StoredLlmCall } from '../../lib/llm/calls';
import { renderPrompt } from '../../lib/llm/prompts';
import { db, openAppDatabase, pool } from '../support/app-database';
import * as promptsRoute from '../../app/api/llm/prompts/route';
import * as callRoute from '../../app/api/kbs/[slug]/llm-calls/[id]/route';
import type { TestDatabase } from '../support/test-database';

// The routes run as they do in the app, for whoever `currentUser` says is signed in.
const session = vi.hoisted(() => ({ user: null as SessionUser | null }));
vi.mock('../../lib/auth/session', () => ({ currentUser: async () => session.user }));

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

const ROUTES: Record<string, { GET: unknown }> = { 'llm/prompts': promptsRoute, 'kbs/[slug]/llm-calls/[id]': callRoute };

async function get(file: string, params: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await (ROUTES[file]!.GET as Handler)(new Request(`http://localhost/api/${file}`), { params: Promise.resolve(params) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

let testDb: TestDatabase;
let curator: SessionUser;
let annotator: SessionUser;
let callId: number;

beforeAll(async () => {
  testDb = await openAppDatabase();
  const { rows } = await pool().query<{ id: number }>(
    `INSERT INTO knowledge_base (slug, name, visibility) VALUES ('kb-a', 'A', 'PUBLIC'), ('kb-b', 'B', 'PUBLIC') RETURNING id`);
  curator = await createUser(db(), { email: 'curator@example.org', password: 'a long password', role: Role.CURATOR });
  annotator = await createUser(db(), { email: 'annotator@example.org', password: 'a long password', role: Role.ANNOTATOR });
  const prompt = renderPrompt('synthesis.filter', { query: 'Which tent?', properties: '- weighs 2 kg', type: 'product', name: 'Tent', document: 'Weighs 2 kg.' });
  callId = await recordLlmCall(pool(), {
    kbId: rows[0]!.id, jobId: null, studyId: null, purpose: 'filter', itemKey: null, requestHash: 'h', model: 'fake-model', baseUrlHost: '127.0.0.1:1',
    promptId: prompt.promptId, promptVersion: prompt.promptVersion, messages: prompt.messages, response: '{"satisfies": true, "reason": "stated"}',
    status: 'ok', httpStatus: 200, error: null, attempts: 1, promptTokens: 10, completionTokens: 5, totalTokens: 15, latencyMs: 42,
  });
});
afterAll(async () => testDb.drop());

describe('LLM routes', () => {
  it('lists the prompt templates for curators', async () => {
    session.user = curator;
    const { status, body } = await get('llm/prompts');
    expect(status).toBe(200);
    expect((body.items as { id: string; version: number; vars: string[] }[]).map((p) => [p.id, p.version, p.vars.length]))
      .toEqual([['synthesis.properties', 1, 4], ['synthesis.compose', 1, 4], ['synthesis.filter', 1, 5], ['study.rate', 1, 4]]);
    session.user = annotator;
    expect((await get('llm/prompts')).status).toBe(403);
  });

  it("shows a stored call through its own knowledge base only", async () => {
    session.user = curator;
    const own = await get('kbs/[slug]/llm-calls/[id]', { slug: 'kb-a', id: String(callId) });
    expect(own.status).toBe(200);
    const call = own.body as unknown as StoredLlmCall;
    expect(call).toMatchObject({ id: callId, purpose: 'filter', promptId: 'synthesis.filter', status: 'ok', totalTokens: 15, latencyMs: 42 });
    expect(call.messages.map((m) => m.role)).toEqual(['system', 'user']);

    const other = await get('kbs/[slug]/llm-calls/[id]', { slug: 'kb-b', id: String(callId) });
    expect(other).toEqual({ status: 404, body: { error: `No LLM call ${callId} in this knowledge base` } });
    expect((await get('kbs/[slug]/llm-calls/[id]', { slug: 'kb-a', id: '2000000000' })).status).toBe(404);
    expect((await get('kbs/[slug]/llm-calls/[id]', { slug: 'kb-a', id: 'abc' })).status).toBe(400);

    session.user = annotator;
    expect((await get('kbs/[slug]/llm-calls/[id]', { slug: 'kb-a', id: String(callId) })).status).toBe(403);
  });
});
