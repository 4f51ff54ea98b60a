import { z } from 'zod';
import { IngestIssue } from '../../ingest/source';
import type { QueryRecord, SourceLine, SourcedQuery } from '../types';
import { withoutCr } from './text-lines';

/** One line of a topics file. */
export interface TrecTopic {
  id: string;
  text: string;
  at: SourceLine;
}

/** One qrels line: the entity judged for a query, its grade, and the line it is on. */
export interface TrecJudgment {
  entity: string;
  grade: number;
  line: number;
}

export interface TrecQrels {
  file: string;
  /** Per query id, its judgments in file order. */
  judgments: Map<string, TrecJudgment[]>;
  issues: IngestIssue[];
}

/** A graded judgment as kept in a query's `metadata.judgments`. */
const Judgments = z.array(z.object({ entity: z.string(), grade: z.number().int() }));

/** The non-blank lines of a text with their 1-based numbers, without BOM or the CR of CRLF line ends. */
function nonBlankLines(text: string): { line: number; text: string }[] {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  return body
    .split('\n')
    .map((t, i) => ({ line: i + 1, text: withoutCr(t) }))
    .filter((l) => l.text.trim() !== '');
}

/**
 * A TREC topics file: lines `<query id> <query text>`. The id is the first whitespace-delimited token; the
 * text is the rest of the line after the one space or tab that follows the id, kept as it is, and must not
 * be blank. Blank lines are skipped. Repeated ids are not checked here: the importer checks them.
 */
export function readTrecTopics(text: string, file: string): { topics: TrecTopic[]; issues: IngestIssue[] } {
  const topics: TrecTopic[] = [];
  const issues: IngestIssue[] = [];
  for (const { line, text: content } of nonBlankLines(text)) {
    const m = /^\s*(\S+)\s(.*)$/s.exec(content);
    if (m === null || m[2]!.trim() === '') {
      issues.push(new IngestIssue(file, line, 'expected "<query id> <query text>", found no query text after the id'));
      continue;
    }
    topics.push({ id: m[1]!, text: m[2]!, at: { file, line } });
  }
  return { topics, issues };
}

/**
 * A TREC qrels file: lines `<query id> <iteration> <entity id> <grade>`, whitespace-separated, the grade an
 * integer (> 0 relevant; 0 or below judged not relevant). The iteration is ignored. Blank lines are skipped;
 * an entity judged twice for one query is an issue (the second line).
 */
export function readTrecQrels(text: string, file: string): TrecQrels {
  const judgments = new Map<string, TrecJudgment[]>();
  const issues: IngestIssue[] = [];
  const judgedOn = new Map<string, number>();
  for (const { line, text: content } of nonBlankLines(text)) {
    const fields = content.trim().split(/\s+/);
    if (fields.length !== 4) {
      issues.push(new IngestIssue(file, line, `expected 4 fields "<query id> <iteration> <entity id> <grade>", found ${fields.length}`));
      continue;
    }
    const [query = '', , entity = '', gradeText = ''] = fields;
    const grade = /^-?[0-9]+$/.test(gradeText) ? Number(gradeText) : NaN;
    if (!Number.isSafeInteger(grade)) {
      issues.push(new IngestIssue(file, line, `grade: expected an integer, found ${JSON.stringify(gradeText)}`));
      continue;
    }
    // Tokens hold no whitespace, so a tab cannot occur inside either part of the key.
    const key = `${query}\t${entity}`;
    const earlier = judgedOn.get(key);
    if (earlier !== undefined) {
      issues.push(new IngestIssue(file, line, `entity ${JSON.stringify(entity)} is judged twice for query ${JSON.stringify(query)}, on lines ${earlier} and ${line}`));
      continue;
    }
    judgedOn.set(key, line);
    const list = judgments.get(query) ?? [];
    if (list.length === 0) judgments.set(query, list);
    list.push({ entity, grade, line });
  }
  return { file, judgments, issues };
}

/**
 * Queries from topics and their qrels, in topics order. Answers are the entities graded above 0, in qrels
 * order. When the grades say more than "relevant" (any grade other than 1, such as 0 or 2), every judgment
 * is kept as `metadata.judgments = [{entity, grade}]` so graded metrics and exports can use them. A topic
 * without qrels gets no answers; qrels for a query missing from the topics are one issue per query, at its
 * first qrels line.
 */
export function mergeTopicsAndQrels(
  topics: TrecTopic[],
  qrels: Pick<TrecQrels, 'file' | 'judgments'>,
): { records: SourcedQuery[]; issues: IngestIssue[] } {
  const records = topics.map((topic): SourcedQuery => {
    const judged = qrels.judgments.get(topic.id) ?? [];
    const graded = judged.some((j) => j.grade !== 1);
    return {
      id: topic.id,
      text: topic.text,
      answers: judged.filter((j) => j.grade > 0).map((j) => j.entity),
      seeds: [],
      split: null,
      metadata: graded ? { judgments: judged.map(({ entity, grade }) => ({ entity, grade })) } : {},
      at: topic.at,
    };
  });
  const topicIds = new Set(topics.map((t) => t.id));
  const issues = [...qrels.judgments]
    .filter(([query]) => !topicIds.has(query))
    .map(([query, judged]) => new IngestIssue(qrels.file, judged[0]!.line, `judgments for query ${JSON.stringify(query)}, which is not in the topics`));
  return { records, issues };
}

/** TREC fields are whitespace-separated: an id holding whitespace (or none at all) cannot be written. */
function token(value: string, what: string, query: string): string {
  if (!/^\S+$/.test(value)) throw new RangeError(`query ${JSON.stringify(query)}: ${what} ${JSON.stringify(value)} cannot be a TREC field (empty or has whitespace)`);
  return value;
}

/**
 * Topics lines `<id> <text>\n`, one per query. A topic is one line, so line breaks (CR, LF or CRLF) in a
 * query's text are written as a space; reading the file back gives the text with those spaces.
 */
export function writeTrecTopics(records: Iterable<QueryRecord>): string {
  let out = '';
  for (const q of records) out += `${token(q.id, 'query id', q.id)} ${q.text.replace(/\r\n|[\r\n]/g, ' ')}\n`;
  return out;
}

/**
 * Qrels lines `<query id> 0 <entity id> <grade>\n`, per query in order: the query's `metadata.judgments`
 * when it has them (graded, and judged-not-relevant entities too), else each answer with grade 1.
 */
export function writeTrecQrels(records: Iterable<QueryRecord>): string {
  let out = '';
  for (const q of records) {
    const id = token(q.id, 'query id', q.id);
    const judged = q.metadata.judgments === undefined ? q.answers.map((entity) => ({ entity, grade: 1 })) : Judgments.safeParse(q.metadata.judgments).data;
    if (judged === undefined) throw new TypeError(`query ${JSON.stringify(q.id)}: metadata.judgments must be a list of {entity, grade} with integer grades`);
    for (const { entity, grade } of judged) out += `${id} 0 ${token(entity, 'entity id', q.id)} ${grade}\n`;
  }
  return out;
}
