import { writeEdges, writeEntities } from './graph';
import { outListOffsets, planGraph, type ShapeSpec } from './plan';
import { PUBLISHED } from './published';
import { between, capital, list, logNormal, pick, round, stream, uniqueName, type Rng } from './random';
import { shapeSummary, type ShapeOutput, type ShapeRun } from './shape';
import { fill, narrow, queue, takeRoundRobin, writeStarkQueries, type OutLists } from './stark-queries';
import { FUNCTION_WORDS, zipfVocabulary } from './vocabulary';

/**
 * The Amazon shape (STaRK-Amazon): products with long documents (title, description, features,
 * reviews and Q&A) and their brands, categories and colours, plus also-bought / also-viewed links
 * between products. Entity and edge totals are STaRK-Amazon's; the split by type and relation is
 * ours (STaRK publishes the totals). Review and Q&A counts are log-normal, so the text averages
 * STaRK-Amazon's ~572 tokens per entity with a long tail of products carrying tens of thousands of
 * words; category sizes are Zipf, so the largest categories hold 100,000+ products at scale 1.
 */

export const AMAZON_SPEC: ShapeSpec = {
  types: [
    { name: 'product', share: 957_192 },
    { name: 'brand', share: 25_010 },
    { name: 'category', share: 1_137 },
    { name: 'color', share: 52_203 },
  ],
  relations: [
    { name: 'has_brand', source: 'product', target: 'brand', share: 9.5, sigma: 0.1, maxOut: 1, zipf: { s: 0.9, q: 3 } },
    { name: 'has_category', source: 'product', target: 'category', share: 22, sigma: 0.4, maxOut: 6, zipf: { s: 1, q: 1 } },
    { name: 'has_color', source: 'product', target: 'color', share: 2.5, sigma: 0.5, maxOut: 3, zipf: { s: 1.1, q: 2 } },
    { name: 'also_buy', source: 'product', target: 'product', share: 32, sigma: 1, zipf: { s: 0.6, q: 5 } },
    { name: 'also_view', source: 'product', target: 'product', share: 34, sigma: 1, zipf: { s: 0.6, q: 5 } },
  ],
};
const [PRODUCT, BRAND, CATEGORY, COLOR] = [0, 1, 2, 3];
const [HAS_BRAND, HAS_CATEGORY, HAS_COLOR, ALSO_BUY] = [0, 1, 2, 3];

const TOKENS_PER_ENTITY = PUBLISHED.amazon.tokens / PUBLISHED.amazon.entities;

const AMAZON_WORDS = list(
  'great|product|quality|use|love|price|good|size|fit|works|easy|recommend|color|well|buy|bought|would|one|little|' +
  'nice|really|perfect|time|small|set|light|comfortable|sturdy|cheap|value|box|battery|cable|case|cover|pack|' +
  'item|order|received|returned|broke|months|days|daughter|son|gift|kitchen|water|material|design|plastic|metal|' +
  'cotton|leather|steel|wood|glass|soft|hard|large|medium|heavy|long|short|fast|shipping|seller|amazon|review|' +
  'stars|money|worth|happy|disappointed|problem|instructions|install|charger|phone|screen|bag|shoes|shirt|dress|' +
  'toy|kids|baby|dog|cat|car|bike|tool|knife|pan|bottle|cup|lamp|chair|table|bed|pillow|towel|brush|cream|oil',
);
const AREAS = list('Home|Kitchen|Outdoor|Garden|Baby|Pet|Sports|Office|Automotive|Beauty|Health|Tools|Toys|Electronics|Clothing|Shoes|Jewelry|Books|Music|Grocery|Industrial|Arts|Crafts|Luggage|Camping');
const ITEMS = list(
  'Storage|Lights|Bags|Cables|Chairs|Tables|Bottles|Cups|Knives|Pans|Brushes|Creams|Oils|Chargers|Cases|Covers|Shirts|Dresses|Boots|' +
  'Sneakers|Watches|Rings|Necklaces|Blankets|Pillows|Towels|Rugs|Lamps|Fans|Heaters|Filters|Pumps|Tents|Backpacks|Gloves|Hats|' +
  'Socks|Jackets|Toys|Puzzles|Games|Markers|Paints|Paper|Notebooks|Pens|Batteries|Speakers|Headphones|Keyboards|Mice|Monitors',
);
const BASE_COLORS = list('Black|White|Red|Blue|Green|Yellow|Pink|Purple|Orange|Brown|Grey|Silver|Gold|Beige|Navy|Teal|Maroon|Olive|Coral|Ivory|Khaki|Turquoise|Lavender|Charcoal|Burgundy|Mint|Tan|Cream|Copper|Bronze');
const COLOR_MODIFIERS = list('Light|Dark|Pale|Deep|Bright|Matte|Metallic|Heather|Neon|Dusty|Royal|Sky');
const BRAND_SUFFIXES = list('| Co|| Labs|| Home|| Gear|| Pro||| Goods|| Outdoors|| Kids');

