import { aliasTable, writeEdges, writeEntities } from './graph';
import { PUBLISHED } from './published';
import { outListOffsets, planGraph, type ShapeSpec } from './plan';
import { between, capital, list, logNormal, pick, stream, uniqueName, type Rng } from './random';
import { shapeSummary, type ShapeOutput, type ShapeRun } from './shape';
import { fill, narrow, queue, takeRoundRobin, writeStarkQueries, type OutLists } from './stark-queries';
import { FUNCTION_WORDS, zipfVocabulary } from './vocabulary';

/**
 * The MAG shape (STaRK-MAG, from ogbn-mag): papers, authors, institutions and fields of study. Type
 * sizes are STaRK-MAG's; relation shares are ogbn-mag's (STaRK's edge total counts both directions,
 * here each edge is written once with the published total). Citations are power-law: with Zipf
 * exponent 0.7 over 700k papers a few papers are cited 10,000+ times at scale 1. Paper documents (title,
 * abstract, year, venue) carry almost all the text, sized so the whole approaches STaRK-MAG's 212.6M tokens.
 */

export const MAG_SPEC: ShapeSpec = {
  types: [
    { name: 'paper', share: 700_244 },
    { name: 'author', share: 1_104_554 },
    { name: 'institution', share: 8_740 },
    { name: 'field_of_study', share: 59_430 },
  ],
  // Each source's relations in this order: an author's affiliations come before its papers (queries use both).
  relations: [
    { name: 'cites', source: 'paper', target: 'paper', share: 5_416_271, sigma: 0.9, zipf: { s: 0.7, q: 1 } },
    { name: 'has_topic', source: 'paper', target: 'field_of_study', share: 7_505_078, sigma: 0.5, zipf: { s: 1.05, q: 3 } },
    { name: 'affiliated_with', source: 'author', target: 'institution', share: 1_043_998, sigma: 0.6, zipf: { s: 1, q: 5 } },
    { name: 'writes', source: 'author', target: 'paper', share: 7_145_660, sigma: 1.3, zipf: { s: 0.3, q: 10 } },
  ],
};
const [PAPER, AUTHOR, INSTITUTION, FIELD] = [0, 1, 2, 3];
const [CITES, HAS_TOPIC, AFFILIATED_WITH, WRITES] = [0, 1, 2, 3];

/** STaRK-MAG's tokens of text per entity. */
const TOKENS_PER_ENTITY = PUBLISHED.mag.tokens / PUBLISHED.mag.entities;

