import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autocomplete, LONG_QUERY_TYPOS, TYPO_SLACK, WORD_SIMILARITY_THRESHOLD } from '../../lib/kb/autocomplete';
import { lookupEntities, lookupEntity } from '../../lib/kb/lookup';
import { BROAD_QUERY_CANDIDATES, MATCH_END, MATCH_START, searchEntities, searchFullText } from '../../lib/kb/search';
import { ensureIndex } from '../../lib/retrieval/bm25-index';
import { openAppDatabase, pool } from '../support/app-database';
import { importIbd } from '../support/primekg-ibd';
import type { TestDatabase } from '../support/test-database';

let testDb: TestDatabase;
let kbId: number;

async function idOf(externalId: string): Promise<number> {
  const { rows } = await pool().query<{ id: number }>('SELECT id FROM entity WHERE kb_id = $1 AND external_id = $2', [kbId, externalId]);
  return rows[0]!.id;
}

/**
 * A broad full-text query's page of 20 at `offset`, worked out from `entity`: the matches ranked among the
 * `candidates` best-connected name matches and as many matches overall.
 */
async function broadRanking(query: string, candidates: number, offset: number): Promise<{ id: number }[]> {
  const { rows } = await pool().query<{ id: number }>(
    `WITH q AS (SELECT websearch_to_tsquery('english', $2) AS q),
     candidate AS (
       (SELECT id FROM entity, q WHERE kb_id = $1 AND to_tsvector('english', name) @@ q.q ORDER BY degree DESC, id LIMIT $3)
       UNION
       (SELECT id FROM entity, q WHERE kb_id = $1 AND entity_search_vector(name, text) @@ q.q ORDER BY degree DESC, id LIMIT $3))
     SELECT e.id FROM candidate c JOIN entity e ON e.kb_id = $1 AND e.id = c.id, q
      ORDER BY ts_rank_cd(entity_search_vector(e.name, e.text), q.q) DESC, e.degree DESC, e.id LIMIT 20 OFFSET $4`,
    [kbId, query, candidates, offset],
  );
  return rows;
}

beforeAll(async () => {
  testDb = await openAppDatabase();
  kbId = await importIbd(pool());
  await ensureIndex(pool(), kbId, false);
});

afterAll(async () => {
  await testDb.drop();
});