/** Question phrasings per query template; `{title}` is a product's title, the others names. */
export const AMAZON_QUERY_PHRASINGS = {
  brandCategory: [
    'I am shopping for {category} from {brand}. Which of their products in that category can I choose from?',
    'Show me every {brand} item listed under {category}; I want to compare the options before buying one.',
    'Which products made by {brand} are sold in the {category} category of the store?',
  ],
  brandColor: [
    'Which {brand} products come in {color}? I would like to see all of them before I order.',
    'I want something from {brand} in the color {color}. What are my options right now?',
  ],
  alsoBought: [
    'Customers who bought "{title}" also bought other items. Which of those are in {category}?',
    'What {category} products do people usually buy together with "{title}"?',
  ],
  alsoViewed: [
    'People who looked at "{title}" also viewed which products from {brand}?',
    'Which {brand} items show up among the products viewed alongside "{title}"?',
  ],
} as const;

const MAX_ANSWERS = 20;
const TITLE_WORDS = [6, 20];
const DESCRIPTION = { median: 50, sigma: 0.9, none: 0.1 };
const REVIEW_TEXT = { median: 30, sigma: 0.8 };
const ANSWER_TEXT = { median: 15, sigma: 0.7 };
const REVIEW_COUNT_SIGMA = 1.4;
const QA_COUNT_SIGMA = 1.2;
const MAX_REVIEWS = 2_000;
const MAX_QA = 200;
/** Of the words left after title, description and features, the share that goes to reviews (the rest to Q&A). */
const REVIEW_SHARE = 0.75;

const words = (s: string): number => s.split(' ').length;
const lognormalMean = (sigma: number) => Math.exp((sigma * sigma) / 2);

