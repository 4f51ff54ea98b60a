import { Params } from '../db/params';
import type { Queryable } from '../db/transaction';
import { headlineSql } from '../kb/highlight';
import { BM25_DEFAULTS, idf } from './bm25';
import type { Bm25Index } from './bm25-index';
import { byRank, cutAtRank, phraseAdjacency, rank, scoreBm25, scoreEvery, strictCandidates, termsHeld, type StrictCandidate } from './bm25-score';
import type { Scored } from './bm25-top';
import { mayFollow } from './bm25-adjacent';
import { phraseTest } from './phrase';
import type { Clause, SearchQuery, StrictQuery } from './search-query';

/** Postings up to which a plain query is scored in full (exact total); one with more gets the exact top only (see searchBm25). */
export const POSTING_BUDGET = 5_000;
/** Entities a broad plain query ranks beyond the page (for ties at its end), and with a type filter, in all. */
export const BROAD_DEPTH = 100;
export const BROAD_TYPED_DEPTH = 2_000;
/**
 * Matches a strict query with a phrase is checked for, in score order, before its total becomes a lower bound:
 * each check reads an entity's text (see searchBm25).
 */
export const PHRASE_MATCH_LIMIT = 100;
/**
 * Candidates of a strict query with a phrase whose text is checked at most, best first: each check reads an
 * entity's text (about 10-40 microseconds), and two common words can share tens of thousands of documents.
 */
export const PHRASE_CHECK_LIMIT = 1_000;

export interface Bm25Hit {
  id: number;
  externalId: string;
  name: string;
  type: string;
  degree: number;
  /** Okapi BM25 (k1 1.2, b 0.75) over the query's words. */
  score: number;
  /** How many of the query's distinct words the entity's text contains. */
  covered: number;
  /** Fragments of the text around the matched words, which are between MATCH_START and MATCH_END. */
  snippet: string;
}

export interface Bm25SearchResult {
  /** The number of matches; with `totalIsLowerBound`, at least this many. */
  total: number;
  totalIsLowerBound: boolean;
  hits: Bm25Hit[];
  /**
   * Set when a phrase was checked in only this many best-scoring candidates and they held fewer matches than
   * the page: matches ranked lower are not listed.
   */
  checkedBest?: number;
}

export interface Bm25SearchOptions {
  types?: string[];
  limit: number;
  offset: number;
  /** Overrides POSTING_BUDGET. */
  postingBudget?: number;
  /** Overrides PHRASE_MATCH_LIMIT. */
  phraseMatchLimit?: number;
  /** Overrides PHRASE_CHECK_LIMIT. */
  phraseCheckLimit?: number;
}

/** A query term the index knows: its place in the term list (1-based; the query's words come first) and its statistics. */
interface Term {
  n: number;
  id: number;
  df: number;
}

/** The query's terms: its words, then the words only excluded clauses use. */
export interface TermList {
  all: string[];
  /** Those the index has (a word it lacks occurs in no document). */
  known: Map<string, Term>;
  /** Documents in the index. */
  docs: number;
}

async function lookupTerms(db: Queryable, index: Bm25Index, query: SearchQuery): Promise<TermList> {
  const extra = query.strict ? query.strict.excluded.flat().filter((w) => !query.words.includes(w)) : [];
  const all = [...query.words, ...new Set(extra)];
  const { rows } = await db.query<{ term: string; id: number; df: number }>(
    'SELECT term, id, df FROM bm25_term WHERE index_id = $1 AND term = ANY($2::text[])', [index.id, all]);
  return { all, known: new Map(rows.map((r) => [r.term, { n: all.indexOf(r.term) + 1, id: r.id, df: r.df }])), docs: index.docs };
}

/** SQL pieces shared by every statement: the index, the term weight, a table of terms. */
class Scoring {
  /** Placeholders of the index id and of k1, b and the average length, added on first use (PostgreSQL refuses untyped unused ones). */
  private indexId?: string;
  private constants?: { k1: string; b: string; avg: string };
  constructor(readonly p: Params, private readonly bm25: Bm25Index) {}

