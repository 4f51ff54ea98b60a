import type { Queryable } from '../db/transaction';
import { csvLine } from '../export/spreadsheet-cells';
import { crowdConfigSchema, crowdOutcome, type CrowdState } from './crowd';
import { CROWD_TIMED_OUT } from './crowd-sql';
import { STUDY_CLOSED } from './participants';
import type { StudyReport } from './report';

export interface RawRating {
  participant: number;
  participant_kind: 'account' | 'anonymous';
  item: number;
  source: string;
  query_id: string | null;
  attention_check: boolean;
  dimension: string;
  value: number | null;
  text: string | null;
  rated_at: string;
}

/** Every rating with its item and participant (anonymous participants by number only). */
export async function rawRatings(db: Queryable, studyId: number): Promise<RawRating[]> {
  const { rows } = await db.query<RawRating>(
    `SELECT p.id AS participant, CASE WHEN p.user_id IS NULL THEN 'anonymous' ELSE 'account' END AS participant_kind,
            i.id AS item, i.source, i.query_external_id AS query_id, i.attention IS NOT NULL AS attention_check,
            r.dimension, r.value, r.text, to_char(r.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS rated_at
       FROM rating r JOIN study_participant p ON p.id = r.participant_id JOIN study_item i ON i.id = r.item_id
      WHERE p.study_id = $1 ORDER BY p.id, i.id, r.dimension`, [studyId]);
  return rows;
}

const RAW_COLUMNS: (keyof RawRating)[] = ['participant', 'participant_kind', 'item', 'source', 'query_id', 'attention_check', 'dimension', 'value', 'text', 'rated_at'];

/** The raw ratings for spreadsheets: free text that looks like a formula is neutralised (rawJsonl is exact). */
export function rawCsv(rows: RawRating[]): string {
  return csvLine(RAW_COLUMNS) + rows.map((r) => csvLine(RAW_COLUMNS.map((c) => r[c]))).join('');
}

export function rawJsonl(rows: object[]): string {
  return rows.map((r) => `${JSON.stringify(r)}\n`).join('');
}

/** One row per participant and item (a participant without items has one row with no item). */
export interface ParticipantItemRow {
  participant: number;
  participant_kind: 'account' | 'anonymous' | 'crowd';
  /** The participant's id on the recruiting platform, and every parameter captured from their link (JSON). */
  external_id: string | null;
  external_params: string | null;
  started_at: string | null;
  finished_at: string | null;
  /** completed, screened-out or attention-failed; null while the participation goes on. */
  outcome: string | null;
  outcome_code: string | null;
  attention_misses: number;
  item: number | null;
  position: number | null;
  source: string | null;
  query_id: string | null;
  attention_check: boolean | null;
  answered_at: string | null;
  /** Seconds from the previous item's answer (or from starting) to this item's last first answer. */
  item_seconds: number | null;
}

const ISO = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Every participant with their items: platform ids, outcome and its code, and the time spent per item, taken
 * as the time between the moments an item and the one before it were answered (each item's answered moment
 * is when its last dimension was first answered; the first item counts from starting). An outcome that follows
 * from the time limit or the study closing is reported as it shows to the participant.
 */
