import { Command, InvalidArgumentError } from 'commander';
import { parseRole } from '../../lib/auth/roles';
import { AppError } from '../../lib/errors';
import { SHAPES } from '../../lib/ingest/generate/published';
import { IMPORT_FORMATS } from '../../lib/ingest/readers';
import { QUERY_FORMATS, QUERY_ORIGINS } from '../../lib/queries/types';
import { RUN_FORMATS } from '../../lib/queries/run-files';

// Each command's module is loaded only when it runs, so `--help` stays quick.
const load = {
  migrate: () => import('./commands/migrate'),
  createUser: () => import('./commands/create-user'),
  users: () => import('./commands/users'),
  demo: () => import('./commands/demo'),
  serve: () => import('./commands/serve'),
  import: () => import('./commands/import'),
  generate: () => import('./commands/generate'),
  kbStats: () => import('./commands/kb-stats'),
  kbDelete: () => import('./commands/kb-delete'),
  queries: () => import('./commands/queries'),
  eval: () => import('./commands/eval'),
  embeddings: () => import('./commands/embeddings'),
  synthesize: () => import('./commands/synthesize'),
};


function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a whole number');
  return n;
}

function finiteNumber(value: string): number {
  const n = Number(value);
  if (!value.trim() || !Number.isFinite(n)) throw new InvalidArgumentError('must be a number');
  return n;
}

function oneOf<T extends string>(allowed: readonly T[]) {
  return (value: string): T => {
    if (!allowed.includes(value as T)) throw new InvalidArgumentError(`must be one of ${allowed.join(', ')}`);
    return value as T;
  };
}

function portNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new InvalidArgumentError('must be a port number (1-65535)');
  return n;
}