  get index(): string {
    return (this.indexId ??= this.p.add(this.bm25.id));
  }

  /** One term's contribution, as `termWeight` computes it. */
  weight(idfSql: string, tf: string, length: string): string {
    const { k1, b, avg } = (this.constants ??= { k1: this.p.add(BM25_DEFAULTS.k1), b: this.p.add(BM25_DEFAULTS.b), avg: this.p.add(this.bm25.avgLength) });
    return `${idfSql} * ${tf} * (${k1}::float8 + 1) / (${tf} + ${k1}::float8 * (1 - ${b}::float8 + ${b}::float8 * ${length} / ${avg}::float8))`;
  }

  /**
   * The document length of `entity`, as a scalar subquery: one primary-key probe per row, where a join
   * would often be planned as a hash of every document's length.
   */
  length(entity: string): string {
    return `(SELECT d.length FROM bm25_doc d WHERE d.index_id = ${this.index} AND d.entity_id = ${entity})`;
  }

  /** `(term_id, n, idf)` rows for these terms. */
  terms(terms: Term[]): string {
    return `SELECT * FROM unnest(${this.p.add(terms.map((t) => t.id))}::int[], ${this.p.add(terms.map((t) => t.n))}::int[],
      ${this.p.add(terms.map((t) => idf(this.bm25.docs, t.df)))}::float8[]) AS t(term_id, n, idf)`;
  }

  /**
   * `(score, words, present)` of the entity `entity` (length `length`) from its counts of `terms` (CTE
   * `(term_id, n, idf)`; per term, a key probe for the one block that can hold it, then a scan of its ids): the
   * BM25 score and the words matched among the first `words` terms, and every term present. For a LATERAL join.
   */
  probe(terms: string, entity: string, length: string, words: number): string {
    const w = this.p.add(words);
    return `SELECT coalesce(sum(${this.weight('q.idf', 'p.tf', length)}) FILTER (WHERE q.n <= ${w}), 0) AS score,
              coalesce(array_agg(q.n) FILTER (WHERE q.n <= ${w}), '{}') AS words, coalesce(array_agg(q.n), '{}') AS present
         FROM ${terms} q CROSS JOIN LATERAL (
           SELECT b.tfs[array_position(b.entity_ids, ${entity})] AS tf FROM bm25_block b
            WHERE b.index_id = ${this.index} AND b.term_id = q.term_id AND b.last_entity >= ${entity}
            ORDER BY b.last_entity LIMIT 1) p
        WHERE p.tf IS NOT NULL`;
  }
}

/**
 * The strict query as a condition on `present` (the term numbers an entity's text contains) and, for
 * phrases, on the entity's text, for the metapath filter's statement: a phrase's words must all be present and
 * follow each other in the text, which a case-insensitive regular expression over the text checks (only once
 * the words are known present; `~*` rather than `lower(text) ~`, which copies the whole text first and took four
 * times as long). `[:alnum:]` is `phraseTest`'s letters and digits on ASCII text, and under a UTF-8 locale
 * nearly always beyond.
 */
function strictCondition(strict: StrictQuery, known: Map<string, Term>, p: Params, kb: string, entity: string, present: string): string {
  const clause = (c: Clause): string => {
    const terms = c.map((w) => known.get(w));
    if (terms.some((t) => !t)) return 'false';
    const all = `${present} @> ARRAY[${terms.map((t) => t!.n).join(', ')}]`;
    if (c.length === 1) return all;
    // Words are runs of letters and digits, so no regex escaping is needed; anything else separates them.
    const pattern = `(^|[^[:alnum:]])${c.join('[^[:alnum:]]+')}([^[:alnum:]]|$)`;
    return `(CASE WHEN ${all} THEN (SELECT x.text FROM entity x WHERE x.kb_id = ${kb} AND x.id = ${entity}) ~* ${p.add(pattern)} ELSE false END)`;
  };
  return [
    ...strict.required.map((group) => `(${group.map(clause).join(' OR ')})`),
    ...strict.excluded.map((c) => `NOT ${clause(c)}`),
  ].join(' AND ') || 'false';
}

