import type { Queryable } from '../db/transaction';
import { csvLine } from '../export/spreadsheet-cells';
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

export function rawJsonl(rows: RawRating[]): string {
  return rows.map((r) => `${JSON.stringify(r)}\n`).join('');
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