export async function participantItems(db: Queryable, studyId: number): Promise<ParticipantItemRow[]> {
  const { rows } = await db.query<ParticipantItemRow & { crowd: unknown; timed_out: boolean; closed: boolean; recorded: CrowdState['outcome']; items: number }>(
    `WITH answered AS (
       SELECT a.participant_id, a.item_id, a.position, (SELECT max(r.created_at) FROM rating r WHERE r.participant_id = a.participant_id AND r.item_id = a.item_id) AS at
         FROM study_assignment a JOIN study_participant p ON p.id = a.participant_id WHERE p.study_id = $1
     ), timed AS (
       SELECT x.*, lag(x.at) OVER (PARTITION BY x.participant_id ORDER BY x.position) AS before FROM answered x
     )
     SELECT p.id AS participant, CASE WHEN p.user_id IS NOT NULL THEN 'account' WHEN p.external_id IS NOT NULL THEN 'crowd' ELSE 'anonymous' END AS participant_kind,
            p.external_id, p.external_params::text AS external_params, ${ISO('p.started_at')} AS started_at, ${ISO('p.finished_at')} AS finished_at,
            CASE WHEN p.external_id IS NOT NULL THEN s.crowd END AS crowd, p.outcome AS recorded, ${CROWD_TIMED_OUT} AS timed_out, ${STUDY_CLOSED} AS closed,
            (SELECT count(*)::int FROM study_assignment a WHERE a.participant_id = p.id) AS items,
            (SELECT count(*)::int FROM study_attention_miss m WHERE m.participant_id = p.id) AS attention_misses,
            i.id AS item, t.position, i.source, i.query_external_id AS query_id, i.attention IS NOT NULL AS attention_check, ${ISO('t.at')} AS answered_at,
            round(extract(epoch FROM t.at - coalesce(t.before, p.started_at))::numeric, 1)::float8 AS item_seconds
       FROM study_participant p JOIN study s ON s.id = p.study_id
       LEFT JOIN timed t ON t.participant_id = p.id LEFT JOIN study_item i ON i.id = t.item_id
      WHERE p.study_id = $1 ORDER BY p.id, t.position`, [studyId]);
  return rows.map(({ crowd, timed_out, closed, recorded, items, ...row }) => {
    const outcome = crowd === null ? null
      : crowdOutcome(crowdConfigSchema.parse(crowd), { outcome: recorded, timedOut: timed_out, closed, full: row.started_at !== null && items === 0 });
    return { ...row, outcome: outcome?.kind ?? null, outcome_code: outcome?.code ?? null };
  });
}

const PARTICIPANT_COLUMNS: (keyof ParticipantItemRow)[] = ['participant', 'participant_kind', 'external_id', 'external_params', 'started_at', 'finished_at',
  'outcome', 'outcome_code', 'attention_misses', 'item', 'position', 'source', 'query_id', 'attention_check', 'answered_at', 'item_seconds'];

/** Participants and their items for spreadsheets: platform ids and parameters are text from the link, so formula-safe. */
export function participantsCsv(rows: ParticipantItemRow[]): string {
  return csvLine(PARTICIPANT_COLUMNS) + rows.map((r) => csvLine(PARTICIPANT_COLUMNS.map((c) => r[c]))).join('');
}

/** The same rows as JSON lines, exact, with the captured parameters as an object. */
export function participantsJsonl(rows: ParticipantItemRow[]): string {
  return rawJsonl(rows.map((r) => ({ ...r, external_params: r.external_params === null ? null : JSON.parse(r.external_params) as unknown })));
}

export interface RawModelRating {
  model: string;
  item: number;
  source: string;
  query_id: string | null;
  dimension: string;
  /** Null when the model's answer could not be used; `text` then says why. */
  value: number | null;
  /** The model's reason, or the failure. */
  text: string | null;
  call_id: number | null;
  rated_at: string;
}

/** Every model rating, failures included, with its item and the LLM call it came from. */
export async function rawModelRatings(db: Queryable, studyId: number): Promise<RawModelRating[]> {
  const { rows } = await db.query<RawModelRating>(
    `SELECT r.model, i.id AS item, i.source, i.query_external_id AS query_id, r.dimension, r.value, r.text, r.call_id,
            to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS rated_at
       FROM study_model_rating r JOIN study_item i ON i.id = r.item_id
      WHERE r.study_id = $1 ORDER BY r.model, i.id, r.dimension`, [studyId]);
  return rows;
}

const MODEL_COLUMNS: (keyof RawModelRating)[] = ['model', 'item', 'source', 'query_id', 'dimension', 'value', 'text', 'call_id', 'rated_at'];

/** The model ratings for spreadsheets, formula-safe as the people's. */
export function modelRatingsCsv(rows: RawModelRating[]): string {
  return csvLine(MODEL_COLUMNS) + rows.map((r) => csvLine(MODEL_COLUMNS.map((c) => r[c]))).join('');
}

const pct = (x: number | null) => (x === null ? '' : (100 * x).toFixed(1));
const num = (x: number | null, digits = 2) => (x === null ? '' : x.toFixed(digits));