/**
 * The postings that can satisfy a strict query: for its group with the fewest postings, each clause's rarest
 * word. Every match contains one of them. Null when some group can match nothing.
 */
function strictDriver(strict: StrictQuery, known: Map<string, Term>): Term[] | null {
  let best: Term[] | null = null;
  let bestCost = Infinity;
  for (const group of strict.required) {
    const rarest = group.flatMap((c) => {
      const terms = c.map((w) => known.get(w));
      return terms.every(Boolean) ? [terms.reduce((a, b) => (b!.df < a!.df ? b : a))!] : [];
    });
    if (!rarest.length) return null;
    const cost = rarest.reduce((a, t) => a + t.df, 0);
    if (cost < bestCost) [best, bestCost] = [rarest, cost];
  }
  return best;
}

/**
 * A strict query's verdict on an entity from the terms it holds (`holds(n)`, n the term's number) and, when
 * given, its text: true or false, or without the text null when it turns on a phrase whose words it all holds.
 * `follows(a, b)`, when given, is false where the entity's adjacency rules out term a just before term b: a
 * phrase with those words next to each other is then false without its text.
 */
export type StrictVerdict = (holds: (n: number) => boolean, text?: () => string, follows?: (a: number, b: number) => boolean) => boolean | null;

function strictVerdict(strict: StrictQuery, known: Map<string, Term>): StrictVerdict {
  const clauses = (c: Clause) => ({ ns: c.map((w) => known.get(w)?.n ?? 0), inText: c.length > 1 ? phraseTest(c) : null });
  const required = strict.required.map((group) => group.map(clauses));
  const excluded = strict.excluded.map(clauses);
  return (holds, text, follows) => {
    // A clause: false when a word is missing, true for a word held, for a phrase whose words are all held its text's answer.
    let read: string | undefined;
    const clause = ({ ns, inText }: ReturnType<typeof clauses>) => {
      if (!ns.every((n) => n > 0 && holds(n))) return false;
      if (!inText) return true;
      if (follows && !ns.every((n, i) => i === 0 || follows(ns[i - 1]!, n))) return false;
      return text ? inText((read ??= text())) : null;
    };
    let verdict: boolean | null = true;
    for (const group of required) {
      const seen = group.map(clause);
      if (seen.includes(true)) continue;
      if (!seen.includes(null)) return false;
      verdict = null;
    }
    for (const c of excluded) {
      const seen = clause(c);
      if (seen === true) return false;
      if (seen === null) verdict = null;
    }
    return verdict;
  };
}

/** The candidates of these types, in the same order. */
async function entitiesOfTypes(db: Queryable, kb: number, types: string[], candidates: StrictCandidate[]): Promise<StrictCandidate[]> {
  const { rows } = await db.query<{ id: number }>(
    `SELECT e.id FROM entity e WHERE e.kb_id = $1 AND e.id = ANY($2::int[])
        AND e.type_id IN (SELECT t.id FROM node_type t WHERE t.kb_id = $1 AND t.name = ANY($3::text[]))`,
    [kb, candidates.map((c) => c.entityId), types]);
  const kept = new Set(rows.map((r) => r.id));
  return candidates.filter((c) => kept.has(c.entityId));
}

