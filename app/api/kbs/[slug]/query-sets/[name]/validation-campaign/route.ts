import { apiRoute, json, readJson } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleQuerySet } from '@/lib/queries/access';
import { annotatorFields, annotatorIdsOf, annotatorsNamed } from '@/lib/authoring/campaigns';
import { createValidationCampaign, validationCampaignInputSchema } from '@/lib/authoring/validation-campaign';

const bodySchema = validationCampaignInputSchema.omit({ annotatorIds: true }).extend(annotatorFields).strict().refine(...annotatorsNamed);

/** Sends the set's queries to an answer-validation campaign: one seed per query, the others reported as left out. */
export const POST = apiRoute<{ slug: string; name: string }>('queries:manage', async ({ req, user, params }) => {
  const { kb, set } = await visibleQuerySet(user, params.slug, params.name);
  const { annotators, annotatorIds, ...input } = await readJson(req, bodySchema);
  const created = await createValidationCampaign(pool(), kb.id, set, { ...input, annotatorIds: await annotatorIdsOf(pool(), { annotatorIds, annotators }) }, user.id);
  return json(created, 201);
});
