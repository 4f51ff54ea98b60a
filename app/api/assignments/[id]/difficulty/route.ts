import { apiRoute, idParam } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { can } from '@/lib/auth/roles';
import { ownAssignment, visibleAssignment } from '@/lib/authoring/access';
import { assignmentDifficulty } from '@/lib/authoring/difficulty';
import { embeddingsEndpoint } from '@/lib/vectors/embed-text';

/**
 * Where BM25 (and the vector baseline, when an embeddings service is configured and the knowledge base has
 * embeddings) ranks the seed and the answers judged relevant so far, for the draft as last saved. Its annotator
 * asks; reviewers may too. Without a current index, one starts building and the answer says so.
 */
export const GET = apiRoute<{ id: string }>('campaigns:annotate', async ({ user, params }) => {
  const id = idParam(params.id, 'assignment id');
  const a = can(user.role, 'queries:manage') ? await visibleAssignment(user, id) : await ownAssignment(user, id);
  return assignmentDifficulty(pool(), a.id, { startBuild: true, embeddings: embeddingsEndpoint() });
});