/** `MayFollow` for the phrases' words, from their adjacency kept with their postings. */
async function phraseFollows(db: Queryable, index: Bm25Index, terms: Term[]): Promise<MayFollow> {
  const adjacency = await phraseAdjacency(db, index, terms.map((t) => t.id));
  const idOf = new Map(terms.map((t) => [t.n, t.id]));
  return (entityId, a, b) => {
    const [idA, idB] = [idOf.get(a)!, idOf.get(b)!];
    return mayFollow(idA, adjacency(idA, entityId), idB, adjacency(idB, entityId));
  };
}

/** Candidates whose text is read in the first batch; each further batch is twice the last. */
const FIRST_TEXT_BATCH = 128;

/** Whether term number a may stand just before term number b in an entity's document (see `bm25-adjacent.ts`). */
export type MayFollow = (entityId: number, a: number, b: number) => boolean;

/**
 * The candidates (best first) that satisfy the strict query, read from their text where the postings cannot
 * tell, in batches, until `enough` match and the ties of the last are in; with how many were looked at. With
 * `follows`, the phrases' words' adjacency rules out candidates without their text.
 * Checked here rather than in SQL: JavaScript's regular expressions read Amazon's long documents several times
 * faster than PostgreSQL's, and read them as the tokeniser does.
 */
export async function matchInText(db: Queryable, kb: number, candidates: StrictCandidate[], verdict: StrictVerdict, enough: number,
  follows?: MayFollow): Promise<{ rows: StrictCandidate[]; looked: number }> {
  const rows: StrictCandidate[] = [];
  let cut: number | null = null;
  let at = 0;
  for (let batch = FIRST_TEXT_BATCH; at < candidates.length; batch *= 2) {
    const slice = candidates.slice(at, at + batch);
    // Each candidate's verdict from its terms and adjacency; null where only its text can tell.
    const fromTerms = slice.map((c) => verdict((n) => c.present.includes(n), undefined, follows && ((a, b) => follows(c.entityId, a, b))));
    const unsure = slice.filter((_, i) => fromTerms[i] === null).map((c) => c.entityId);
    const { rows: texts } = unsure.length
      ? await db.query<{ id: number; text: string }>('SELECT id, text FROM entity WHERE kb_id = $1 AND id = ANY($2::int[])', [kb, unsure])
      : { rows: [] };
    const textOf = new Map(texts.map((t) => [t.id, t.text]));
    for (const [i, c] of slice.entries()) {
      if (cut !== null && rank(c.score) !== cut) return { rows, looked: at };
      at++;
      if (!(fromTerms[i] ?? verdict((n) => c.present.includes(n), () => textOf.get(c.entityId) ?? ''))) continue;
      rows.push(c);
      if (rows.length === enough) cut = rank(c.score);
    }
  }
  return { rows, looked: at };
}

/**
 * Explorer search: entities ranked by Okapi BM25 over the query's words, then degree, then id. A plain
 * query matches entities containing any of its words; a strict one (see `parseSearchQuery`) those that
 * satisfy it, still ranked by BM25 over its words. Each hit says how many of the words it covers.
 *
 * Matching and scoring run over the postings kept in this process (`bm25-score.ts`); one statement then
 * reads the page (degrees for the ties at its end, coverage, snippets). A plain query whose words have at
 * most POSTING_BUDGET postings is scored in full: ranking and total are exact. A broader one (a pasted
 * question's "the", "of") gets its best BROAD_DEPTH entities beyond the page from the exact top-k scorer
 * (`scoreBm25`; with a type filter the best BROAD_TYPED_DEPTH, of which those of the types are kept), and its
 * total is a lower bound: the most documents any one of its words is in, or with a type filter, the matches
 * of those types among the best. A strict query's candidates (the postings of its most selective required
 * group) are decided from the terms each holds (`strictCandidates`), exactly, unless a phrase is involved:
 * then they are checked in score order against their text until PHRASE_MATCH_LIMIT matches (or the page's
 * depth) are found, among the best PHRASE_CHECK_LIMIT candidates only; past either the total is a lower
 * bound, and when the checked candidates hold fewer matches than the page, `checkedBest` says so.
 */
