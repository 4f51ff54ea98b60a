import { apiRoute, json, readJson } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleQuerySet } from '@/lib/queries/access';
import { annotatorFields, annotatorIdsOf, annotatorsNamed } from '@/lib/authoring/campaigns';
import { auditCampaignInputSchema, createAuditCampaign } from '@/lib/authoring/audit-campaign';

const bodySchema = auditCampaignInputSchema.omit({ annotatorIds: true }).extend(annotatorFields).strict().refine(...annotatorsNamed);

/** Audits the set (or one of its releases): one item per query with its current answers; all or nothing. */
export const POST = apiRoute<{ slug: string; name: string }>('queries:manage', async ({ req, user, params }) => {
  const { kb, set } = await visibleQuerySet(user, params.slug, params.name);
  const { annotators, annotatorIds, ...input } = await readJson(req, bodySchema);
  return json(await createAuditCampaign(pool(), kb.id, set, { ...input, annotatorIds: await annotatorIdsOf(pool(), { annotatorIds, annotators }) }, user.id), 201);
});
