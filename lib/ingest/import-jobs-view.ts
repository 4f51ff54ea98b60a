import path from 'node:path';
import type pg from 'pg';
import { z } from 'zod';
import type { PrismaClient } from '../db/generated/client';
import { KbStatus, Role, Visibility } from '../db/generated/enums';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import { canManageKb } from '../kb/members';
import { importKnowledgeBase, type ImportSummary } from './importer';
import { errorReportTsv, ImportAborted } from './issues';
import { requestCancel, type ImportPhase, type JobStatus } from './jobs';
import { IMPORT_FORMATS, openSource } from './readers';
import { recoverAbandonedImports } from './recovery';
import type { KnowledgeSource } from './source';
import { removeUploads, sweepUploads, uploadIdOf, uploadPaths, UPLOAD_MAX_AGE_MS } from './uploads';
import { plural } from '../format/plural';

/**
 * Import jobs as the web app starts and shows them: a job runs in the server process after the
 * request that started it has been answered, and everything the browser shows comes from its
 * `import_job` row, so a reload (or another tab) sees the same state.
 */

interface Actor {
  id: number;
  role: Role;
}

export const startImportSchema = z
  .object({
    slug: z.string().regex(/^[a-z0-9-]{2,64}$/, 'use 2 to 64 lowercase letters, digits and "-"'),
    name: z.string().trim().min(1).max(200).optional(),
    format: z.enum(IMPORT_FORMATS),
    uploads: z.array(z.string().max(100)).min(1, 'pick at least one file').max(100),
    onError: z.enum(['stop', 'skip']).default('stop'),
    maxErrors: z.number().int().min(0).max(1_000_000).default(1000),
    replace: z.boolean().default(false),
    visibility: z.enum(['PUBLIC', 'PRIVATE']).optional(),
  })
  .strict();

export type StartImportInput = z.output<typeof startImportSchema>;

/**
 * Starts an import of uploaded files and answers with its job id as soon as the job exists; the import
 * goes on in the background. Its uploads are removed once the request is refused or the import ends.
 */
export async function startImport(pool: pg.Pool, prisma: PrismaClient, user: Actor, input: StartImportInput): Promise<number> {
  await cleanUpBeforeImport(pool, input.uploads);
  const { files, source } = await prepare(prisma, user, input).catch(async (err: unknown) => {
    await removeUploads(input.uploads, user.id);
    throw err;
  });

  let jobId: number | null = null;
  let created!: (id: number) => void;
  const jobCreated = new Promise<number>((resolve) => (created = resolve));
  const run = importKnowledgeBase(pool, source, {
    slug: input.slug,
    name: input.name,
    format: input.format,
    // The saved paths, so the sweep can tell which uploads a running import still reads.
    files,
    onError: input.onError,
    maxErrors: input.maxErrors,
    replace: input.replace,
    visibility: input.visibility,
    createdBy: user.id,
    onJobCreated: (id) => {
      jobId = id;
      created(id);
    },
  });
  void run
    .then(
      (s) => console.log(`Import job ${s.jobId} (${s.slug}): ${plural(s.entities, 'entity')}, ${plural(s.edges, 'edge')}, ${plural(s.errors.length, 'bad row')} skipped, ${s.seconds.toFixed(1)} s`),
      (err: unknown) => {
        // Before the job exists the request answers with the error; after, the job row records it.
        if (jobId === null) return;
        if (err instanceof ImportAborted) console.warn(`Import job ${jobId} (${input.slug}) ended: ${err.message}`);
        else console.error(`Import job ${jobId} (${input.slug}) failed:`, err);
      },
    )
    .finally(() => removeUploads(input.uploads, user.id).catch((err: unknown) => console.error('Could not remove uploads', input.uploads, err)));
  return Promise.race([jobCreated, run.then((s) => s.jobId)]).catch((err: unknown) => {
    // Two requests creating the same slug at once: the second loses on the unique slug.
    if ((err as { code?: string }).code === '23505') throw conflict(`Knowledge base "${input.slug}" is being imported already`);
    throw err;
  });
}

