/**
 * Retrieval runs as researchers upload them: TREC run files, CSV and JSON Lines. Each is read into the
 * entities every query retrieved, with their scores, ranks and lines, and `orderRun` turns that into the
 * ranked lists the metrics score. The formats and the ordering rules are documented in docs/evaluation.md.
 */
import { parse, type Info } from 'csv-parse/sync';
import { z } from 'zod';
import { IngestIssue } from '../ingest/source';

export interface RankedEntity {
  entity: string;
  score: number | null;
  rank: number | null;
  /** The line of the file it was read from. */
  line: number;
}

export const RUN_FORMATS = ['trec', 'csv', 'jsonl'] as const;
export type RunFormat = (typeof RUN_FORMATS)[number];

export interface ParsedRun {
  /** Query id to retrieved entities, in file order. */
  run: Map<string, RankedEntity[]>;
  /** The run tag of a TREC run (its first line's). */
  runName?: string;
  /** Problems that make the run wrong; a run with issues should be refused. */
  issues: IngestIssue[];
  /** Things worth knowing that do not make the run wrong: tied scores, mixed TREC run tags. */
  warnings: IngestIssue[];
}

/** How many issues, and how many tie warnings, are listed one by one; a summary counts the rest. */
export const MAX_LISTED = 50;

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const RANK = /^\d+$/;

