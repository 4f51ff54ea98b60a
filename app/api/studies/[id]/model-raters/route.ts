import { apiRoute, idParam, json, parseWith, readJson } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { llmConfig } from '@/lib/llm/config';
import { visibleStudy } from '@/lib/studies/admin';
import { cancelModelRater, listModelRatersState, modelRaterInputSchema, startModelRater } from '@/lib/studies/model-rater';

/**
 * The study's model raters with their progress, and the configured LLM (whether one is, and its model).
 * `interrupted`: shown running, but its app process is gone (killed or restarted); adding it again resumes.
 */
export const GET = apiRoute<{ id: string }>('queries:manage', async ({ user, params }) => {
  const study = await visibleStudy(pool(), user, idParam(params.id, 'study id'));
  const main = llmConfig().main;
  const items = await listModelRatersState(pool(), study.id);
  return { llm: { configured: main !== null, model: main?.model ?? null }, items };
});

/** Adds a model rater (the configured model, or `model` on the same endpoint), or resumes it; it rates in the background. */
export const POST = apiRoute<{ id: string }>('queries:manage', async ({ req, user, params }) => {
  const study = await visibleStudy(pool(), user, idParam(params.id, 'study id'));
  const input = await readJson(req, modelRaterInputSchema);
  return json(await startModelRater(pool(), study.id, input, user.id, { config: llmConfig() }), 202);
});

/** `?model=NAME`: cancels that model's rating (what it rated is kept; adding it again resumes). */
export const DELETE = apiRoute<{ id: string }>('queries:manage', async ({ req, user, params }) => {
  const study = await visibleStudy(pool(), user, idParam(params.id, 'study id'));
  const model = parseWith(modelRaterInputSchema.shape.model.unwrap(), new URL(req.url).searchParams.get('model'), 'model');
  return json(await cancelModelRater(pool(), study.id, model, user.id), 202);
});