/** The uploads opened as the format's reader, once the caller may write this slug: a new one, or one they manage with `replace`. */
async function prepare(prisma: PrismaClient, user: Actor, input: StartImportInput): Promise<{ files: string[]; source: KnowledgeSource }> {
  const existing = await prisma.knowledgeBase.findUnique({ where: { slug: input.slug }, select: { id: true, status: true, visibility: true } });
  if (existing) {
    // Slugs are one namespace; of a private knowledge base the user cannot see, say only that its slug is taken.
    if (existing.visibility === Visibility.PRIVATE && !(await canManageKb(prisma, user, existing.id))) throw conflict(`The slug "${input.slug}" is taken; choose another`);
    if (existing.status === KbStatus.LOADING) throw conflict(`Knowledge base "${input.slug}" is being imported already`);
    if (!input.replace) throw conflict(`Knowledge base "${input.slug}" already exists; choose "replace" to re-import it`);
    if (!(await canManageKb(prisma, user, existing.id))) throw forbidden(`Only admins and the curators of "${input.slug}" may re-import it`);
  }
  const files = await uploadPaths(input.uploads, user.id);
  try {
    return { files, source: openSource(input.format, files) };
  } catch (err) {
    throw badRequest((err as Error).message);
  }
}

/** Jobs whose process died are closed, and uploads nobody imported within a day are removed. */
async function cleanUpBeforeImport(pool: pg.Pool, requested: string[]): Promise<void> {
  try {
    await recoverAbandonedImports(pool);
    const { rows } = await pool.query<{ files: string[] }>(`SELECT files FROM import_job WHERE status = 'RUNNING'`);
    const inUse = rows.flatMap((r) => r.files.map(uploadIdOf)).filter((id): id is string => id !== null);
    await sweepUploads(UPLOAD_MAX_AGE_MS, new Set([...inUse, ...requested]));
  } catch (err) {
    // Housekeeping must not stop an import.
    console.error('Cleaning up before an import failed:', err);
  }
}

export interface ImportError {
  file: string;
  line: number;
  reason: string;
}