function parseScore(text: string): number | null {
  if (!NUMBER.test(text)) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

function parseRank(text: string): number | null {
  if (!RANK.test(text)) return null;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : null;
}

function physicalLines(text: string): string[] {
  const lines = (text.startsWith('\ufeff') ? text.slice(1) : text).split('\n');
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/** Where an entity was read: its line, and for JSONL its place in the line's ranking. */
interface Place {
  line: number;
  field?: string;
}

function placeText(p: Place): string {
  return p.field ?? `line ${p.line}`;
}

/** Collects a run's entities, reporting repeated entities and counting tied scores as they come. */
class RunCollector {
  readonly run = new Map<string, RankedEntity[]>();
  private readonly seen = new Map<string, Map<string, Place>>();
  private readonly scores = new Map<string, Map<number, { entity: string; place: Place }>>();
  private readonly issues: IngestIssue[] = [];
  private readonly warnings: IngestIssue[] = [];
  private readonly unlistedIssues: { count: number; first: number } = { count: 0, first: 0 };
  private readonly ties: { count: number; first: number; listed: IngestIssue[] } = { count: 0, first: 0, listed: [] };

  constructor(readonly file: string) {}

  issue(place: Place, reason: string): void {
    const text = place.field ? `${place.field}: ${reason}` : reason;
    if (this.issues.length < MAX_LISTED) this.issues.push(new IngestIssue(this.file, place.line, text));
    else if (this.unlistedIssues.count++ === 0) this.unlistedIssues.first = place.line;
  }

  /** True while no issue has been reported. */
  get clean(): boolean {
    return this.issues.length === 0;
  }

  /** A query that retrieved nothing still belongs to the run. */
  declare(query: string): void {
    if (!this.run.has(query)) {
      this.run.set(query, []);
      this.seen.set(query, new Map());
    }
  }

  warn(line: number, reason: string): void {
    this.warnings.push(new IngestIssue(this.file, line, reason));
  }

  add(query: string, item: RankedEntity, place: Place): void {
    this.declare(query);
    const seen = this.seen.get(query)!;
    const before = seen.get(item.entity);
    if (before) {
      this.issue(place, `query "${query}": entity "${item.entity}" is ranked twice (also at ${placeText(before)})`);
      return;
    }
    seen.set(item.entity, place);
    this.run.get(query)!.push(item);
    if (item.score !== null) this.noteTie(query, item, place);
  }

  private noteTie(query: string, item: RankedEntity, place: Place): void {
    let scores = this.scores.get(query);
    if (!scores) {
      scores = new Map();
      this.scores.set(query, scores);
    }
    const first = scores.get(item.score!);
    if (!first) {
      scores.set(item.score!, { entity: item.entity, place });
      return;
    }
    if (this.ties.count++ === 0) this.ties.first = place.line;
    if (this.ties.listed.length < MAX_LISTED) {
      const where = place.field ? `${place.field}: ` : '';
      this.ties.listed.push(
        new IngestIssue(this.file, place.line, `${where}query "${query}": entity "${item.entity}" has the same score (${item.score}) as entity "${first.entity}" (${placeText(first.place)})`),
      );
    }
  }

  finish(runName?: string): ParsedRun {
    const issues = [...this.issues];
    if (this.unlistedIssues.count > 0) {
      issues.push(new IngestIssue(this.file, this.unlistedIssues.first, `${this.unlistedIssues.count} more problems from this line on are not listed`));
    }
    const warnings = [...this.warnings];
    if (this.ties.count > 0) {
      const listed = this.ties.count > MAX_LISTED ? `; the first ${MAX_LISTED} are listed` : '';
      warnings.push(
        new IngestIssue(
          this.file,
          this.ties.first,
          `${this.ties.count} entities have the same score as another entity of their query${listed}; ties are ranked by entity id, descending, as trec_eval does`,
        ),
        ...this.ties.listed,
      );
    }
    return { run: this.run, ...(runName === undefined ? {} : { runName }), issues, warnings };
  }
}

/** `<query> Q0 <entity> <rank> <score> <run tag>`; the second column is ignored, as trec_eval does. */
function parseTrec(text: string, file: string): ParsedRun {
  const out = new RunCollector(file);
  let runName: string | undefined;
  const otherTags = new Set<string>();
  physicalLines(text).forEach((content, i) => {
    const line = i + 1;
    if (content.trim() === '') return;
    const fields = content.trim().split(/\s+/);
    if (fields.length !== 6) {
      out.issue({ line }, `expected 6 fields "<query> Q0 <entity> <rank> <score> <run tag>", found ${fields.length}`);
      return;
    }
    const [query, , entity, rankText, scoreText, tag] = fields as [string, string, string, string, string, string];
    const rank = parseRank(rankText);
    const score = parseScore(scoreText);
    if (rank === null) out.issue({ line }, `rank "${rankText}" is not a non-negative integer`);
    if (score === null) out.issue({ line }, `score "${scoreText}" is not a number`);
    if (rank === null || score === null) return;
    if (runName === undefined) runName = tag;
    else if (tag !== runName && !otherTags.has(tag)) {
      otherTags.add(tag);
      out.warn(line, `run tag "${tag}" differs from "${runName}" of the first line; the run is named "${runName}"`);
    }
    out.add(query, { entity, score, rank, line }, { line });
  });
  return out.finish(runName);
}

interface CsvRow {
  record: string[];
  info: Info;
}

const CSV_REQUIRED = ['query_id', 'entity_id', 'score'] as const;
const CSV_OPTIONAL = ['rank'] as const;

/** CSV with a header naming `query_id`, `entity_id`, `score` and optionally `rank`, in any order. */
function parseCsv(text: string, file: string): ParsedRun {
  const out = new RunCollector(file);
  let rows: CsvRow[];
  try {
    const options = { bom: true, info: true, relax_column_count: true, skip_empty_lines: true, record_delimiter: ['\r\n', '\n'] };
    // csv-parse's types do not model `info: true`, which wraps each record with its position.
    rows = parse(text, options) as unknown as CsvRow[];
  } catch (err) {
    // A broken quote leaves the rest of the file unreadable.
    const e = err as { message: string; lines?: number };
    out.issue({ line: e.lines ?? 1 }, `unreadable CSV: ${e.message}`);
    return out.finish();
  }
  const [header, ...records] = rows;
  if (!header) {
    out.issue({ line: 1 }, `the file is empty; expected a header with the columns ${CSV_REQUIRED.join(', ')} (and optionally rank)`);
    return out.finish();
  }
  // csv-parse counts lines up to a record's end; a record starts earlier by the line breaks inside it.
  const startLine = (row: CsvRow) =>
    row.info.lines - row.record.reduce((n, f) => n + (f.match(/\n/g)?.length ?? 0), 0);
  const names = header.record.map((n) => n.trim().toLowerCase());
  const column = new Map<string, number>();
  const known: readonly string[] = [...CSV_REQUIRED, ...CSV_OPTIONAL];
  for (const [i, name] of names.entries()) {
    if (!column.has(name)) column.set(name, i);
    else if (known.includes(name)) out.issue({ line: startLine(header) }, `column "${name}" appears twice in the header`);
  }
  const missing = CSV_REQUIRED.filter((n) => !column.has(n));
  if (missing.length > 0) {
    out.issue({ line: startLine(header) }, `the header lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (found: ${names.join(', ')})`);
  }
  if (!out.clean) return out.finish();
  const at = (name: string) => column.get(name)!;
  const rankColumn = column.get('rank');
  for (const row of records) {
    const line = startLine(row);
    const fields = row.record;
    if (fields.length !== names.length) {
      out.issue({ line }, `expected ${names.length} fields as in the header, found ${fields.length}`);
      continue;
    }
    const query = fields[at('query_id')]!.trim();
    const entity = fields[at('entity_id')]!.trim();
    const scoreText = fields[at('score')]!.trim();
    const score = parseScore(scoreText);
    const rankText = rankColumn === undefined ? null : fields[rankColumn]!.trim();
    const rank = rankText === null ? null : parseRank(rankText);
    let ok = true;
    const fail = (reason: string) => {
      out.issue({ line }, reason);
      ok = false;
    };
    if (query === '') fail('query_id is empty');
    if (entity === '') fail('entity_id is empty');
    if (score === null) fail(`score "${scoreText}" is not a number`);
    if (rankText !== null && rank === null) fail(`rank "${rankText}" is not a non-negative integer`);
    if (ok) out.add(query, { entity, score, rank, line }, { line });
  }
  return out.finish();
}

const ID_ERROR = 'expected a non-empty string or a safe integer (write larger ids as strings)';
const idSchema = z.union([z.int({ error: ID_ERROR }), z.string().trim().min(1)], { error: ID_ERROR }).transform(String);
const jsonlLineSchema = z.object(
  {
    query_id: idSchema,
    ranking: z.array(z.unknown(), { error: 'expected a list of entity ids or of {"entity_id", "score"} objects' }),
  },
  { error: 'expected a JSON object {"query_id", "ranking"}' },
);
const scoredSchema = z.object({ entity_id: idSchema, score: z.number({ error: 'expected a number' }) });

function zodReason(error: z.ZodError, prefix: string): string {
  const issue = error.issues[0]!;
  const path = issue.path.reduce<string>((p, k) => (typeof k === 'number' ? `${p}[${k}]` : p ? `${p}.${String(k)}` : String(k)), prefix);
  return path ? `${path}: ${issue.message}` : issue.message;
}

/** One JSON object a line: `{"query_id", "ranking"}`, the ranking a list of ids or of `{entity_id, score}`. */
function parseJsonl(text: string, file: string): ParsedRun {
  const out = new RunCollector(file);
  const queryLines = new Map<string, number>();
  physicalLines(text).forEach((content, i) => {
    const line = i + 1;
    if (content.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch (err) {
      out.issue({ line }, `invalid JSON: ${(err as Error).message}`);
      return;
    }
    const parsed = jsonlLineSchema.safeParse(value);
    if (!parsed.success) {
      out.issue({ line }, zodReason(parsed.error, ''));
      return;
    }
    const { query_id: query, ranking } = parsed.data;
    const before = queryLines.get(query);
    if (before !== undefined) {
      out.issue({ line }, `query "${query}" already has a ranking at line ${before}`);
      return;
    }
    queryLines.set(query, line);
    const scored = ranking.length > 0 && typeof ranking[0] === 'object' && ranking[0] !== null;
    const items: { entity: string; score: number | null; field: string }[] = [];
    for (const [k, element] of ranking.entries()) {
      const field = `ranking[${k}]`;
      const result = scored ? scoredSchema.safeParse(element) : idSchema.safeParse(element);
      if (!result.success) {
        const shapeChanged = scored !== (typeof element === 'object' && element !== null);
        const like = scored ? 'an {"entity_id", "score"} object' : 'an entity id';
        out.issue({ line }, shapeChanged ? `${field}: expected ${like}, like the first item` : zodReason(result.error, field));
        return;
      }
      const data = result.data;
      items.push(typeof data === 'string' ? { entity: data, score: null, field } : { entity: data.entity_id, score: data.score, field });
    }
    out.declare(query);
    items.forEach((item, k) => out.add(query, { entity: item.entity, score: item.score, rank: k + 1, line }, { line, field: item.field }));
  });
  return out.finish();
}

/** Reads a run file's text. Problems are listed with their lines, never thrown. */
export function parseRun(text: string, file: string, format: RunFormat): ParsedRun {
  switch (format) {
    case 'trec':
      return parseTrec(text, file);
    case 'csv':
      return parseCsv(text, file);
    case 'jsonl':
      return parseJsonl(text, file);
  }
}

/**
 * The format of a run file from its first non-blank line, or from its name's extension when the line is not
 * conclusive; null when neither tells.
 */
export function detectRunFormat(fileName: string, firstLine: string): RunFormat | null {
  const line = firstLine.replace(/^\ufeff/, '').trim();
  if (line.startsWith('{')) return 'jsonl';
  const header = line.split(',').map((f) => f.trim().replace(/^"|"$/g, '').toLowerCase());
  if (CSV_REQUIRED.every((c) => header.includes(c))) return 'csv';
  const fields = line.split(/\s+/);
  if (fields.length === 6 && parseRank(fields[3]!) !== null && parseScore(fields[4]!) !== null) return 'trec';
  const ext = fileName.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  if (ext === 'jsonl' || ext === 'ndjson') return 'jsonl';
  if (ext === 'csv') return 'csv';
  if (ext === 'trec' || ext === 'run') return 'trec';
  return null;
}

/** Code point order, the order of C's strcmp on UTF-8 bytes (UTF-16 code unit order differs above U+FFFF). */
function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a.charCodeAt(i) !== b.charCodeAt(i)) return a.codePointAt(i)! - b.codePointAt(i)!;
  }
  return a.length - b.length;
}

function byScoreThenIdDescending(x: RankedEntity, y: RankedEntity): number {
  return y.score! - x.score! || compareCodePoints(y.entity, x.entity);
}

/**
 * Each query's entities in rank order: by score, descending, ties broken by entity id in descending
 * strcmp order as trec_eval does; when some entity has no score, by rank (ties in file order); when some
 * has no rank either, in file order.
 */
export function orderRun(run: ReadonlyMap<string, readonly RankedEntity[]>): Map<string, string[]> {
  const ordered = new Map<string, string[]>();
  for (const [query, items] of run) {
    let sorted: readonly RankedEntity[] = items;
    if (items.every((e) => e.score !== null)) sorted = [...items].sort(byScoreThenIdDescending);
    else if (items.every((e) => e.rank !== null)) sorted = [...items].sort((x, y) => x.rank! - y.rank!);
    ordered.set(query, sorted.map((e) => e.entity));
  }
  return ordered;
}
