import type pg from 'pg';
import { createCampaign, DEFAULT_GUIDELINES } from '../authoring/campaigns';
import { createStudy } from '../studies/create';
import { DEMO_QUERY_SET } from './queries';

export const DEMO_CAMPAIGN = 'demo-product-questions';
export const DEMO_STUDY = 'demo-question-quality';

/**
 * An open authoring campaign and an open rating study on the public catalogue, so the demo accounts find
 * work to do: the annotator (with the curator and admin) writes queries about ten sampled products, the rater
 * (and anyone else signed in) rates the demo questions. Made once; later starts leave them as they are.
 */
export async function seedDemoWork(pool: pg.Pool, catalogueSlug: string): Promise<void> {
  const { rows: [kb] } = await pool.query<{ id: number }>('SELECT id FROM knowledge_base WHERE slug = $1', [catalogueSlug]);
  const { rows: people } = await pool.query<{ id: number; email: string }>(
    `SELECT id, email FROM app_user WHERE email IN ('annotator@demo.local', 'curator@demo.local', 'admin@demo.local')`);
  const curator = people.find((p) => p.email === 'curator@demo.local');
  if (!kb || !curator) return;
  const campaign = await pool.query('SELECT 1 FROM campaign WHERE kb_id = $1 AND name = $2', [kb.id, DEMO_CAMPAIGN]);
  if (!campaign.rows.length) {
    await createCampaign(pool, kb.id, {
      name: DEMO_CAMPAIGN, guidelines: DEFAULT_GUIDELINES, annotatorsPerSeed: 2, leaseMinutes: 60, leakPolicy: 'warn',
      querySet: 'demo-human-questions', annotatorIds: people.map((p) => p.id), open: true,
    }, { mode: 'random', count: 10, types: ['product'], seed: 1, minDegree: 1 }, curator.id);
  }
  const study = await pool.query('SELECT 1 FROM study WHERE kb_id = $1 AND name = $2', [kb.id, DEMO_STUDY]);
  if (!study.rows.length) {
    await createStudy(pool, kb.id, {
      name: DEMO_STUDY, sources: [{ querySet: DEMO_QUERY_SET }], itemsPerParticipant: 10, participantsPerItem: 3, seed: 1,
      studyLink: false, open: true,
    }, curator.id);
  }
}