describe('autocomplete', () => {
  it('finds Crohn disease despite a misspelling', async () => {
    const items = await autocomplete(pool(), kbId, 'Crohn diseese', 10);
    expect(items[0]).toMatchObject({ externalId: '37784', name: 'Crohn disease', type: 'disease' });
    expect(items[0]!.score).toBeGreaterThan(0.4);
    // Lower case and a dropped letter as well.
    expect((await autocomplete(pool(), kbId, 'ulcerativ colitis', 5))[0]?.name).toBe('ulcerative colitis (disease)');
  });

  it('puts names starting with the query first, best connected first', async () => {
    const items = await autocomplete(pool(), kbId, 'crohn', 10);
    const { rows } = await pool().query<{ name: string; degree: number }>(
      `SELECT name, degree FROM entity WHERE kb_id = $1 AND lower(name) LIKE 'crohn%' ORDER BY degree DESC, name`,
      [kbId],
    );
    expect(rows.length).toBeGreaterThan(1);
    expect(items.slice(0, rows.length).map((i) => i.name)).toEqual(rows.map((r) => r.name));
  });

  it('puts the exact name first, whatever its case', async () => {
    expect((await autocomplete(pool(), kbId, 'smad3', 5))[0]).toMatchObject({ name: 'SMAD3', externalId: '144', score: 1 });
  });

  it('respects the limit and ranks by score within a tier', async () => {
    const items = await autocomplete(pool(), kbId, 'inflammatory bowel', 5);
    expect(items.length).toBe(5);
    const fuzzy = items.filter((i) => !i.name.toLowerCase().startsWith('inflammatory bowel'));
    for (let i = 1; i < fuzzy.length; i++) expect(fuzzy[i]!.score).toBeLessThanOrEqual(fuzzy[i - 1]!.score);
  });

  it('offers the exact id and external id hits first', async () => {
    const crohn = await idOf('37784');
    const byExternal = await autocomplete(pool(), kbId, '37784', 10);
    expect(byExternal[0]).toMatchObject({ id: crohn, name: 'Crohn disease', score: 1 });
    const byId = await autocomplete(pool(), kbId, `#${crohn}`, 10);
    expect(byId[0]).toMatchObject({ id: crohn, externalId: '37784' });
  });

  /** The best-connected name of 30-60 letters and spaces with two words of five letters or more. */
  async function longName(): Promise<string> {
    const { rows } = await pool().query<{ name: string }>(
      `SELECT name FROM entity WHERE kb_id = $1 AND length(name) BETWEEN 30 AND 60 AND name ~ '^[A-Za-z ]+$'
          AND (SELECT count(*) FROM regexp_split_to_table(name, ' ') w WHERE length(w) >= 5) >= 2 ORDER BY degree DESC, id LIMIT 1`,
      [kbId],
    );
    return rows[0]!.name;
  }

  it('finds a long name with as many typos as a long query may hold, in different words', async () => {
    const name = await longName();
    let typed = 0;
    const words = name.split(' ').map((w) => (w.length >= 5 && typed < LONG_QUERY_TYPOS ? (typed++, `${w.slice(0, 2)}${w[2] === 'q' ? 'z' : 'q'}${w.slice(3)}`) : w));
    const items = await autocomplete(pool(), kbId, words.join(' '), 5);
    expect(items[0]?.name).toBe(name);
  });

  it('raises the similarity a long query needs, so names sharing only some of its words stay out', async () => {
    const query = await longName();
    const { rows } = await pool().query<{ trigrams: number }>(`SELECT cardinality(show_trgm($1)) AS trigrams`, [query]);
    const threshold = (rows[0]!.trigrams - TYPO_SLACK) / (rows[0]!.trigrams + TYPO_SLACK);
    expect(threshold).toBeGreaterThan(WORD_SIMILARITY_THRESHOLD);
    // Names a fixed threshold would have offered: there are some, and none may be listed.
    const { rows: loose } = await pool().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM entity WHERE kb_id = $1 AND word_similarity($2, name) >= $3 AND word_similarity($2, name) < $4`,
      [kbId, query, WORD_SIMILARITY_THRESHOLD, threshold],
    );
    expect(loose[0]!.n).toBeGreaterThan(0);
    const items = await autocomplete(pool(), kbId, query, 10);
    expect(items[0]?.name).toBe(query);
    for (const item of items) expect(item.score).toBeGreaterThanOrEqual(threshold - 1e-6);
  });

  it('treats LIKE wildcards in the query as text', async () => {
    const items = await autocomplete(pool(), kbId, '%', 10);
    expect(items.every((i) => i.name.includes('%'))).toBe(true);
  });
});

describe('lookup', () => {
  it('resolves #id, a bare id and an external id', async () => {
    const smad3 = await idOf('144');
    expect(await lookupEntity(pool(), kbId, `#${smad3}`)).toMatchObject({ id: smad3, name: 'SMAD3', externalId: '144' });
    expect(await lookupEntity(pool(), kbId, ` ${smad3} `)).toMatchObject({ id: smad3 });
    expect(await lookupEntity(pool(), kbId, '37784')).toMatchObject({ externalId: '37784', name: 'Crohn disease' });
    expect(await lookupEntity(pool(), kbId, 'no such id')).toBeNull();
    expect(await lookupEntity(pool(), kbId, '#99999999999')).toBeNull();
  });

  it('returns both readings of a number, the internal id first', async () => {
    const smad3 = await idOf('144');
    const { rows } = await pool().query<{ id: number }>('SELECT id FROM entity WHERE kb_id = $1 AND id = 144', [kbId]);
    const hits = await lookupEntities(pool(), kbId, '144');
    const expected = [...rows.map((r) => r.id), smad3].filter((id, i, all) => all.indexOf(id) === i);
    expect(hits.map((h) => h.id)).toEqual(expected);
    // `#144` is the internal id only.
    expect((await lookupEntities(pool(), kbId, '#144')).map((h) => h.id)).toEqual(rows.map((r) => r.id));
  });
});