const MAG_WORDS = list(
  'model|method|data|system|paper|approach|analysis|proposed|problem|performance|network|based|algorithm|study|' +
  'results|learning|information|design|control|effect|process|function|theory|structure|framework|application|' +
  'experimental|simulation|optimal|time|energy|properties|power|propose|present|research|technique|feature|' +
  'distribution|quality|efficient|significant|novel|parameters|measurement|evaluation|estimation|temperature|' +
  'surface|signal|image|detection|classification|software|protein|cell|patients|clinical|treatment|materials|' +
  'phase|field|linear|nonlinear|dynamic|stochastic|robust|graph|optimization|sensor|wireless|communication|' +
  'security|semantic|knowledge|language|database|query|retrieval|neural|deep|training|accuracy|error|bound|' +
  'spectrum|frequency|magnetic|thermal|chemical|molecular|gene|expression|species|soil|water|climate|policy|' +
  'market|economic|social|behavior|survey|health|risk|urban|traffic|circuit|voltage|antenna|channel|coding',
);
const FIRST_NAMES = list(
  'Wei|Li|Jing|Yan|Hui|Xin|Jun|Ming|Hao|Lei|Yu|Chen|Maria|Anna|John|David|Michael|James|Robert|Daniel|Thomas|Peter|Paul|Mark|' +
  'Sarah|Laura|Elena|Sofia|Andrea|Marco|Luca|Giulia|Hiroshi|Takashi|Yuki|Kenji|Akira|Sanjay|Rahul|Priya|Anil|Amit|Deepak|' +
  'Ahmed|Mohamed|Ali|Fatima|Omar|Hassan|Ivan|Olga|Sergei|Dmitri|Natalia|Pierre|Marie|Jean|Claire|Hans|Klaus|Stefan|Julia|' +
  'Carlos|Jose|Luis|Ana|Pablo|Diego|Jorge|Min|Seo|Ji|Hyun|Sung|Young|Kim|Emma|Olivia|Noah|Liam|Lucas|Ethan|Chloe|Mia|Nina',
);
const LAST_NAMES = list(
  'Wang|Li|Zhang|Liu|Chen|Yang|Huang|Zhao|Wu|Zhou|Xu|Sun|Ma|Zhu|Hu|Guo|He|Lin|Gao|Luo|Smith|Johnson|Williams|Brown|Jones|' +
  'Miller|Davis|Garcia|Rodriguez|Martinez|Hernandez|Lopez|Gonzalez|Wilson|Anderson|Taylor|Thomas|Moore|Martin|Lee|Kim|Park|' +
  'Choi|Jung|Kang|Cho|Yoon|Tanaka|Suzuki|Takahashi|Watanabe|Ito|Yamamoto|Nakamura|Kobayashi|Kumar|Singh|Sharma|Gupta|Patel|' +
  'Rossi|Russo|Ferrari|Esposito|Bianchi|Muller|Schmidt|Schneider|Fischer|Weber|Meyer|Wagner|Becker|Dubois|Moreau|Laurent|' +
  'Ivanov|Smirnov|Kuznetsov|Popov|Silva|Santos|Oliveira|Souza|Costa|Pereira|Nguyen|Tran|Pham|Khan|Hassan|Ahmed|Cohen|Levy',
);
const INSTITUTION_PATTERNS = list(
  'University of {place}|{place} University|{place} Institute of Technology|{place} State University|{place} Medical Center|' +
  '{place} Research Institute|National Laboratory of {place}|{place} Polytechnic University|{place} College|{place} Academy of Sciences',
);
const COUNTRIES = list('United States|China|Germany|United Kingdom|Japan|France|Canada|Italy|India|South Korea|Spain|Australia|Netherlands|Brazil|Switzerland|Sweden|Russia|Israel');
const INSTITUTION_KINDS = list('education|education|education|healthcare|company|government|facility|nonprofit');
const DOC_TYPES = list('Journal|Journal|Journal|Conference|Conference|Book|BookChapter|Repository|Patent');
const VENUE_PATTERNS = list('Journal of {a} {b}|{a} {b} Letters|Proceedings of the {a} Conference on {b}|International Journal of {a} {b}|Transactions on {a} {b}|{a} {b} Review|Annals of {a} {b}');

/** Share of papers without an abstract (title only), as in MAG. */
const NO_ABSTRACT = 0.06;
const ABSTRACT_SIGMA = 0.5;
const MIN_ABSTRACT = 20;
const TITLE_WORDS = [5, 15];

/** Question phrasings per query template; `{title}` is a paper's title, `{field}` and `{institution}` names. */
export const MAG_QUERY_PHRASINGS = {
  citing: [
    'Which papers on {field} cite the paper "{title}"?',
    'I am looking for {field} research that cites "{title}". Which publications should I read?',
    'Find publications about {field} that build on "{title}" by citing it in their references.',
  ],
  cited: [
    'Which {field} papers does "{title}" cite in its reference list?',
    'The paper "{title}" cites several works; which of them are about {field}?',
    'List the publications on {field} that are referenced by the article "{title}".',
  ],
  institution: [
    'Which papers on {field} were written by authors affiliated with {institution}?',
    'Find research about {field} published by researchers working at {institution}, including any co-authored work.',
    'I need publications in {field} with at least one author from {institution}. What are they?',
  ],
} as const;

const MAX_ANSWERS = 20;
/** An institution whose authors wrote more papers than this is not used as a query seed (its lists stay small). */
const MAX_INSTITUTION_PAPERS = 3_000;

const words = (s: string): number => s.split(' ').length;

