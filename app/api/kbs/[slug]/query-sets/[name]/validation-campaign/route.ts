import { z } from 'zod';
import { apiRoute, json, readJson } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { idSchema } from '@/lib/input';
import { visibleQuerySet } from '@/lib/queries/access';
import { annotatorEmailsSchema, annotatorIdsByEmail } from '@/lib/authoring/campaigns';
import { createValidationCampaign, validationCampaignInputSchema } from '@/lib/authoring/validation-campaign';

// Annotators by id (API clients) or by email (the form's picker), or both.
const bodySchema = validationCampaignInputSchema.omit({ annotatorIds: true }).extend({
  annotatorIds: z.array(idSchema).min(1).max(1000).optional(),
  annotators: annotatorEmailsSchema.optional(),
}).strict().refine((b) => b.annotatorIds || b.annotators, { message: 'name the annotators (annotatorIds or annotators by email)', path: ['annotatorIds'] });

/** Sends the set's queries to an answer-validation campaign: one seed per query, the others reported as left out. */
export const POST = apiRoute<{ slug: string; name: string }>('queries:manage', async ({ req, user, params }) => {
  const { kb, set } = await visibleQuerySet(user, params.slug, params.name);
  const { annotators, annotatorIds = [], ...input } = await readJson(req, bodySchema);
  const byEmail = annotators ? await annotatorIdsByEmail(pool(), annotators) : [];
  const created = await createValidationCampaign(pool(), kb.id, set, { ...input, annotatorIds: [...new Set([...annotatorIds, ...byEmail])] }, user.id);
  return json(created, 201);
});