function role(value: string) {
  try {
    return parseRole(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

export function buildProgram(): Command {
  const program = new Command('skb')
    .description('SKB Studio: explore semi-structured knowledge bases and build retrieval benchmarks on them.\n' +
      'Works on DATABASE_URL when set, otherwise on the embedded database in .data/.')
    .showHelpAfterError();

  program
    .command('migrate')
    .description('Apply pending database migrations (each once, all or nothing).')
    .option('--json', 'machine-readable output')
    .action(async (opts) => (await load.migrate()).run(opts));

  program
    .command('create-user')
    .description('Create a user. The password is read from stdin (typed twice, hidden, on a terminal).')
    .requiredOption('--email <email>', 'sign-in email')
    .requiredOption('--role <role>', 'admin, curator, annotator or rater', role)
    .option('--name <name>', 'display name')
    .option('--json', 'machine-readable output')
    .action(async (opts) => (await load.createUser()).run(opts));

  const users = program
    .command('users')
    .description('List users and their roles; the subcommands disable, enable, reset-password and sign-out manage one account.')
    .option('--json', 'machine-readable output')
    .action(async (opts) => (await load.users()).run(opts));
  for (const [action, description] of [
    ['disable', 'Disable an account: its sessions end and it cannot sign in (never the last active admin).'],
    ['enable', 'Enable a disabled account again.'],
    ['reset-password', 'Set a new password, read from stdin like create-user; the user\'s sessions end.'],
    ['sign-out', 'End every session of the user.'],
  ] as const) {
    users.command(action)
      .description(description)
      .requiredOption('--email <email>', 'sign-in email of the user')
      .option('--json', 'machine-readable output')
      // `--json` may land on `users` itself, which has the same option.
      .action(async (_opts, cmd: Command) => (await load.users()).runAction(action, cmd.optsWithGlobals()));
  }

  program
    .command('demo')
    .description('Load the demo knowledge bases and demo accounts (what is missing of them).')
    .option('--replace', 'reload the demo knowledge bases even if present')
    .option('--json', 'machine-readable output')
    .action(async (opts) => (await load.demo()).run(opts));

  program
    .command('serve')
    .description('Run the web app (builds it first if needed). Without DATABASE_URL it runs the embedded database and loads the demo.')
    .option('-p, --port <port>', 'HTTP port', portNumber, Number(process.env.PORT ?? 3000))
    .option('-H, --host <host>', 'interface to listen on', process.env.HOST ?? '127.0.0.1')
    .option('--dev', 'run the Next.js development server')
    .option('--demo', 'load the demo also on DATABASE_URL')
    .option('--no-demo', 'do not load the demo on the embedded database')
    .option('-w, --workers <n>', 'app processes sharing the port (default: SKB_WORKERS, else one per core; at most 2 on the embedded database)')
    .action(async (opts) => (await load.serve()).run({ ...opts, dev: !!opts.dev }));

  program
    .command('import')
    .description('Import files as a knowledge base (replacing it atomically if the slug exists). Formats: docs/formats.md.')
    .argument('<files...>', 'input files')
    .requiredOption('--kb <slug>', 'knowledge-base slug')
    .requiredOption('--format <format>', IMPORT_FORMATS.join('|'), oneOf(IMPORT_FORMATS))
    .option('--name <name>', 'display name (default: the slug)')
    .option('--on-error <policy>', 'stop at the first bad row, or skip bad rows', oneOf(['stop', 'skip'] as const), 'stop')
    .option('--max-errors <n>', 'with --on-error skip: give up after this many bad rows', positiveInt, 1000)
    .option('--public', 'make a new knowledge base visible to every signed-in user (default: private)')
    .option('--error-report <file>', 'write every bad row (file, line, reason) to this TSV file')
    .option('--json', 'machine-readable summary')
    .action(async (files, opts) => (await load.import()).run(files, opts));

  program
    .command('generate')
    .description('Write a synthetic knowledge base in the native format, shaped like STaRK-Prime, -MAG or -Amazon (skewed degrees, hubs, long documents).')
    .option('--shape <shape>', SHAPES.join('|'), oneOf(SHAPES), 'prime')
    .option('--scale <f>', 'multiply the shape\'s published sizes (default 1)')
    .option('--entities <n>', 'number of entities (default: the shape\'s published size times the scale)')
    .option('--edges <n>', 'number of edges (default: the shape\'s edges per entity times the entities)')
    .option('--queries <n>', 'also write this many queries with answers from the graph (STaRK QA CSV + split files)')
    .requiredOption('--out <dir>', 'output folder (entities.jsonl, edges.tsv, queries/)')
    .option('--seed <n>', 'random seed', '1')
    .option('--json', 'machine-readable summary')
    .action(async (opts) => (await load.generate()).run(opts));

  const kb = program.command('kb').description('Knowledge-base commands.');
  kb.command('stats')
    .description('Schema statistics: entities per type, edges per relation and per typed triple, degree distribution, hubs.')
    .argument('<slug>', 'knowledge-base slug')
    .option('--json', 'machine-readable output')
    .action(async (slug, opts) => (await load.kbStats()).run(slug, opts));
  kb.command('delete')
    .description('Delete a knowledge base and everything in it.')
    .argument('<slug>', 'knowledge-base slug')
    .option('--json', 'machine-readable output')
    .action(async (slug, opts) => (await load.kbDelete()).run(slug, opts));

  const queries = program.command('queries').description('Query sets: import, export, statistics, releases. Formats: docs/query-formats.md.');
  queries.command('import')
    .description('Import files as a query set; everything is checked first and nothing is written if anything is wrong.')
    .argument('<files...>', 'stark: the QA CSV; trec: topics and qrels files (qrels named *qrel*); jsonl: JSONL files')
    .requiredOption('--kb <slug>', 'knowledge base the answers refer to')
    .requiredOption('--set <name>', 'query-set name')
    .requiredOption('--format <format>', QUERY_FORMATS.join('|'), oneOf(QUERY_FORMATS))
    .option('--splits <dir>', 'stark: folder with train.index, val.index, test.index')
    .option('--origin <origin>', QUERY_ORIGINS.join('|'), oneOf(QUERY_ORIGINS), 'imported')
    .option('--description <text>', 'what the set is')
    .option('--license <licence>', 'licence of the queries')
    .option('--unknown-ids <policy>', 'answer or seed ids the knowledge base lacks: reject the import, or keep them unresolved', oneOf(['reject', 'keep'] as const), 'reject')
    .option('--replace', 'replace the queries of an existing set of this name')
    .option('--json', 'machine-readable summary')
    .action(async (files, opts) => (await load.queries()).runImport(files, opts));
  queries.command('export')
    .description('Write a query set (or one of its releases) in a format: stark (CSV + split/*.index), trec (topics.txt, qrels.txt), jsonl.')
    .requiredOption('--set <name>', 'query-set name')
    .requiredOption('--format <format>', QUERY_FORMATS.join('|'), oneOf(QUERY_FORMATS))
    .requiredOption('--out <dir>', 'output folder')
    .option('--release <n>', 'export this release instead of the live set', positiveInt)
    .option('--json', 'machine-readable summary')
    .action(async (opts) => (await load.queries()).runExport(opts));
  queries.command('stats')
    .description('The STaRK paper\'s query-set measures: queries, several answers, answers per query, splits, entropy and type-token ratio.')
    .requiredOption('--set <name>', 'query-set name')
    .option('--release <n>', 'a release instead of the live set', positiveInt)
    .option('--json', 'machine-readable output (with the histograms)')
    .action(async (opts) => (await load.queries()).runStats(opts));
  queries.command('list')
    .description('List the query sets of a knowledge base.')
    .requiredOption('--kb <slug>', 'knowledge-base slug')
    .option('--json', 'machine-readable output')
    .action(async (opts) => (await load.queries()).runList(opts));
  queries.command('release')
    .description('Freeze a query set as its next numbered, immutable release with a content hash and dataset card.')
    .requiredOption('--set <name>', 'query-set name')
    .requiredOption('--name <name>', 'release name')
    .option('--notes <text>', 'release notes (Markdown)')
    .option('--json', 'machine-readable output')
    .action(async (opts) => (await load.queries()).runRelease(opts));

  const embeddings = program.command('embeddings').description('Entity and query embeddings for the vector and hybrid baselines. Formats: docs/query-formats.md.');
  embeddings.command('import')
    .description('Import vectors as a named embedding set (replacing one of that name atomically); every vector is checked and nothing is written if any is wrong.')
    .requiredOption('--kb <slug>', 'knowledge base: its entity vectors, keyed by entity id')
    .option('--set <name>', 'query set of the knowledge base: its query vectors, keyed by query id')
    .requiredOption('--file <file>', 'JSONL lines {"id": ..., "vector": [...]}, or a 2-D float32 .npy matrix')
    .option('--ids <file>', '.npy only: one id per line, row i on line i + 1')
    .option('--name <name>', 'embedding set name, e.g. ada-002 (entity and query vectors pair by name)', 'default')
    .option('--json', 'machine-readable summary')
    .action(async (opts) => (await load.embeddings()).runImport(opts));
  embeddings.command('list')
    .description('List the embedding sets of a knowledge base (entity vectors) or, with --set, of a query set.')
    .requiredOption('--kb <slug>', 'knowledge-base slug')
    .option('--set <name>', 'query-set name')
    .option('--json', 'machine-readable output')
    .action(async (opts) => (await load.embeddings()).runList(opts));

  program
    .command('eval')
    .description('Score a retrieval run (TREC run, CSV or JSONL) against a query set, or compute a baseline (BM25, full-text, vector or hybrid). Metrics: docs/evaluation.md.')
    .requiredOption('--set <name>', 'query-set name')
    .option('--run <file>', 'the run file')
    .option('--baseline [method]', 'rank with a built-in baseline instead: bm25 (the default), fulltext (PostgreSQL ts_rank), vector (exact cosine over imported embeddings) or hybrid (BM25 and vector fused by reciprocal rank)', oneOf(['bm25', 'fulltext', 'vector', 'hybrid'] as const))
    .option('--k1 <n>', 'BM25 term-frequency saturation, at least 0 (default 1.2)', finiteNumber)
    .option('--b <n>', 'BM25 length normalisation, 0 to 1 (default 0.75)', finiteNumber)
    .option('--relations', 'BM25 documents include the relation lines (slower first build)')
    .option('--embeddings <name>', 'vector and hybrid: the embedding set (skb embeddings import) whose entity and query vectors rank')
    .option('--stop-words', "BM25 drops English stop words (Lucene's list) from documents and queries")
    .option('--stemming', 'BM25 reduces words with the Porter stemmer in documents and queries')
    .option('--format <format>', `run format (${RUN_FORMATS.join('|')}); detected when not given`, oneOf(RUN_FORMATS))
    .option('--name <name>', 'name for the run (default: its TREC tag or file name)')
    .option('--release <n>', 'score against this release instead of the live set', positiveInt)
    .option('--json', 'machine-readable output')
    .action(async (opts) => (await load.eval()).run(opts));

  program
    .command('synthesize')
    .description('Synthesize queries into a query set (origin synthesized) with exact answer sets, as a job run here in the foreground; Ctrl-C stops it resumably. See docs/synthesis.md.')
    .requiredOption('--kb <slug>', 'knowledge-base slug')
    .option('--set <name>', 'query set to add to (created when missing; an existing one must be synthesized, of this knowledge base)')
    .option('--templates <keys>', 'template keys separated by commas (skb synthesize --list-templates), or all:MIN-MAX for every template (of the first 60, fewest steps first) whose median answer-set size is MIN-MAX')
    .option('--count <n>', 'queries to keep (1-10000)', positiveInt)
    .option('--seed <n>', 'random seed of the candidates (default 0)', positiveInt)
    .option('--llm-filter-models <models>', 'models that judge the filter, separated by commas (default SKB_LLM_FILTER_MODELS)')
    .option('--no-llm', 'the deterministic pipeline, even with an LLM configured')
    .option('--max-answers <n>', 'drop queries keeping more answers than this (default 20)', positiveInt)
    .option('--min-answers <n>', 'drop queries keeping fewer answers than this (default 1)', positiveInt)
    .option('--agreement <rule>', 'filter models must all agree, or a majority', oneOf(['all', 'majority'] as const))
    .option('--token-budget <n>', 'stop the job cleanly once its LLM calls have used this many tokens', positiveInt)
    .option('--resume <id>', 'resume a cancelled, failed or abandoned job instead of starting one', positiveInt)
    .option('--list-templates', 'list the templates of the knowledge base instead')
    .option('--measure', 'with --list-templates: each template\'s answer-set sizes on a seeded sample (slower)')
    .option('--json', 'machine-readable output')
    .action(async (opts) => (await load.synthesize()).run(opts));

  return program;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (err) {
    const message = err instanceof AppError && err.details ? `${err.message}\n${JSON.stringify(err.details, null, 2)}` : (err as Error).message;
    process.stderr.write(`skb: ${message}\n`);
    process.exitCode = 1;
  }
}
