import { notFound } from 'next/navigation';
import { orNotFound, requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import type { Permission } from '@/lib/auth/roles';
import type { SessionUser } from '@/lib/auth/session';
import { pool } from '@/lib/db/client';
import { checkPageId, type Checked, type PageProblem } from '@/lib/http/page-query';
import type { KbSummary } from '@/lib/kb/access';
import { visibleCampaign } from '@/lib/authoring/access';
import { campaignDetail, type CampaignDetail } from '@/lib/authoring/campaign-detail';
import { campaignsPage } from './api';

/** The way back from a campaign page that cannot be shown: the knowledge base's campaigns. */
export const campaignsBack = (kb: KbSummary): PageProblem['back'] => ({ href: campaignsPage(kb.slug), label: `Campaigns of ${kb.name}` });

/**
 * For the pages of one campaign (server only): the signed-in user with the permission, the knowledge base
 * and the campaign; the page's problem when the id is malformed; the 404 page when the user may not see the
 * campaign or it belongs to another knowledge base (the same answer as for none, so existence is not revealed).
 */
export async function requirePageCampaign(path: string, slug: string, id: string, permission: Permission): Promise<Checked<{ user: SessionUser; kb: KbSummary; campaign: CampaignDetail }>> {
  const user = await requirePageUser(path, permission);
  const kb = await requirePageKb(user, slug);
  const campaignId = checkPageId(id, 'campaign id', campaignsBack(kb));
  if (!campaignId.ok) return campaignId;
  const visible = await orNotFound(visibleCampaign(user, campaignId.value));
  if (visible.kbId !== kb.id) notFound();
  const { campaign } = await campaignDetail(pool(), visible.id, user.id);
  return { ok: true, value: { user, kb, campaign } };
}