export async function generateAmazon(run: ShapeRun): Promise<ShapeOutput> {
  const plan = planGraph(AMAZON_SPEC, run.entities, run.edges, run.seed);
  const { types } = plan;
  const vocab = zipfVocabulary(AMAZON_WORDS);
  const functionWords = new Set(FUNCTION_WORDS);
  const contentWord = (rng: Rng): string => {
    let w = vocab.word(rng);
    while (functionWords.has(w)) w = vocab.word(rng);
    return w;
  };

  // Review and Q&A counts: log-normal, their medians chosen so the expected total meets the published tokens per entity.
  const products = Math.max(1, types[PRODUCT]!.count);
  const others = types[BRAND]!.count * 1.5 + types[CATEGORY]!.count * 2.5 + types[COLOR]!.count * 1.7;
  const perProduct = (TOKENS_PER_ENTITY * run.entities - others) / products;
  const fixed = (TITLE_WORDS[0]! + TITLE_WORDS[1]!) / 2 + (1 - DESCRIPTION.none) * DESCRIPTION.median * lognormalMean(DESCRIPTION.sigma) + 30;
  const reviewWords = REVIEW_TEXT.median * lognormalMean(REVIEW_TEXT.sigma) + 5.5;
  const qaWords = 13 + ANSWER_TEXT.median * lognormalMean(ANSWER_TEXT.sigma);
  const left = Math.max(0, perProduct - fixed);
  const reviewMedian = ((REVIEW_SHARE * left) / reviewWords + 0.5) / lognormalMean(REVIEW_COUNT_SIGMA);
  const qaMedian = (((1 - REVIEW_SHARE) * left) / qaWords + 0.5) / lognormalMean(QA_COUNT_SIGMA);

  const wantQueries = run.queries > 0;
  const seedRng = stream(run.seed, 'query-seeds');
  const productSeeds = (count: number) => {
    const out = new Map<number, number[]>();
    for (let i = 0; i < count; i++) out.set(types[PRODUCT]!.start + Math.floor(seedRng() * products), []);
    return out;
  };
  const boughtSeeds = wantQueries ? productSeeds(run.queries) : new Map<number, number[]>();
  const viewedSeeds = wantQueries ? productSeeds(run.queries) : new Map<number, number[]>();
  const titles = new Map<number, string>();
  const names: string[][] = [[], [], [], []];

  const docRng = stream(run.seed, 'documents');
  const taken = [new Set<string>(), new Set<string>(), new Set<string>(), new Set<string>()];
  let tokens = 0;
  const text = (n: number) => {
    tokens += n;
    return vocab.text(docRng, n);
  };
  const phrase = (lo: number, hi: number) => {
    const n = between(docRng, lo, hi);
    tokens += n;
    return capital(vocab.phrase(docRng, n));
  };
  await writeEntities(run.files.entities, plan, (t, _local, id) => {
    let name: string;
    let document: Record<string, unknown>;
    if (t === PRODUCT) {
      name = phrase(TITLE_WORDS[0]!, TITLE_WORDS[1]!);
      document = { price: round(logNormal(docRng, 20, 1), 2) };
      if (docRng() >= DESCRIPTION.none) document.description = text(Math.max(5, Math.round(logNormal(docRng, DESCRIPTION.median, DESCRIPTION.sigma))));
      document.features = Array.from({ length: between(docRng, 0, 6) }, () => phrase(5, 15));
      const reviews = Math.min(MAX_REVIEWS, Math.floor(logNormal(docRng, reviewMedian, REVIEW_COUNT_SIGMA)));
      document.reviews = Array.from({ length: reviews }, () => ({
        rating: Math.min(5, 1 + Math.floor(5 * Math.sqrt(docRng()))),
        summary: phrase(3, 8),
        text: text(Math.max(3, Math.round(logNormal(docRng, REVIEW_TEXT.median, REVIEW_TEXT.sigma)))),
      }));
      const questions = Math.min(MAX_QA, Math.floor(logNormal(docRng, qaMedian, QA_COUNT_SIGMA)));
      document.qa = Array.from({ length: questions }, () => ({
        question: `${phrase(6, 20)}?`,
        answer: text(Math.max(2, Math.round(logNormal(docRng, ANSWER_TEXT.median, ANSWER_TEXT.sigma)))),
      }));
      if (boughtSeeds.has(id) || viewedSeeds.has(id)) titles.set(id, name);
    } else if (t === BRAND) {
      name = uniqueName(() => `${capital(contentWord(docRng))}${pick(docRng, BRAND_SUFFIXES)}`, taken[t]!);
      document = { founded: between(docRng, 1890, 2020) };
    } else if (t === CATEGORY) {
      name = uniqueName(() => `${pick(docRng, AREAS)} ${pick(docRng, ITEMS)}${docRng() < 0.3 ? ` ${capital(contentWord(docRng))}` : ''}`, taken[t]!);
      document = { path: `${pick(docRng, AREAS)} > ${name}` };
    } else {
      name = uniqueName(() => {
        const one = () => `${docRng() < 0.4 ? `${pick(docRng, COLOR_MODIFIERS)} ` : ''}${pick(docRng, BASE_COLORS)}`;
        return docRng() < 0.4 ? `${one()}/${one()}` : one();
      }, taken[t]!);
      document = {};
    }
    if (t !== PRODUCT) tokens += words(name);
    if (wantQueries && t !== PRODUCT) names[t]!.push(name);
    return `${JSON.stringify({ id: String(id), type: types[t]!.name, name, aliases: [], document })}\n`;
  }, (written) => run.progress({ entities: written, edges: 0 }));

  // Every product's brand, categories and colours (flat arrays by product), and the seeds' also-lists.
  const listsOf = (relation: number): OutLists => {
    const offsets = wantQueries ? outListOffsets(plan, relation) : new Int32Array(1);
    return { base: types[PRODUCT]!.start, offsets, targets: new Int32Array(offsets[offsets.length - 1]!) };
  };
  const attributes = new Map([HAS_BRAND, HAS_CATEGORY, HAS_COLOR].map((r) => [r, listsOf(r)]));
  const pass = await writeEdges(run.files.edges, plan, stream(run.seed, 'edges'), (edges) => run.progress({ entities: run.entities, edges }), wantQueries
    ? (source, relation, targets) => {
        const lists = attributes.get(relation);
        if (lists) lists.targets.set(targets, lists.offsets[source - lists.base]!);
        else (relation === ALSO_BUY ? boughtSeeds : viewedSeeds).get(source)?.push(...targets); // also_view otherwise
      }
    : undefined);
  if (pass.written !== run.edges) throw new Error(`internal: wrote ${pass.written} edges instead of ${run.edges}`);

  const out = shapeSummary(plan, pass, tokens);
  if (!wantQueries) return out;
  const brands = attributes.get(HAS_BRAND)!;
  const categories = attributes.get(HAS_CATEGORY)!;
  const colors = attributes.get(HAS_COLOR)!;
  const nameOf = (t: number, entity: number) => names[t]![entity - types[t]!.start]!;

  // Products by brand (the inverse of has_brand), for the brand templates.
  const brandStart = types[BRAND]!.start;
  const byBrand = Array.from({ length: types[BRAND]!.count }, () => [] as number[]);
  for (let p = 0; p < types[PRODUCT]!.count; p++) {
    for (let j = brands.offsets[p]!; j < brands.offsets[p + 1]!; j++) byBrand[brands.targets[j]! - brandStart]!.push(types[PRODUCT]!.start + p);
  }
  const brandSeeds = (count: number) => {
    const out = new Map<number, number[]>();
    for (let i = 0; i < count && byBrand.length > 0; i++) {
      const b = Math.floor(seedRng() * byBrand.length);
      out.set(brandStart + b, byBrand[b]!);
    }
    return out;
  };
  const queryRng = stream(run.seed, 'queries');
  const phrasing = (key: keyof typeof AMAZON_QUERY_PHRASINGS, values: Record<string, string>) => fill(pick(queryRng, AMAZON_QUERY_PHRASINGS[key]), values);
  const queries = takeRoundRobin([
    queue(brandSeeds(run.queries), (brand, pool) => {
      const hit = narrow(pool, categories, queryRng, MAX_ANSWERS);
      return hit && { text: phrasing('brandCategory', { brand: nameOf(BRAND, brand), category: nameOf(CATEGORY, hit.value) }), answers: hit.answers };
    }),
    queue(brandSeeds(run.queries), (brand, pool) => {
      const hit = narrow(pool, colors, queryRng, MAX_ANSWERS);
      return hit && { text: phrasing('brandColor', { brand: nameOf(BRAND, brand), color: nameOf(COLOR, hit.value) }), answers: hit.answers };
    }),
    queue(boughtSeeds, (product, pool) => {
      const hit = narrow(pool, categories, queryRng, MAX_ANSWERS);
      return hit && { text: phrasing('alsoBought', { title: titles.get(product)!, category: nameOf(CATEGORY, hit.value) }), answers: hit.answers };
    }),
    queue(viewedSeeds, (product, pool) => {
      const hit = narrow(pool, brands, queryRng, MAX_ANSWERS);
      return hit && { text: phrasing('alsoViewed', { title: titles.get(product)!, brand: nameOf(BRAND, hit.value) }), answers: hit.answers };
    }),
  ], run.queries);
  return { ...out, queries: await writeStarkQueries(run.outDir, queries, run.seed) };
}
