import { notFound } from 'next/navigation';
import { orNotFound, pageId, requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import type { Permission } from '@/lib/auth/roles';
import type { SessionUser } from '@/lib/auth/session';
import { pool } from '@/lib/db/client';
import type { KbSummary } from '@/lib/kb/access';
import { visibleCampaign } from '@/lib/authoring/access';
import { campaignDetail, type CampaignDetail } from '@/lib/authoring/campaign-detail';

/**
 * For the pages of one campaign (server only): the signed-in user with the permission, the knowledge base
 * and the campaign, or the 404 page when the user may not see it or it belongs to another knowledge base.
 */
export async function requirePageCampaign(path: string, slug: string, id: string, permission: Permission): Promise<{ user: SessionUser; kb: KbSummary; campaign: CampaignDetail }> {
  const user = await requirePageUser(path, permission);
  const kb = await requirePageKb(user, slug);
  const visible = await orNotFound(visibleCampaign(user, pageId(id)));
  if (visible.kbId !== kb.id) notFound();
  const { campaign } = await campaignDetail(pool(), visible.id, user.id);
  return { user, kb, campaign };
}