export async function generateMag(run: ShapeRun): Promise<ShapeOutput> {
  const plan = planGraph(MAG_SPEC, run.entities, run.edges, run.seed);
  const { types } = plan;
  const vocab = zipfVocabulary(MAG_WORDS);
  const functionWords = new Set(FUNCTION_WORDS);
  const contentWord = (rng: Rng): string => {
    let w = vocab.word(rng);
    while (functionWords.has(w)) w = vocab.word(rng);
    return w;
  };

  // Venues: a Zipf-popular list, about one per 175 papers.
  const nameRng = stream(run.seed, 'names');
  const venueCount = Math.max(10, Math.round(types[PAPER]!.count / 175));
  const venueNames = new Set<string>();
  const venues = Array.from({ length: venueCount }, () => uniqueName(() => fill(pick(nameRng, VENUE_PATTERNS), { a: capital(contentWord(nameRng)), b: capital(contentWord(nameRng)) }), venueNames));
  const venueWords = venues.map(words);
  const venueTable = aliasTable(venueCount, (r) => 1 / (r + 2));
  const venueOf = (rng: Rng): number => {
    const x = rng() * venueCount;
    const r = Math.floor(x);
    return x - r < venueTable.prob[r]! ? r : venueTable.alias[r]!;
  };

  // Abstract lengths: log-normal, its median chosen so the expected total meets the published tokens per entity.
  const others = types[AUTHOR]!.count * 2.35 + types[INSTITUTION]!.count * 3.5 + types[FIELD]!.count * 2;
  const papers = Math.max(1, types[PAPER]!.count);
  const perPaper = (TOKENS_PER_ENTITY * run.entities - others) / papers - (TITLE_WORDS[0]! + TITLE_WORDS[1]!) / 2 - 5;
  const abstractMedian = Math.max(MIN_ABSTRACT, perPaper / (1 - NO_ABSTRACT) / Math.exp((ABSTRACT_SIGMA * ABSTRACT_SIGMA) / 2));

  // What the queries need, noted while writing (nothing when no queries are asked for).
  const wantQueries = run.queries > 0;
  const seedRng = stream(run.seed, 'query-seeds');
  const seedPapers = (count: number) => {
    const out = new Map<number, number[]>();
    for (let i = 0; i < count && papers > 0; i++) out.set(types[PAPER]!.start + Math.floor(seedRng() * papers), []);
    return out;
  };
  const citedSeeds = wantQueries ? seedPapers(run.queries) : new Map<number, number[]>();
  const citingSeeds = wantQueries ? seedPapers(run.queries) : new Map<number, number[]>();
  const institutionSeeds = new Map<number, number[]>();
  if (wantQueries) for (let i = 0; i < run.queries; i++) institutionSeeds.set(types[INSTITUTION]!.start + Math.floor(seedRng() * types[INSTITUTION]!.count), []);
  const titles = new Map<number, string>();
  const fieldNames: string[] = [];
  const institutionNames: string[] = [];

  const docRng = stream(run.seed, 'documents');
  const taken = [new Set<string>(), new Set<string>()]; // institution and field names are unique
  let tokens = 0;
  await writeEntities(run.files.entities, plan, (t, _local, id) => {
    let line: { id: string; type: string; name: string; aliases: string[]; document: Record<string, unknown> };
    if (t === PAPER) {
      const titleWords = between(docRng, TITLE_WORDS[0]!, TITLE_WORDS[1]!);
      const title = capital(vocab.phrase(docRng, titleWords));
      const venue = venueOf(docRng);
      const document: Record<string, unknown> = {};
      tokens += titleWords + venueWords[venue]! + 1;
      if (docRng() >= NO_ABSTRACT) {
        const n = Math.max(MIN_ABSTRACT, Math.round(logNormal(docRng, abstractMedian, ABSTRACT_SIGMA)));
        document.abstract = vocab.text(docRng, n);
        tokens += n;
      }
      document.year = Math.max(1900, 2021 - Math.floor(logNormal(docRng, 8, 0.8)));
      document.venue = venues[venue];
      document.doc_type = pick(docRng, DOC_TYPES);
      if (citedSeeds.has(id) || citingSeeds.has(id)) titles.set(id, title);
      line = { id: String(id), type: 'paper', name: title, aliases: [], document };
    } else if (t === AUTHOR) {
      const first = pick(docRng, FIRST_NAMES);
      const middle = docRng() < 0.35 ? ` ${String.fromCharCode(65 + Math.floor(docRng() * 26))}.` : '';
      const last = docRng() < 0.7 ? pick(docRng, LAST_NAMES) : capital(contentWord(docRng));
      const name = `${first}${middle} ${last}`;
      tokens += words(name);
      line = { id: String(id), type: 'author', name, aliases: [], document: { rank: between(docRng, 5_000, 25_000) } };
    } else if (t === INSTITUTION) {
      const name = uniqueName(() => fill(pick(docRng, INSTITUTION_PATTERNS), { place: capital(contentWord(docRng)) }), taken[0]!);
      tokens += words(name);
      if (wantQueries) institutionNames.push(name);
      line = { id: String(id), type: 'institution', name, aliases: [], document: { country: pick(docRng, COUNTRIES), kind: pick(docRng, INSTITUTION_KINDS) } };
    } else {
      const name = uniqueName(() => {
        const n = between(docRng, 1, 3);
        let s = contentWord(docRng);
        for (let i = 1; i < n; i++) s += ` ${contentWord(docRng)}`;
        return s;
      }, taken[1]!);
      tokens += words(name);
      if (wantQueries) fieldNames.push(name);
      line = { id: String(id), type: 'field_of_study', name, aliases: [], document: { level: Math.min(5, Math.floor(logNormal(docRng, 2, 0.4))) } };
    }
    return `${JSON.stringify(line)}\n`;
  }, (written) => run.progress({ entities: written, edges: 0 }));

  // Topics of every paper (a flat array by paper), and the lists the seeds need.
  const topicOffsets = wantQueries ? outListOffsets(plan, HAS_TOPIC) : new Int32Array(1);
  const topics = new Int32Array(topicOffsets[topicOffsets.length - 1]!);
  let author = -1;
  let affiliations: number[] = [];
  const pass = await writeEdges(run.files.edges, plan, stream(run.seed, 'edges'), (edges) => run.progress({ entities: run.entities, edges }), wantQueries
    ? (source, relation, targets) => {
        if (relation === CITES) {
          for (const t of targets) citedSeeds.get(t)?.push(source);
          citingSeeds.get(source)?.push(...targets);
        } else if (relation === HAS_TOPIC) {
          topics.set(targets, topicOffsets[source - types[PAPER]!.start]!);
        } else if (relation === AFFILIATED_WITH) {
          author = source;
          affiliations = Array.from(targets);
        } else if (relation === WRITES && author === source) {
          for (const i of affiliations) {
            const list = institutionSeeds.get(i);
            if (list && list.length <= MAX_INSTITUTION_PAPERS) list.push(...targets);
          }
        }
      }
    : undefined);
  if (pass.written !== run.edges) throw new Error(`internal: wrote ${pass.written} edges instead of ${run.edges}`);

  const out = shapeSummary(plan, pass, tokens);
  if (!wantQueries) return out;
  const fieldStart = types[FIELD]!.start;
  const topicLists: OutLists = { base: types[PAPER]!.start, offsets: topicOffsets, targets: topics };
  const queryRng = stream(run.seed, 'queries');
  const narrowByField = (pool: number[]) => {
    const hit = narrow(pool, topicLists, queryRng, MAX_ANSWERS);
    return hit && { field: fieldNames[hit.value - fieldStart]!, answers: hit.answers };
  };
  const queries = takeRoundRobin([
    queue(citedSeeds, (paper, citers) => {
      const hit = narrowByField(citers);
      return hit && { text: fill(pick(queryRng, MAG_QUERY_PHRASINGS.citing), { field: hit.field, title: titles.get(paper)! }), answers: hit.answers };
    }),
    queue(citingSeeds, (paper, references) => {
      const hit = narrowByField(references);
      return hit && { text: fill(pick(queryRng, MAG_QUERY_PHRASINGS.cited), { field: hit.field, title: titles.get(paper)! }), answers: hit.answers };
    }),
    queue(institutionSeeds, (institution, written) => {
      if (written.length > MAX_INSTITUTION_PAPERS) return null;
      const hit = narrowByField(written);
      return hit && {
        text: fill(pick(queryRng, MAG_QUERY_PHRASINGS.institution), { field: hit.field, institution: institutionNames[institution - types[INSTITUTION]!.start]! }),
        answers: hit.answers,
      };
    }),
  ], run.queries);
  return { ...out, queries: await writeStarkQueries(run.outDir, queries, run.seed) };
}