/** The summary as CSV: one row per dimension and source (and "all"), with the rates in percent. */
export function summaryCsv(report: StudyReport): string {
  let out = csvLine(['dimension', 'source', 'n', 'mean', 'positive_pct', 'non_negative_pct', 'alpha', 'alpha_ci_low', 'alpha_ci_high', 'within_one_pct']);
  for (const d of report.dimensions) {
    for (const s of [...d.bySource, { source: 'all', ...d.overall }]) {
      const all = s.source === 'all';
      out += csvLine([d.key, s.source, s.n, num(s.mean), pct(s.positive), pct(s.nonNegative),
        all ? num(d.agreement.alpha, 3) : '', all && d.agreement.ci ? num(d.agreement.ci[0], 3) : '', all && d.agreement.ci ? num(d.agreement.ci[1], 3) : '', all ? pct(d.agreement.withinOne) : '']);
    }
  }
  return out;
}

/**
 * The summary as Markdown, in the layout of STaRK's human evaluation table: a row per source, and per
 * dimension the positive and non-negative rates in percent; then agreement per dimension.
 */
export function summaryMarkdown(report: StudyReport): string {
  const dims = report.dimensions;
  const head = ['Source', ...dims.flatMap((d) => (d.kind === 'scale' ? [`${d.label} positive`, `${d.label} non-negative`] : [`${d.label} (share of 1)`]))];
  const sources = dims[0]?.bySource.map((s) => s.source) ?? [];
  const rows = [...sources, 'all'].map((source) => [source, ...dims.flatMap((d) => {
    const s = source === 'all' ? d.overall : d.bySource.find((x) => x.source === source)!;
    return d.kind === 'scale' ? [pct(s.positive), pct(s.nonNegative)] : [pct(s.positive)];
  })]);
  const line = (cells: string[]) => `| ${cells.map(mdCell).join(' | ')} |`;
  const table = (header: string[], body: string[][]) =>
    [line(header), `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`, ...body.map(line)].join('\n');
  const agreement = table(['Dimension', 'Krippendorff\'s alpha', '95% CI', 'Within one point', 'Exact', 'Pairs'],
    dims.map((d) => [d.label, num(d.agreement.alpha, 3), d.agreement.ci ? `${num(d.agreement.ci[0], 3)} – ${num(d.agreement.ci[1], 3)}` : '', pct(d.agreement.withinOne), pct(d.agreement.exact), String(d.agreement.pairs)]));
  return `# ${mdText(report.study.name)}\n\nRates in percent (positive: above the scale's midpoint, 4-5 of 1-5; non-negative: at or above it, 3-5).\n${plural(report.participants, 'participant')}, ${plural(report.ratings, 'rating')}${report.attention.excluded ? `, ${plural(report.attention.failed.length, 'participant')} left out for failed attention checks` : ''}.\n\n${table(head, rows)}\n\n${agreement}\n${modelRatersMarkdown(report, table)}`;
}

/** Model raters, after the human tables and apart from them; nothing when the study has none. */
function modelRatersMarkdown(report: StudyReport, table: (header: string[], body: string[][]) => string): string {
  if (!report.modelRaters.length) return '';
  const body = report.modelRaters.flatMap((m) => m.dimensions.map((d) => [m.model, d.label, String(d.summary.n), num(d.summary.mean), pct(d.summary.positive),
    num(d.agreementWithHumans.alpha, 3), String(d.agreementWithHumans.units)]));
  return `\n## Model raters\n\nNot included in the figures above. Alpha is between the model's rating and the median of the people's ratings of each item (the lower middle one for an even count).\n\n${
    table(['Model', 'Dimension', 'Ratings', 'Mean', 'Positive', 'Alpha with the human median', 'Items'], body)}\n`;
}

/** Curators' text (study name, labels, sources) on one line, so it cannot end the heading or a table row. */
const mdText = (s: string) => s.replace(/[\r\n]+/g, ' ');
/** A table cell: on one line, with its pipes escaped so they do not split the cell. */
const mdCell = (s: string) => mdText(s).replaceAll('|', '\\|');
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