export async function searchBm25(db: Queryable, kbId: number, index: Bm25Index, query: SearchQuery, opts: Bm25SearchOptions): Promise<Bm25SearchResult> {
  const empty = { total: 0, totalIsLowerBound: false, hits: [] };
  const terms = await lookupTerms(db, index, query);
  const { known } = terms;
  const p = new Params();
  const kb = p.add(kbId);
  const types = opts.types?.length ? opts.types : null;
  // The types' placeholder is added on first use (PostgreSQL refuses untyped unused ones).
  let typesParam: string | undefined;
  const ofType = (entity: string) => (types ? `AND EXISTS (SELECT 1 FROM entity t WHERE t.kb_id = ${kb} AND t.id = ${entity}
    AND t.type_id IN (SELECT id FROM node_type WHERE kb_id = ${kb} AND name = ANY(${(typesParam ??= p.add(types))}::text[])))` : '');
  const depth = opts.offset + opts.limit;
  const budget = opts.postingBudget ?? POSTING_BUDGET;
  const ctes: string[] = [];
  const scored = (rows: Scored[], words: number[][]) => `unnest(${p.add(rows.map((r) => r.entityId))}::int[], ${p.add(rows.map((r) => r.score))}::float8[],
    ${p.add(words.map((w) => `{${w.join(',')}}`))}::text[]) AS c(entity_id, score, words)`;
  let broad = false;
  let totalIsLowerBound = false;
  let checkedBest: number | undefined;
  let phraseLimit: number | null = null;
  let unchecked = 0;
  // Ties within a billionth are ties: sums of the same weights in another order differ in the last bits.
  const order = (score: string) => `round(${score} * 1e9) DESC`;
  if (query.strict) {
    const driver = strictDriver(query.strict, known);
    if (!driver) return empty;
    const phraseClauses = [...query.strict.required.flat(), ...query.strict.excluded].filter((c) => c.length > 1);
    const phrase = phraseClauses.length > 0;
    const checkLimit = opts.phraseCheckLimit ?? PHRASE_CHECK_LIMIT;
    const verdict = strictVerdict(query.strict, known);
    const found = await strictCandidates(db, index, BM25_DEFAULTS, [...known.values()], driver.map((t) => t.id), query.words.length,
      verdict, types ? null : phrase ? checkLimit : depth + BROAD_DEPTH);
    const words = (c: StrictCandidate) => `{${c.present.filter((n) => n <= query.words.length).join(',')}}`;
    const matches = (rows: StrictCandidate[]) =>
      `unnest(${p.add(rows.map((r) => r.entityId))}::int[], ${p.add(rows.map((r) => r.score))}::float8[], ${p.add(rows.map(words))}::text[]) AS c(entity_id, score, words)`;
    if (!found.unsure) {
      // Decided in full from the postings: exact.
      ctes.push(`matched AS MATERIALIZED (SELECT c.entity_id, c.score, c.words::int[] AS words FROM ${matches(found.rows)} WHERE true ${ofType('c.entity_id')})`);
      if (!types) ctes.push(`counted AS (SELECT ${p.add(found.matched)}::int AS n)`);
    } else {
      // Candidates are checked in score order, from their text, until enough match.
      phraseLimit = Math.max(opts.phraseMatchLimit ?? PHRASE_MATCH_LIMIT, depth);
      const ofTypes = types ? await entitiesOfTypes(db, kbId, types, found.rows) : found.rows;
      // Adjacency is of the analysed words: with stemming a phrase's word may be stored under another stem.
      const follows = index.analyzer.stemming ? undefined : await phraseFollows(db, index, [...new Set(phraseClauses.flat())].flatMap((w) => known.get(w) ?? []));
      const checked = await matchInText(db, kbId, cutAtRank(ofTypes, checkLimit), verdict, phraseLimit + 1, follows);
      ctes.push(`matched AS MATERIALIZED (SELECT c.entity_id, c.score, c.words::int[] AS words FROM ${matches(checked.rows)})`);
      unchecked = (types ? ofTypes.length : found.matched) - checked.looked;
    }
  } else {
    const words = query.words.flatMap((w) => known.get(w) ?? []);
    if (!words.length) return empty;
    broad = words.reduce((a, t) => a + t.df, 0) > budget;
    const text = query.words.join(' ');
    let rows: Scored[];
    if (broad) {
      [rows] = (await scoreBm25(db, index, BM25_DEFAULTS, [text], types ? Math.max(BROAD_TYPED_DEPTH, depth) : Math.max(BROAD_DEPTH, depth + BROAD_DEPTH), known)) as [Scored[]];
    } else {
      const all = (await scoreEvery(db, index, BM25_DEFAULTS, text, known)).sort(byRank);
      rows = types ? all : cutAtRank(all, depth + BROAD_DEPTH);
      if (!types) ctes.push(`counted AS (SELECT ${p.add(all.length)}::int AS n)`);
    }
    const held = await termsHeld(db, index, words, rows.map((r) => r.entityId));
    ctes.push(`matched AS MATERIALIZED (SELECT c.entity_id, c.score, c.words::int[] AS words FROM ${scored(rows, held)} WHERE true ${ofType('c.entity_id')})`);
  }
  // Degrees are read only for the page's depth and the ties at its end.
  ctes.push(
    `top AS MATERIALIZED (SELECT * FROM matched ORDER BY ${order('score')} FETCH FIRST ${p.add(depth)} ROWS WITH TIES)`,
    `page AS MATERIALIZED (
       SELECT r.entity_id, r.score, r.words, g.degree FROM top r JOIN entity_search g ON g.kb_id = ${kb} AND g.id = r.entity_id
        ORDER BY ${order('r.score')}, g.degree DESC, r.entity_id LIMIT ${p.add(opts.limit)} OFFSET ${p.add(opts.offset)})`);
  const snippet = snippetSql(p, terms, 'e.text', 'pg.words');
  const counted = ctes.some((c) => c.startsWith('counted AS'));
  const { rows: [row] } = await db.query<{ total: number; hits: Bm25Hit[] }>(
    `WITH ${ctes.join(',\n')}
     SELECT ${counted ? '(SELECT n FROM counted)' : '(SELECT count(*) FROM matched)::int'} AS total,
            (SELECT coalesce(json_agg(json_build_object('id', e.id, 'externalId', e.external_id, 'name', e.name, 'type', t.name,
                      'degree', pg.degree, 'score', pg.score, 'covered', cardinality(pg.words), 'snippet', ${snippet})
                      ORDER BY ${order('pg.score')}, pg.degree DESC, pg.entity_id), '[]')
               FROM page pg JOIN entity e ON e.kb_id = ${kb} AND e.id = pg.entity_id JOIN node_type t ON t.id = e.type_id) AS hits`,
    p.values);
  const mostDocs = Math.max(...[...known.values()].map((t) => t.df));
  const total = broad && !types ? Math.max(row!.total, mostDocs) : row!.total;
  if (phraseLimit !== null) {
    totalIsLowerBound = row!.total > phraseLimit || unchecked > 0;
    if (unchecked > 0 && row!.total < depth) checkedBest = opts.phraseCheckLimit ?? PHRASE_CHECK_LIMIT;
  }
  return { total, totalIsLowerBound: broad || totalIsLowerBound, hits: row!.hits, ...(checkedBest ? { checkedBest } : {}) };
}