describe('search', () => {
  it('filters by type and pages through every hit once', async () => {
    const all = await searchEntities(pool(), kbId, { query: 'colitis', limit: 100, offset: 0 });
    expect(all.total).toBeGreaterThan(0);
    const types = [...new Set(all.hits.map((h) => h.type))];
    let perType = 0;
    for (const type of types) {
      const filtered = await searchEntities(pool(), kbId, { query: 'colitis', types: [type], limit: 100, offset: 0 });
      expect(filtered.hits.every((h) => h.type === type)).toBe(true);
      perType += filtered.total;
    }
    expect(perType).toBe(all.total);
  });

  it('pages of 20 cover the ranking without gaps or repeats', async () => {
    const query = 'regulation';
    const first = await searchEntities(pool(), kbId, { query, types: ['biological_process'], limit: 20, offset: 0 });
    expect(first.total).toBeGreaterThan(40);
    const pages = [first];
    for (let offset = 20; offset < 60; offset += 20) pages.push(await searchEntities(pool(), kbId, { query, types: ['biological_process'], limit: 20, offset }));
    const ids = pages.flatMap((p) => p.hits.map((h) => h.id));
    expect(new Set(ids).size).toBe(ids.length);
    const whole = await searchEntities(pool(), kbId, { query, types: ['biological_process'], limit: 60, offset: 0 });
    expect(ids).toEqual(whole.hits.map((h) => h.id));
    expect(pages.every((p) => p.total === first.total)).toBe(true);
    expect(first.hits[0]!.snippet).toContain(MATCH_START);
    expect(first.hits[0]!.snippet).toContain(MATCH_END);
  });
  it('keeps a narrow copy of every entity for search, with the vectors of its name and text', async () => {
    const { rows } = await pool().query<{ entities: number; copies: number; names: number }>(
      `SELECT (SELECT count(*)::int FROM entity WHERE kb_id = $1) AS entities,
              (SELECT count(*)::int FROM entity_search s JOIN entity e ON e.kb_id = s.kb_id AND e.id = s.id
                WHERE s.kb_id = $1 AND s.search = entity_search_vector(e.name, e.text) AND s.name_search = to_tsvector('english', e.name)
                  AND s.degree = e.degree AND s.type_id = e.type_id) AS copies,
              (SELECT count(*)::int FROM entity_search WHERE kb_id = $1 AND name_search = ''::tsvector) AS names`,
      [kbId],
    );
    expect(rows[0]!.copies).toBe(rows[0]!.entities);
    expect(rows[0]!.names).toBe(0);
  });

  it('keeps the search table in descending degree order, the order broad full-text queries read it in', async () => {
    const ids = async (order: string) => (await pool().query<{ id: number }>(`SELECT id FROM entity_search WHERE kb_id = $1 ORDER BY ${order}`, [kbId])).rows.map((r) => r.id);
    expect(await ids('ctid')).toEqual(await ids('degree DESC, id'));
  });

  it('full-text fallback: counts and ranks every match of a query within the exact limit', async () => {
    const query = 'inflammatory bowel';
    const { rows } = await pool().query<{ id: number; total: number }>(
      `SELECT id, count(*) OVER ()::int AS total
         FROM (SELECT id, degree, entity_search_vector(name, text) AS search FROM entity WHERE kb_id = $1) e, websearch_to_tsquery('english', $2) q
        WHERE search @@ q ORDER BY ts_rank_cd(search, q) DESC, degree DESC, id LIMIT 20`,
      [kbId, query],
    );
    const result = await searchFullText(pool(), kbId, { query, limit: 20, offset: 0 });
    expect(result.totalIsLowerBound).toBe(false);
    expect(result.total).toBe(rows[0]!.total);
    expect(result.hits.map((h) => h.id)).toEqual(rows.map((r) => r.id));
  });

  it('full-text fallback: bounds a broad query, a lower-bound total, ranked among the best-connected name and text matches', async () => {
    const query = 'regulation';
    const result = await searchFullText(pool(), kbId, { query, limit: 20, offset: 0, exactMatchLimit: 5 });
    expect(result.totalIsLowerBound).toBe(true);
    expect(result.total).toBe(5);
    const rows = await broadRanking(query, BROAD_QUERY_CANDIDATES, 0);
    const { rows: all } = await pool().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM entity WHERE kb_id = $1 AND entity_search_vector(name, text) @@ websearch_to_tsquery('english', $2)`, [kbId, query]);
    expect(all[0]!.n).toBeGreaterThan(2 * BROAD_QUERY_CANDIDATES);
    expect(result.hits.map((h) => h.id)).toEqual(rows.map((r) => r.id));
    expect(result.hits[0]!.snippet).toContain(MATCH_START);
    // Within the exact limit the same query is counted in full.
    const exact = await searchFullText(pool(), kbId, { query, limit: 1, offset: 0, exactMatchLimit: all[0]!.n });
    expect(exact).toMatchObject({ total: all[0]!.n, totalIsLowerBound: false });
  });

  it('full-text fallback: a page deeper than the exact limit is ranked among as many candidates as it reaches', async () => {
    // Found in 849 documents and only 3 names: the page comes from the best-connected document matches.
    const query = 'drug';
    const offset = BROAD_QUERY_CANDIDATES + 40;
    const result = await searchFullText(pool(), kbId, { query, limit: 20, offset, exactMatchLimit: 5 });
    expect(result).toMatchObject({ total: 5, totalIsLowerBound: true });
    const rows = await broadRanking(query, offset + 20, offset);
    expect(rows).toHaveLength(20);
    expect(result.hits.map((h) => h.id)).toEqual(rows.map((r) => r.id));
  });
});

describe('BM25 search of a pasted question', () => {
  const words = (t: string): string[] => t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const question = 'Which genes and proteins are involved in the chronic inflammation of the bowel seen in Crohn disease and ulcerative colitis patients today, and why?';

  /** BM25 (k1 1.2, b 0.75) of every entity for `query`, computed here from the entity texts. */
  async function reference(query: string[]) {
    const { rows } = await pool().query<{ id: number; degree: number; text: string }>('SELECT id, degree, text FROM entity WHERE kb_id = $1', [kbId]);
    const docs = rows.map((r) => {
      const tokens = words(r.text);
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      return { id: r.id, degree: r.degree, length: tokens.length, tf };
    });
    const avg = docs.reduce((a, d) => a + d.length, 0) / docs.length;
    const df = (w: string) => docs.filter((d) => d.tf.has(w)).length;
    const idf = new Map(query.map((w) => [w, Math.log(1 + (docs.length - df(w) + 0.5) / (df(w) + 0.5))]));
    const score = (d: (typeof docs)[number], ws: string[]) => ws.reduce((sum, w) => {
      const tf = d.tf.get(w) ?? 0;
      return sum + (idf.get(w)! * tf * 2.2) / (tf + 1.2 * (1 - 0.75 + (0.75 * d.length) / avg));
    }, 0);
    return { docs, score, df };
  }
  const byScore = <T extends { id: number; degree: number }>(s: (d: T) => number) => (a: T, b: T) =>
    Math.round(s(b) * 1e9) - Math.round(s(a) * 1e9) || b.degree - a.degree || a.id - b.id;

  it('ranks every entity with any of the words exactly when the postings fit the budget', async () => {
    const query = [...new Set(words(question))];
    expect(query).toHaveLength(20);
    const { docs, score, df } = await reference(query);
    const result = await searchEntities(pool(), kbId, { query: question, limit: 20, offset: 0, postingBudget: 1_000_000 });
    const matching = docs.filter((d) => query.some((w) => d.tf.has(w))).sort(byScore((d) => score(d, query)));
    expect(result).toMatchObject({ ranking: 'bm25', words: query, totalIsLowerBound: false, total: matching.length });
    expect(result.hits.map((h) => h.id)).toEqual(matching.slice(0, 20).map((d) => d.id));
    expect(result.hits.map((h) => h.covered)).toEqual(matching.slice(0, 20).map((d) => query.filter((w) => d.tf.has(w)).length));
    for (const h of result.hits) expect(h.snippet).toContain(MATCH_START);
    // Words in more than a tenth of the documents are not marked where rarer ones are.
    const common = query.filter((w) => df(w) > docs.length / 10);
    expect(common).toEqual(expect.arrayContaining(['the', 'of', 'and']));
    const marked = [...result.hits[0]!.snippet.matchAll(/\u0002([^\u0003]*)\u0003/g)].map((m) => m[1]!.toLowerCase());
    expect(marked.length).toBeGreaterThan(0);
    expect(marked.every((m) => query.includes(m) && !common.includes(m))).toBe(true);
  });

  it('ranks a question with more postings than the budget exactly as well, from postings in memory', async () => {
    const query = [...new Set(words(question))];
    const { docs, score, df } = await reference(query);
    const all = docs.filter((d) => query.some((w) => d.tf.has(w))).sort(byScore((d) => score(d, query)));
    for (const offset of [0, 40]) {
      const result = await searchEntities(pool(), kbId, { query: question, limit: 20, offset, postingBudget: 2000 });
      expect(result).toMatchObject({ ranking: 'bm25', totalIsLowerBound: true, total: Math.max(...query.map(df)) });
      const expected = all.slice(offset, offset + 20);
      expect(result.hits.map((h) => h.id)).toEqual(expected.map((d) => d.id));
      expect(result.hits.map((h) => h.covered)).toEqual(expected.map((d) => query.filter((w) => d.tf.has(w)).length));
      result.hits.forEach((h, i) => expect(h.score).toBeCloseTo(score(expected[i]!, query), 9));
    }
  });
});
