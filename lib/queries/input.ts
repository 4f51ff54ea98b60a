import fs from 'node:fs';
import path from 'node:path';
import { IngestIssue } from '../ingest/source';
import { readJsonlQueries } from './formats/jsonl';
import { readSplitFile } from './formats/splits';
import { readStarkCsv } from './formats/stark';
import { mergeTopicsAndQrels, readTrecQrels, readTrecTopics, type TrecTopic } from './formats/trec';
import type { QueryFormat, SourcedQuery, SplitList } from './types';

/** What a file holds: query rows (STaRK CSV, JSONL), a split list, TREC topics or qrels. */
export type QueryFileKind = 'queries' | 'split' | 'topics' | 'qrels';

export interface QueryInputFile {
  path: string;
  /** Its name in messages (an upload's original name). */
  name: string;
  kind: QueryFileKind;
}

export interface QueryInput {
  records: AsyncIterable<SourcedQuery | IngestIssue>;
  splits: SplitList[];
}

/** The command line's files: TREC qrels are told from topics by name ("qrel" in it); `--splits` adds a folder. */
export function cliQueryFiles(format: QueryFormat, files: string[], splitDir?: string): QueryInputFile[] {
  const kind = (f: string): QueryFileKind => (format !== 'trec' ? 'queries' : /qrel/i.test(path.basename(f)) ? 'qrels' : 'topics');
  const listed = files.map((f) => ({ path: f, name: path.basename(f), kind: kind(f) }));
  if (!splitDir) return listed;
  const splits = fs.readdirSync(splitDir).filter((f) => f.endsWith('.index')).sort()
    .map((f): QueryInputFile => ({ path: path.join(splitDir, f), name: `${path.basename(splitDir)}/${f}`, kind: 'split' }));
  if (!splits.length) throw new Error(`--splits: no .index files in ${splitDir}`);
  return [...listed, ...splits];
}

async function* concat(parts: AsyncIterable<SourcedQuery | IngestIssue>[], issues: IngestIssue[]): AsyncGenerator<SourcedQuery | IngestIssue> {
  yield* issues;
  for (const part of parts) yield* part;
}

/** Opens the files of an import as one stream of records (and problems) plus the split lists. */
export async function readQueryInput(format: QueryFormat, files: QueryInputFile[]): Promise<QueryInput> {
  const issues: IngestIssue[] = [];
  const splits: SplitList[] = [];
  for (const f of files.filter((x) => x.kind === 'split')) {
    const split = path.basename(f.name).replace(/\.index$/, '');
    if (!/^[A-Za-z0-9_-]+$/.test(split)) { issues.push(new IngestIssue(f.name, 0, 'a split file is named <split>.index, e.g. train.index')); continue; }
    const read = readSplitFile(await fs.promises.readFile(f.path, 'utf8'), f.name, split);
    if (Array.isArray(read)) issues.push(...read); else splits.push(read);
  }
  const of = (kind: QueryFileKind) => files.filter((x) => x.kind === kind);
  if (format === 'trec') {
    if (!of('topics').length) issues.push(new IngestIssue(files[0]?.name ?? '(input)', 0, 'TREC import needs a topics file (<qid> <text> lines)'));
    const topics: TrecTopic[] = [];
    for (const f of of('topics')) {
      const read = readTrecTopics(await fs.promises.readFile(f.path, 'utf8'), f.name);
      topics.push(...read.topics);
      issues.push(...read.issues);
    }
    const records: SourcedQuery[] = [];
    const qrelsFiles = of('qrels');
    if (!qrelsFiles.length) {
      records.push(...mergeTopicsAndQrels(topics, { file: '(no qrels)', judgments: new Map() }).records);
    }
    for (const f of qrelsFiles) {
      const qrels = readTrecQrels(await fs.promises.readFile(f.path, 'utf8'), f.name);
      issues.push(...qrels.issues);
      const merged = mergeTopicsAndQrels(topics, qrels);
      records.push(...merged.records);
      issues.push(...merged.issues);
    }
    if (qrelsFiles.length > 1) issues.push(new IngestIssue(qrelsFiles[1]!.name, 0, 'give one qrels file'));
    return { records: concat([toAsync(records)], issues), splits };
  }
  const read = format === 'stark' ? readStarkCsv : readJsonlQueries;
  if (!of('queries').length) issues.push(new IngestIssue('(input)', 0, `no ${format === 'stark' ? 'CSV' : 'JSONL'} query file given`));
  return { records: concat(of('queries').map((f) => read(fs.createReadStream(f.path), f.name)), issues), splits };
}

async function* toAsync<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}