export interface ImportJob {
  id: number;
  slug: string;
  /** The knowledge base's slug while it exists (a failed first import removes it). */
  kbSlug: string | null;
  format: string;
  /** File names as uploaded. */
  files: string[];
  status: JobStatus;
  phase: ImportPhase;
  rowsRead: number;
  entities: number;
  edges: number;
  bytesDone: number;
  bytesTotal: number;
  errorCount: number;
  message: string | null;
  createdBy: string | null;
  startedAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

export interface ImportJobDetail extends ImportJob {
  /** The first ERRORS_SHOWN bad rows; the error report has them all. */
  errors: ImportError[];
  summary: Omit<ImportSummary, 'errors'> | null;
}

export const ERRORS_SHOWN = 100;

interface JobRow {
  id: number;
  kb_id: number | null;
  created_by: number | null;
  slug: string;
  kb_slug: string | null;
  format: string;
  files: string[];
  status: JobStatus;
  phase: ImportPhase;
  rows_read: string;
  entities: string;
  edges: string;
  bytes_done: string;
  bytes_total: string;
  error_count: number;
  message: string | null;
  creator: string | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

const JOB_COLUMNS = `j.id, j.kb_id, j.created_by, j.slug, kb.slug AS kb_slug, j.format, j.files, j.status, j.phase,
  j.rows_read, j.entities, j.edges, j.bytes_done, j.bytes_total, j.error_count, j.message, u.email AS creator,
  j.created_at, j.updated_at, j.finished_at`;
const JOB_FROM = `import_job j LEFT JOIN knowledge_base kb ON kb.id = j.kb_id LEFT JOIN app_user u ON u.id = j.created_by`;

function toJob(r: JobRow): ImportJob {
  return {
    id: r.id,
    slug: r.slug,
    kbSlug: r.kb_slug,
    format: r.format,
    files: r.files.map((f) => path.basename(f)),
    status: r.status,
    phase: r.phase,
    rowsRead: Number(r.rows_read),
    entities: Number(r.entities),
    edges: Number(r.edges),
    bytesDone: Number(r.bytes_done),
    bytesTotal: Number(r.bytes_total),
    errorCount: r.error_count,
    message: r.message,
    createdBy: r.creator,
    startedAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
    finishedAt: r.finished_at?.toISOString() ?? null,
  };
}

/** A job its creator, admins and the knowledge base's managers may see; anyone else gets 404. */
async function visibleJobRow(pool: pg.Pool, prisma: PrismaClient, user: Actor, id: number): Promise<JobRow> {
  const { rows } = await pool.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM ${JOB_FROM} WHERE j.id = $1`, [id]);
  const row = rows[0];
  const allowed = row && (user.role === Role.ADMIN || row.created_by === user.id || (row.kb_id !== null && (await canManageKb(prisma, user, row.kb_id))));
  if (!allowed) throw notFound(`No import job ${id}`);
  return row;
}

export async function getImportJob(pool: pg.Pool, prisma: PrismaClient, user: Actor, id: number): Promise<ImportJobDetail> {
  let row = await visibleJobRow(pool, prisma, user, id);
  // A job whose process died shows as failed, with why, the moment anyone looks at it.
  if (row.status === 'RUNNING' && (await recoverAbandonedImports(pool, id)).length) row = await visibleJobRow(pool, prisma, user, id);
  const job = toJob(row);
  // Only the first errors and the summary without its error list: the page polls this every second.
  const { rows } = await pool.query<{ errors: ImportError[]; summary: Omit<ImportSummary, 'errors'> | null }>(
    `SELECT jsonb_path_query_array(errors, '$[0 to ${ERRORS_SHOWN - 1}]') AS errors, summary - 'errors' AS summary FROM import_job WHERE id = $1`,
    [id],
  );
  return { ...job, errors: rows[0]!.errors, summary: rows[0]!.summary };
}

/** The latest jobs the user may see, newest first. */
export async function listImportJobs(pool: pg.Pool, user: Actor, limit: number): Promise<ImportJob[]> {
  await recoverAbandonedImports(pool);
  const { rows } = await pool.query<JobRow>(
    `SELECT ${JOB_COLUMNS} FROM ${JOB_FROM}
      WHERE $1 OR j.created_by = $2 OR EXISTS (SELECT 1 FROM kb_member m WHERE m.kb_id = j.kb_id AND m.user_id = $2)
      ORDER BY j.id DESC LIMIT $3`,
    [user.role === Role.ADMIN, user.id, limit],
  );
  return rows.map(toJob);
}

/**
 * Asks a running import to stop ('RUNNING': it does at its next progress write). An import whose
 * process is gone cannot stop itself: it is cleaned up here and now ('FAILED').
 */
export async function cancelImportJob(pool: pg.Pool, prisma: PrismaClient, user: Actor, id: number): Promise<'RUNNING' | 'FAILED'> {
  const row = await visibleJobRow(pool, prisma, user, id);
  if ((await recoverAbandonedImports(pool, id)).length) return 'FAILED';
  if (!(await requestCancel(pool, id))) throw conflict(`Import job ${id} is not running (${row.status.toLowerCase()})`);
  return 'RUNNING';
}

/** Every bad row of a job as TSV (`file, line, reason`); tabs and line breaks in a reason become spaces. */
export async function importErrorReport(pool: pg.Pool, prisma: PrismaClient, user: Actor, id: number): Promise<string> {
  await visibleJobRow(pool, prisma, user, id);
  const { rows } = await pool.query<ImportError>(
    `SELECT x.e->>'file' AS file, (x.e->>'line')::int AS line, x.e->>'reason' AS reason
       FROM import_job j CROSS JOIN LATERAL jsonb_array_elements(j.errors) WITH ORDINALITY AS x(e, n)
      WHERE j.id = $1 ORDER BY x.n`,
    [id],
  );
  return errorReportTsv(rows);
}
