import { z } from 'zod';
import { apiRoute, json, MIB, readJson } from '@/lib/http/api';
import { db, pool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { annotatorEmailsSchema, annotatorIdsByEmail, campaignInputSchema, createCampaign } from '@/lib/authoring/campaigns';
import { listCampaigns } from '@/lib/authoring/list';
import { MAX_DB_ID } from '@/lib/input';

export const GET = apiRoute<{ slug: string }>('kb:browse', async ({ user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  return { items: await listCampaigns(pool(), kb.id) };
});

const typesSchema = z.array(z.string().max(200)).max(1000).optional();
const minDegreeSchema = z.number().int().min(0).max(MAX_DB_ID).optional();
const seedsSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('random'), count: z.number().int().min(1).max(100_000), types: typesSchema, seed: z.number().int(), minDegree: minDegreeSchema }).strict(),
  z.object({ mode: z.literal('stratified'), perType: z.number().int().min(1).max(100_000), types: typesSchema, seed: z.number().int(), minDegree: minDegreeSchema }).strict(),
  z.object({ mode: z.literal('list'), text: z.string().max(10_000_000), file: z.string().max(255).default('seed list') }).strict(),
]);
const bodySchema = campaignInputSchema.omit({ annotatorIds: true }).extend({
  annotators: annotatorEmailsSchema,
  seeds: seedsSchema,
}).strict();

/** Creates a campaign: its seeds, annotators (by email) and target query set, all or nothing. */
export const POST = apiRoute<{ slug: string }>('queries:manage', async ({ req, user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const { annotators, seeds, ...input } = await readJson(req, bodySchema);
  const annotatorIds = await annotatorIdsByEmail(pool(), annotators);
  return json(await createCampaign(pool(), kb.id, { ...input, annotatorIds }, seeds, user.id), 201);
}, { bodyLimit: 16 * MIB }); // a pasted seed list may run to 10 million characters
