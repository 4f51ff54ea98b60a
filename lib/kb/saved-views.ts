import { z } from 'zod';
import { Role } from '../db/generated/enums';
import type { Queryable } from '../db/transaction';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import { idSchema } from '../input';
import { MAX_HOPS } from './neighbourhood';

/**
 * Saved graph views: a named graph view (centre, hops, relation and direction filters, layout, expansions,
 * selection and node positions) kept by its owner in one knowledge base. A view is its owner's alone until
 * shared; a shared one is listed for, and opens by its link for, everyone who can read the knowledge base.
 * The owner, a curator or an admin may change or delete a view they can see. Knowledge-base access is the
 * caller's to check first (`getVisibleKb`), so a private knowledge base's views never show through it.
 */

export const MAX_VIEW_NAME = 100;
/** The most node positions a view keeps: well above the 1,500 elements a graph view holds. */
export const MAX_VIEW_POSITIONS = 5000;
export const MAX_VIEW_EXPANSIONS = 100;
export const MAX_VIEW_RELATIONS = 100;
/** The request body limit of the routes that take a state: 5,000 positions as JSON take about 200 KiB. */
export const VIEW_BODY_LIMIT = 512 * 1024;
/** Views one person may keep in one knowledge base. */
export const MAX_VIEWS_PER_OWNER = 200;
/** Coordinates are canvas model units; a layout never comes near, so larger ones are junk. */
const MAX_COORDINATE = 1e7;

const coordinate = z.number({ error: 'must be a number' }).min(-MAX_COORDINATE, `must be at least ${-MAX_COORDINATE}`).max(MAX_COORDINATE, `must be at most ${MAX_COORDINATE}`);

export const viewNameSchema = z.string({ error: 'must be text' }).trim()
  .min(1, 'must not be empty')
  .max(MAX_VIEW_NAME, `must be at most ${MAX_VIEW_NAME} characters`)
  .regex(/^[^\p{Cc}]*$/u, 'must not contain control characters');

/** A drawn node: an entity id, or a "+N more" stub (see `stubId` in lib/kb/graph-view). */
const nodeIdSchema = z.string().max(300, 'keys must be at most 300 characters')
  .regex(/^(?:[1-9][0-9]{0,9}|stub:[1-9][0-9]{0,9}:(?:out|in):[^\p{Cc}]+)$/u, 'keys must be node ids');

export const viewStateSchema = z.object({
  entity: idSchema,
  hops: z.number({ error: 'must be 1, 2 or 3' }).int('must be 1, 2 or 3').min(1, 'must be 1, 2 or 3').max(MAX_HOPS, 'must be 1, 2 or 3'),
  dir: z.enum(['both', 'out', 'in']).default('both'),
  rel: z.array(z.string().trim().min(1, 'must not be empty').max(200)).max(MAX_VIEW_RELATIONS, `must list at most ${MAX_VIEW_RELATIONS} relations`).default([]),
  // Layout names belong to the canvas; the explorer falls back to its default for one it does not know.
  layout: z.string().regex(/^[a-z][a-z0-9-]{0,39}$/, 'must be a layout name'),
  expand: z.array(idSchema).max(MAX_VIEW_EXPANSIONS, `must list at most ${MAX_VIEW_EXPANSIONS} expansions`).default([]),
  selected: idSchema.nullable().default(null),
  positions: z.record(nodeIdSchema, z.object({ x: coordinate, y: coordinate }).strict())
    .refine((p) => Object.keys(p).length <= MAX_VIEW_POSITIONS, `must hold at most ${MAX_VIEW_POSITIONS.toLocaleString('en')} nodes`)
    .default({}),
}).strict();

export type SavedViewState = z.output<typeof viewStateSchema>;

export const createViewSchema = z.object({ name: viewNameSchema, state: viewStateSchema, shared: z.boolean().default(false) }).strict();
export const updateViewSchema = z.object({ name: viewNameSchema.optional(), state: viewStateSchema.optional(), shared: z.boolean().optional() })
  .strict()
  .refine((b) => b.name !== undefined || b.state !== undefined || b.shared !== undefined, 'give name, state or shared');

export type CreateViewInput = z.output<typeof createViewSchema>;
export type UpdateViewInput = z.output<typeof updateViewSchema>;

export interface ViewViewer {
  id: number;
  role: Role;
}

export interface SavedViewSummary {
  id: number;
  name: string;
  shared: boolean;
  ownerName: string;
  /** The viewer owns it. */
  mine: boolean;
  /** The viewer may rename, share, overwrite or delete it. */
  editable: boolean;
  entity: number;
  /** The centre's name, or null if the knowledge base no longer has it. */
  entityName: string | null;
  hops: number;
  positions: number;
  createdAt: string;
  updatedAt: string;
}

export interface SavedView extends SavedViewSummary {
  state: SavedViewState;
}

interface ViewRow extends Omit<SavedViewSummary, 'mine' | 'editable'> {
  ownerId: number;
  state?: SavedViewState;
}

const mayEdit = (viewer: ViewViewer, ownerId: number) => ownerId === viewer.id || viewer.role === Role.ADMIN || viewer.role === Role.CURATOR;

const SELECT = `SELECT v.id, v.name, v.shared, v.owner_id AS "ownerId", coalesce(u.name, u.email) AS "ownerName",
       (v.state->>'entity')::int AS entity, e.name AS "entityName", (v.state->>'hops')::int AS hops,
       (SELECT count(*)::int FROM jsonb_object_keys(v.state->'positions')) AS positions,
       v.created_at AS "createdAt", v.updated_at AS "updatedAt"`;
