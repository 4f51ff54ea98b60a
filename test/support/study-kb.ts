import { createUser } from '../../lib/auth/users';
import { Role } from '../../lib/auth/roles';
import { db, pool } from './app-database';
import { importIbd } from './primekg-ibd';

/**
 * What the study tests start from: the IBD knowledge base, a curator, and a human query set `ibd-human` of the
 * given texts (each answered by entity 144). The app database must be open.
 */
export async function studyKb(queries: string[]): Promise<{ kbId: number; curator: number }> {
  const kbId = await importIbd(pool());
  const curator = (await createUser(db(), { email: 'curator@example.org', password: 'a long password', role: Role.CURATOR })).id;
  const { rows: [set] } = await pool().query<{ id: number }>(`INSERT INTO query_set (kb_id, name, origin) VALUES ($1, 'ibd-human', 'HUMAN') RETURNING id`, [kbId]);
  await pool().query(`INSERT INTO query (set_id, external_id, position, text, answer_ids) SELECT $1, (n - 1)::text, n - 1, t, ARRAY['144'] FROM unnest($2::text[]) WITH ORDINALITY u(t, n)`, [set!.id, queries]);
  return { kbId, curator };
}