/** Words in more than this share of documents are not marked in snippets while rarer matched words are. */
const UNMARKED_SHARE = 0.1;

/**
 * SQL for a snippet of `text` marking the words the entity contains (their numbers `numbers`, an int[]
 * expression, into `terms.all`) as they are written: no stemming, as in the index. Words in more than a
 * tenth of the documents ("the", "of" in a pasted question) are left unmarked, and do not pick the
 * fragments, unless the entity contains no other word.
 */
export function snippetSql(p: Params, terms: TermList, text: string, numbers: string): string {
  const all = p.add(terms.all);
  const common = p.add([...terms.known.values()].filter((t) => t.df > terms.docs * UNMARKED_SHARE).map((t) => t.n));
  const marked = (agg: string, only: string) => `(SELECT ${agg} FROM unnest(${all}::text[]) WITH ORDINALITY w(word, n) WHERE w.n = ANY(${numbers}) ${only})`;
  const rare = `AND w.n <> ALL(${common}::int[])`;
  const tsquery = (only: string) => marked(`to_tsquery('simple', string_agg(quote_literal(w.word), ' | '))`, only);
  return headlineSql('simple', text, `coalesce(${tsquery(rare)}, ${tsquery('')})`,
    `coalesce(${marked('array_agg(w.word)', rare)}, ${marked('array_agg(w.word)', '')})`);
}