// The knowledge base as the parameter ($1), not v.kb_id, so the planner reads one entity partition.
const FROM = `FROM saved_graph_view v
  JOIN app_user u ON u.id = v.owner_id
  LEFT JOIN entity e ON e.kb_id = $1 AND e.id = (v.state->>'entity')::int`;
/** What a viewer ($2) sees: their own views and the shared ones. */
const VISIBLE = '(v.owner_id = $2 OR v.shared)';

function present(row: ViewRow, viewer: ViewViewer): SavedView | SavedViewSummary {
  const { ownerId, ...rest } = row;
  return { ...rest, mine: ownerId === viewer.id, editable: mayEdit(viewer, ownerId) };
}

/** The viewer's own views, then the others' shared ones, each by name. */
export async function listSavedViews(db: Queryable, kbId: number, viewer: ViewViewer): Promise<SavedViewSummary[]> {
  const { rows } = await db.query<ViewRow>(
    `${SELECT} ${FROM} WHERE v.kb_id = $1 AND ${VISIBLE} ORDER BY v.owner_id <> $2, lower(v.name), v.id`, [kbId, viewer.id]);
  return rows.map((r) => present(r, viewer));
}

const missing = (id: number) => notFound(`No saved view ${id} in this knowledge base`);

/** `anyOwner`: also a view the viewer does not see, for reading back one just unshared by a curator. */
async function findView(db: Queryable, kbId: number, viewer: ViewViewer, id: number, anyOwner = false): Promise<ViewRow & { state: SavedViewState }> {
  const { rows } = await db.query<ViewRow & { state: SavedViewState }>(
    `${SELECT}, v.state ${FROM} WHERE v.kb_id = $1 AND ${anyOwner ? '$2::int IS NOT NULL' : VISIBLE} AND v.id = $3`, [kbId, viewer.id, id]);
  // Someone else's unshared view does not exist as far as the viewer can tell.
  if (!rows[0]) throw missing(id);
  return rows[0];
}

export async function getSavedView(db: Queryable, kbId: number, viewer: ViewViewer, id: number): Promise<SavedView> {
  return present(await findView(db, kbId, viewer, id), viewer) as SavedView;
}

/** A view must be centred on an entity of its own knowledge base. */
async function checkEntity(db: Queryable, kbId: number, entity: number): Promise<void> {
  const { rows } = await db.query('SELECT 1 FROM entity WHERE kb_id = $1 AND id = $2', [kbId, entity]);
  if (!rows[0]) {
    const message = `no entity ${entity} in this knowledge base`;
    throw badRequest(`Invalid body: state.entity: ${message}`, [{ field: 'state.entity', message }]);
  }
}

/** A taken name is a 409 saying whose. */
async function uniqueName<T>(viewer: ViewViewer, ownerId: number, name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if ((err as { code?: string }).code !== '23505') throw err;
    throw conflict(ownerId === viewer.id
      ? `You already have a view named "${name}" in this knowledge base`
      : `The view's owner already has a view named "${name}" in this knowledge base`);
  }
}

export async function createSavedView(db: Queryable, kbId: number, viewer: ViewViewer, input: CreateViewInput): Promise<SavedView> {
  await checkEntity(db, kbId, input.state.entity);
  const { rows: [count] } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM saved_graph_view WHERE kb_id = $1 AND owner_id = $2', [kbId, viewer.id]);
  if (count!.n >= MAX_VIEWS_PER_OWNER) {
    throw conflict(`You keep ${MAX_VIEWS_PER_OWNER} saved views in this knowledge base, the most one may; delete one first`);
  }
  const { rows } = await uniqueName(viewer, viewer.id, input.name, () => db.query<{ id: number }>(
    `INSERT INTO saved_graph_view (kb_id, owner_id, name, state, shared) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [kbId, viewer.id, input.name, JSON.stringify(input.state), input.shared]));
  return getSavedView(db, kbId, viewer, rows[0]!.id);
}

async function editableView(db: Queryable, kbId: number, viewer: ViewViewer, id: number): Promise<ViewRow> {
  const view = await findView(db, kbId, viewer, id);
  if (!mayEdit(viewer, view.ownerId)) throw forbidden("Only the view's owner, a curator or an admin may change it");
  return view;
}

/** Renames, shares or unshares, or overwrites the state of a view; only the fields given change. */
export async function updateSavedView(db: Queryable, kbId: number, viewer: ViewViewer, id: number, patch: UpdateViewInput): Promise<SavedView> {
  const view = await editableView(db, kbId, viewer, id);
  if (patch.state) await checkEntity(db, kbId, patch.state.entity);
  await uniqueName(viewer, view.ownerId, patch.name ?? view.name, () => db.query(
    `UPDATE saved_graph_view SET name = coalesce($2, name), state = coalesce($3::jsonb, state), shared = coalesce($4, shared), updated_at = now()
      WHERE id = $1`,
    [id, patch.name ?? null, patch.state ? JSON.stringify(patch.state) : null, patch.shared ?? null]));
  return present(await findView(db, kbId, viewer, id, true), viewer) as SavedView;
}

export async function deleteSavedView(db: Queryable, kbId: number, viewer: ViewViewer, id: number): Promise<void> {
  await editableView(db, kbId, viewer, id);
  await db.query('DELETE FROM saved_graph_view WHERE id = $1', [id]);
}