/** Index entries a probe of one entity's posting for one term costs, next to reading one posting in a scan. */
const PROBE_COST = 5;

/**
 * CTEs that match the entities of the CTE `set` (an `id` column) against the query, ending in
 * `matched(entity_id, score, words)`: those containing any of its words (or satisfying its strict form), with
 * their BM25 score and the numbers of the words they contain. Each entity's postings are probed when the set
 * is small next to the query's postings, else the postings are read once and kept when in the set; a one-time
 * filter on the set's size picks the side of the UNION ALL that runs. `list` is the term list the numbers
 * refer to (for `snippetSql`). Null when nothing can match.
 */
export async function matchWithinSql(db: Queryable, index: Bm25Index, query: SearchQuery, p: Params, kb: string, set: string): Promise<{ ctes: string[]; list: TermList } | null> {
  const list = await lookupTerms(db, index, query);
  const { known } = list;
  const terms = [...known.values()];
  if (!query.words.some((w) => known.has(w)) || (query.strict && !strictDriver(query.strict, known))) return null;
  const s = new Scoring(p, index);
  const postings = terms.reduce((a, t) => a + t.df, 0);
  const probe = `((SELECT count(*) FROM ${set}) * ${p.add(terms.length * PROBE_COST)} < ${p.add(postings)})`;
  const w = p.add(query.words.length);
  const condition = query.strict ? strictCondition(query.strict, known, p, kb, 'h.entity_id', 'h.present') : 'cardinality(h.words) > 0';
  return {
    list,
    ctes: [
      `terms AS (${s.terms(terms)})`,
      `hit AS MATERIALIZED (
         SELECT r.id AS entity_id, x.score, x.words, x.present FROM (SELECT r0.id, ${s.length('r0.id')} AS length FROM ${set} r0) r
          CROSS JOIN LATERAL (${s.probe('terms', 'r.id', 'r.length', query.words.length)}) x
          WHERE ${probe}
         UNION ALL
         SELECT e.entity_id, coalesce(sum(${s.weight('q.idf', 'e.tf', 'd.length')}) FILTER (WHERE q.n <= ${w}), 0),
                coalesce(array_agg(q.n) FILTER (WHERE q.n <= ${w}), '{}'), array_agg(q.n)
           FROM terms q JOIN bm25_block b ON b.index_id = ${s.index} AND b.term_id = q.term_id
          CROSS JOIN LATERAL unnest(b.entity_ids, b.tfs) AS e(entity_id, tf)
           JOIN bm25_doc d ON d.index_id = ${s.index} AND d.entity_id = e.entity_id
          WHERE NOT ${probe} AND (e.entity_id IN (SELECT id FROM ${set})) IS TRUE
          GROUP BY e.entity_id)`,
      `matched AS MATERIALIZED (SELECT h.entity_id, h.score, h.words FROM hit h WHERE ${condition})`,
    ],
  };
}
