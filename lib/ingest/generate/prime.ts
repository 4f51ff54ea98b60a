import { allocate } from './allocate';
import { targetSampler, writeEdges, writeEntities, type GraphPlan, type TargetSampler } from './graph';
import { outListOffsets } from './plan';
import { plural, primeQueries } from './prime-queries';
import { between, capital, list, normal, pick, round, stream, type Rng } from './random';
import { DEFAULT_SEED, shapeSummary, type ShapeOutput, type ShapeRun } from './shape';
import { writeStarkQueries, type OutLists } from './stark-queries';

/**
 * The Prime shape (the default): ten biomedical-style entity types with skewed sizes, eighteen typed
 * relations, heavy-tailed in-degrees (a few hubs collect a large share of the edges) and long,
 * varied documents. Everything is invented from word lists; the same seed yields the same bytes.
 */

// ---------------------------------------------------------------------------------------------
// Schema

interface TypeSpec {
  name: string;
  /** Relative size. */
  weight: number;
  style: Style;
}

interface RelationSpec {
  name: string;
  source: number;
  target: number;
  /** Relative share of the edges. */
  weight: number;
}

/** Built-in types, most important first (a smaller `types` keeps the first ones). Sizes follow STaRK-Prime's proportions. */
const BUILTIN_TYPES: readonly [string, number][] = [
  ['gene/protein', 27_700],
  ['disease', 17_100],
  ['drug', 8_000],
  ['phenotype', 15_300],
  ['anatomy', 14_000],
  ['biological_process', 28_600],
  ['molecular_function', 11_200],
  ['cellular_component', 4_200],
  ['pathway', 2_500],
  ['exposure', 800],
];

/**
 * Built-in relations with their (source type, target type) signature and share of the edges, most
 * important first. Most of them point at genes/proteins, so popular genes become hubs.
 */
const BUILTIN_RELATIONS: readonly [string, string, string, number][] = [
  ['interacts_with', 'gene/protein', 'gene/protein', 9],
  ['associated_with_gene', 'disease', 'gene/protein', 5],
  ['targets', 'drug', 'gene/protein', 2],
  ['indicated_for', 'drug', 'disease', 1],
  ['presents_phenotype', 'disease', 'phenotype', 4],
  ['expresses', 'anatomy', 'gene/protein', 28],
  ['involves_gene', 'biological_process', 'gene/protein', 7],
  ['synergizes_with', 'drug', 'drug', 15],
  ['has_side_effect', 'drug', 'phenotype', 4],
  ['phenotype_of_gene', 'phenotype', 'gene/protein', 4],
  ['performed_by', 'molecular_function', 'gene/protein', 4],
  ['contains_gene_product', 'cellular_component', 'gene/protein', 3],
  ['includes_gene', 'pathway', 'gene/protein', 2],
  ['contraindicated_for', 'drug', 'disease', 2],
  ['lacks_expression', 'anatomy', 'gene/protein', 4],
  ['metabolized_by', 'drug', 'gene/protein', 1],
  ['subtype_of', 'disease', 'disease', 1],
  ['linked_to', 'exposure', 'disease', 0.5],
];

export const PRIME_TYPE_COUNT = BUILTIN_TYPES.length;
export const PRIME_RELATION_COUNT = BUILTIN_RELATIONS.length;

interface Schema {
  types: TypeSpec[];
  relations: RelationSpec[];
  /** Entities per type; a type's entities are numbered contiguously from `start`. */
  counts: number[];
  start: number[];
  /** Maximum edges per relation: source x target pairs without self loops. */
  capacity: number[];
}

function planSchema(entities: number, typeCount: number, relationCount: number, seed: number): Schema {
  const rng = stream(seed, 'schema');
  const types: TypeSpec[] = [];
  for (let i = 0; i < typeCount; i++) {
    const builtin = BUILTIN_TYPES[i];
    if (builtin) types.push({ name: builtin[0], weight: builtin[1], style: STYLES[builtin[0]]! });
    else types.push({ name: `entity_type_${i + 1}`, weight: 2_000 + Math.floor(rng() * 12_000), style: genericStyle(`entity_type_${i + 1}`) });
  }
  const typeIndex = new Map(types.map((t, i) => [t.name, i]));
  const relations: RelationSpec[] = [];
  for (const [name, s, t, weight] of BUILTIN_RELATIONS) {
    const source = typeIndex.get(s);
    const target = typeIndex.get(t);
    if (relations.length < relationCount && source !== undefined && target !== undefined) relations.push({ name, source, target, weight });
  }
  const meanWeight = BUILTIN_RELATIONS.reduce((sum, r) => sum + r[3], 0) / BUILTIN_RELATIONS.length;
  while (relations.length < relationCount) {
    const n = relations.length + 1;
    relations.push({ name: `relation_${n}`, source: Math.floor(rng() * typeCount), target: Math.floor(rng() * typeCount), weight: meanWeight });
  }

  // At least one entity per type when there are enough; the rest in proportion to the type sizes.
  let counts: number[];
  if (entities <= typeCount) {
    counts = types.map((_, i) => (i < entities ? 1 : 0));
  } else {
    const rest = allocate(entities - typeCount, types.map((t) => t.weight), types.map(() => Infinity));
    counts = types.map((_, i) => 1 + rest[i]!);
  }
  const start: number[] = [];
  let at = 0;
  for (const c of counts) {
    start.push(at);
    at += c;
  }
  const capacity = relations.map((r) => counts[r.source]! * (counts[r.target]! - (r.source === r.target ? 1 : 0)));
  return { types, relations, counts, start, capacity };
}

/** The entity types and typed relations a generated knowledge base of this size has. */
export function describeSchema(entities: number, opts: { types?: number; relations?: number; seed?: number } = {}): {
  entityTypes: Record<string, number>;
  relations: { name: string; source: string; target: string; capacity: number }[];
} {
  const schema = planSchema(entities, opts.types ?? BUILTIN_TYPES.length, opts.relations ?? BUILTIN_RELATIONS.length, opts.seed ?? DEFAULT_SEED);
  return {
    entityTypes: Object.fromEntries(schema.types.map((t, i) => [t.name, schema.counts[i]!])),
    relations: schema.relations.map((r, i) => ({ name: r.name, source: schema.types[r.source]!.name, target: schema.types[r.target]!.name, capacity: schema.capacity[i]! })),
  };
}

/** The most edges a knowledge base of this size can hold (no duplicates, no self loops). */
export function edgeCapacity(entities: number, opts: { types?: number; relations?: number; seed?: number } = {}): number {
  return describeSchema(entities, opts).relations.reduce((sum, r) => sum + r.capacity, 0);
}

/** Target popularity: Zipf-Mandelbrot (rank + ZIPF_Q)^-ZIPF_S, steep, so a few genes become hubs. */
const ZIPF_S = 1.6;
const ZIPF_Q = 4;

/** Writes a Prime-shaped knowledge base of exactly `entities` entities and `edges` edges. */
export async function generatePrime(run: ShapeRun & { types: number; relations: number }): Promise<ShapeOutput> {
  const { entities, edges, seed, files } = run;
  const schema = planSchema(entities, run.types, run.relations, seed);
  const maxEdges = schema.capacity.reduce((a, b) => a + b, 0);
  if (edges > maxEdges) {
    throw new Error(`${edges} edges cannot be generated over ${entities} entities: at most ${maxEdges} distinct edges fit (no duplicates, no self loops)`);
  }
  const perRelation = allocate(edges, schema.relations.map((r) => r.weight), schema.capacity);

  const docRng = stream(seed, 'documents');
  let names = new Set<string>();
  const entityNames: string[] = run.queries > 0 ? new Array<string>(entities) : [];
  let tokens = 0;
  await writeEntities(files.entities, { types: schema.types.map((t, i) => ({ name: t.name, count: schema.counts[i]!, start: schema.start[i]! })) }, (t, local, id) => {
    if (local === 0) names = new Set<string>();
    const type = schema.types[t]!;
    const entity = makeEntity(docRng, type, names);
    if (run.queries > 0) entityNames[id] = entity.name;
    tokens += wordCount(entity.name) + entity.aliases.reduce((sum, a) => sum + wordCount(a), 0) + textWords(entity.document);
    return `${JSON.stringify({ id: String(id), type: type.name, name: entity.name, aliases: entity.aliases, document: entity.document })}\n`;
  }, (written) => run.progress({ entities: written, edges: 0 }));

  // Out-degrees: per relation, the relation's total split over its source entities (log-normal
  // weights, capped at the number of possible targets).
  const degreeRng = stream(seed, 'degrees');
  const outDegrees: Int32Array[] = schema.relations.map((r, ri) => {
    const n = schema.counts[r.source]!;
    const weights = new Float64Array(n);
    for (let i = 0; i < n; i++) weights[i] = Math.exp(0.6 * normal(degreeRng));
    const cap = schema.counts[r.target]! - (r.source === r.target ? 1 : 0);
    return Int32Array.from(allocate(perRelation[ri]!, weights, new Float64Array(n).fill(cap)));
  });
  const samplerRng = stream(seed, 'popularity');
  const byType = new Map<number, TargetSampler>();
  for (const r of schema.relations) {
    if (!byType.has(r.target) && schema.counts[r.target]! > 0) byType.set(r.target, targetSampler(schema.start[r.target]!, schema.counts[r.target]!, samplerRng, ZIPF_S, ZIPF_Q));
  }
  const plan: GraphPlan = {
    types: schema.types.map((t, i) => ({ name: t.name, count: schema.counts[i]!, start: schema.start[i]! })),
    relations: schema.relations,
    outDegrees,
    samplers: schema.relations.map((r) => byType.get(r.target)),
  };
  // With queries: every relation's out-lists as flat arrays (Prime is small: 32 MB at its published size).
  const lists: OutLists[] = run.queries > 0
    ? plan.relations.map((r, ri) => {
        const offsets = outListOffsets(plan, ri);
        return { base: plan.types[r.source]!.start, offsets, targets: new Int32Array(offsets[offsets.length - 1]!) };
      })
    : [];
  const pass = await writeEdges(files.edges, plan, stream(seed, 'edges'), (written) => run.progress({ entities, edges: written }), run.queries > 0
    ? (source, relation, targets) => lists[relation]!.targets.set(targets, lists[relation]!.offsets[source - lists[relation]!.base]!)
    : undefined);
  if (pass.written !== edges) throw new Error(`internal: wrote ${pass.written} edges instead of ${edges}`);
  const out = shapeSummary(plan, pass, tokens);
  if (run.queries === 0) return out;
  const nouns = schema.types.map((t) => plural(t.style.noun));
  const queries = primeQueries(plan, lists, entityNames, nouns, run.queries, stream(seed, 'queries'));
  return { ...out, queries: await writeStarkQueries(run.outDir, queries, seed) };
}

/** Words in a text: runs of non-space characters. */
function wordCount(text: string): number {
  const words = text.match(/\S+/g);
  return words ? words.length : 0;
}

/** Words in a document's strings (nested lists and objects included). */
function textWords(value: unknown): number {
  if (typeof value === 'string') return wordCount(value);
  if (Array.isArray(value)) return value.reduce((sum: number, v) => sum + textWords(v), 0);
  if (value && typeof value === 'object') return Object.values(value).reduce((sum: number, v) => sum + textWords(v), 0);
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Documents: invented names and text from word lists and sentence templates.

const ORGANS = list('liver|kidney|lung|heart|brain|skin|skeletal muscle|bone|retina|pancreas|spleen|thyroid|small intestine|stomach|colon|bladder|ovary|testis|placenta|cartilage|tendon|cornea|inner ear|adrenal gland|lymph node|bone marrow|spinal cord|cerebellum|hippocampus|aorta|esophagus|prostate|uterus|tongue|thymus|gallbladder|pituitary gland|salivary gland|trachea|peripheral nerve');
const SUBSTANCES = list('glucose|lipid|cholesterol|calcium|iron|zinc|copper|sodium|potassium|amino acid|nucleotide|fatty acid|steroid|peptide|glycogen|heme|retinol|folate|cobalamin|urea|lactate|pyruvate|acetyl group|sphingolipid|phosphoinositide|purine|pyrimidine|collagen|keratin|mucin|chloride|magnesium|phosphate|sulfate|bicarbonate|ketone body|bile acid|prostaglandin|histamine|serotonin');
const PROCESSES = list('signaling|transport|metabolism|biosynthesis|degradation|proliferation|differentiation|apoptosis|migration|adhesion|secretion|repair|replication|transcription|translation|folding|splicing|autophagy|homeostasis|uptake|clearance|storage|activation|assembly|trafficking');
const QUALIFIERS = list('conserved|putative|regulatory|structural|transmembrane|cytosolic|nuclear|mitochondrial|secreted|inducible|constitutive|tissue-restricted|ubiquitous|low-abundance|highly expressed|dosage-sensitive|stress-responsive|circadian|developmental|redundant');
const ENZYMES = list('kinase|phosphatase|receptor|transporter|channel|ligase|protease|transferase|oxidase|reductase|synthase|hydrolase|isomerase|transcription factor|adaptor protein|scaffold protein|chaperone|exchange factor|binding protein|dehydrogenase');
const METHODS = list('cohort studies|case reports|knockout models|cell-line assays|genome-wide association scans|expression profiling|imaging studies|biochemical assays|randomized trials|registry data|structural studies|organoid experiments|single-cell sequencing|proteomic screens|twin studies');
const CONDITIONS = list('fibrosis|dystrophy|neuropathy|cardiomyopathy|carcinoma|syndrome|deficiency|insufficiency|dysplasia|inflammation|sclerosis|atrophy|hyperplasia|stenosis|anemia|myopathy|encephalopathy|nephropathy|retinopathy|disorder|degeneration|malformation|adenoma|lymphoma|sarcoma');
const DISEASE_ADJ = list('hereditary|familial|juvenile|adult-onset|early-onset|progressive|chronic|acute|recurrent|congenital|acquired|idiopathic|autoimmune|infantile|late-onset|systemic|localized|atypical|benign|severe');
const DIRECTIONS = list('Abnormal|Increased|Decreased|Absent|Irregular|Delayed|Premature|Enlarged|Reduced|Elevated|Asymmetric|Progressive|Episodic|Impaired|Excessive');
const PROPERTIES = list('size|morphology|density|thickness|pigmentation|function|volume|tone|development|vascularization|enzyme activity|cell count|response|structure|reflexes|conduction|elasticity|mineralization|growth|innervation');
const POSITIONS = list('anterior|posterior|left|right|upper|lower|inner|outer|medial|lateral|proximal|distal|superficial|deep|central|peripheral|dorsal|ventral');
const TISSUES = list('epithelium|stroma|mucosa|cortex|medulla|membrane|lobe|segment|duct|gland|layer|vessel|nerve|tissue|compartment|capsule|sinus|crypt|fascicle|zone');
const MODIFIERS = list('regulation|positive regulation|negative regulation|initiation|termination|maintenance|establishment|modulation|cellular response to|detection of');
const COMPONENTS = list('membrane|complex|vesicle|granule|lumen|envelope|filament|junction|body|matrix|pore|cilium|spindle|lamina|raft|cortex|network|particle|cisterna|projection');
const LOCATIONS = list('outer|inner|apical|basolateral|perinuclear|synaptic|endosomal|lysosomal|peroxisomal|nuclear|cytoplasmic|mitochondrial|axonal|dendritic|luminal|plasma|vacuolar|microtubule-associated|actin-based|chromatin-associated');
const AGENTS = list('solvent vapour|particulate matter|heavy metal dust|organophosphate residue|organic dust|combustion fumes|industrial dye|plasticizer|flame retardant|mold spores|radon gas|silica dust|diesel exhaust|noise|ultraviolet light|night-shift work|secondhand smoke|arsenic-contaminated water|lead paint|fertilizer runoff');
const SYLLABLES = list('va|lo|ri|ta|ze|mo|xa|pi|ne|ca|do|fe|gu|li|so|tra|bre|cle|flu|pra|ste|qui|ro|me|na|vo|ke|du|zi|ber');
const STEMS = list('mab|nib|pril|olol|statin|azole|cillin|vir|tide|parin|sartan|dronate|lukast|setron|triptan|oxacin|mycin|profen|caine|dipine|zepam|tinib|glitazone|fibrate');
const ROUTES = list('oral|intravenous|subcutaneous|topical|inhaled|intramuscular|transdermal');
const INHERITANCE = list('autosomal dominant|autosomal recessive|X-linked|mitochondrial|multifactorial|sporadic');
const SYSTEMS = list('nervous|cardiovascular|respiratory|digestive|urinary|reproductive|endocrine|immune|musculoskeletal|integumentary|sensory|lymphatic');
const COMPARTMENTS = list('cytosol|nucleus|mitochondrion|endoplasmic reticulum|Golgi apparatus|plasma membrane|extracellular space|lysosome|peroxisome');
const FREQUENCIES = list('very rare|rare|occasional|frequent|very frequent|obligate');
const SECTIONS = list('Overview|Mechanism|Observations|Clinical notes|Experimental history|Variability|Open questions|Related findings|Methods summary|Curation notes');
const WORDS = list('alpha|beta|gamma|delta|sigma|omega|nova|terra|lumen|vita|axis|core|flux|helix|prism|sigil|orbit|pulse|quanta|vector');

interface Style {
  /** How the text refers to this kind of entity. */
  noun: string;
  name(rng: Rng): string;
  synonyms(rng: Rng, name: string): string[];
  lead(rng: Rng, name: string): string;
  fields(rng: Rng): Record<string, unknown>;
}

function symbol(rng: Rng): string {
  let s = '';
  const letters = between(rng, 2, 4);
  for (let i = 0; i < letters; i++) s += String.fromCharCode(65 + Math.floor(rng() * 26));
  s += String(between(rng, 1, 99));
  if (rng() < 0.2) s += String.fromCharCode(65 + Math.floor(rng() * 6));
  return s;
}

function drugName(rng: Rng): string {
  let s = '';
  const n = between(rng, 2, 3);
  for (let i = 0; i < n; i++) s += pick(rng, SYLLABLES);
  return capital(s + pick(rng, STEMS));
}

const STYLES: Record<string, Style> = {
  'gene/protein': {
    noun: 'gene',
    name: symbol,
    synonyms: (rng) => {
      const out = [`${pick(rng, SUBSTANCES)} ${pick(rng, ENZYMES)} ${between(rng, 1, 40)}`];
      if (rng() < 0.6) out.push(symbol(rng));
      if (rng() < 0.3) out.push(symbol(rng));
      return out;
    },
    lead: (rng, name) => `${name} encodes a ${pick(rng, QUALIFIERS)} ${pick(rng, ENZYMES)} involved in ${pick(rng, SUBSTANCES)} ${pick(rng, PROCESSES)}.`,
    fields: (rng) => ({
      chromosome: rng() < 0.05 ? pick(rng, ['X', 'Y', 'MT']) : String(between(rng, 1, 22)),
      length_bp: between(rng, 800, 2_400_000),
      exon_count: between(rng, 1, 80),
      gc_content: round(0.35 + rng() * 0.3, 3),
      protein_length_aa: between(rng, 50, 5_000),
    }),
  },
  disease: {
    noun: 'disease',
    name: (rng) => `${pick(rng, DISEASE_ADJ)} ${pick(rng, ORGANS)} ${pick(rng, CONDITIONS)}${rng() < 0.3 ? ` type ${between(rng, 1, 12)}` : ''}`,
    synonyms: (rng) => {
      const out: string[] = [];
      const n = between(rng, 0, 3);
      for (let i = 0; i < n; i++) out.push(`${pick(rng, ORGANS)} ${pick(rng, CONDITIONS)} ${pick(rng, ['syndrome', 'complex', 'variant', 'form'])}`);
      return out;
    },
    lead: (rng, name) => `${capital(name)} is a ${pick(rng, DISEASE_ADJ)} condition that mainly affects the ${pick(rng, ORGANS)} and, less often, the ${pick(rng, ORGANS)}.`,
    fields: (rng) => ({
      prevalence_per_100k: round(Math.exp(rng() * 9 - 4), 3),
      typical_onset_age: between(rng, 0, 80),
      inheritance: pick(rng, INHERITANCE),
      mortality_rate: round(rng() * 0.3, 4),
    }),
  },
  drug: {
    noun: 'compound',
    name: drugName,
    synonyms: (rng) => {
      const out = [`SKB-${between(rng, 1000, 99999)}`];
      if (rng() < 0.5) out.push(drugName(rng));
      return out;
    },
    lead: (rng, name) => `${name} is a ${pick(rng, ['small-molecule', 'biologic', 'peptide', 'antibody', 'prodrug'])} ${pick(rng, ENZYMES)} ${pick(rng, ['inhibitor', 'agonist', 'antagonist', 'modulator', 'activator'])} given by the ${pick(rng, ROUTES)} route.`,
    fields: (rng) => ({
      molecular_weight: round(120 + rng() * 1400, 2),
      half_life_hours: round(Math.exp(rng() * 5), 1),
      logp: round(rng() * 8 - 2, 2),
      approval_year: rng() < 0.6 ? between(rng, 1950, 2024) : null,
      route: pick(rng, ROUTES),
      state: pick(rng, ['solid', 'liquid', 'gas']),
    }),
  },
  phenotype: {
    noun: 'phenotypic feature',
    name: (rng) => `${pick(rng, DIRECTIONS)} ${pick(rng, ORGANS)} ${pick(rng, PROPERTIES)}`,
    synonyms: (rng) => (rng() < 0.5 ? [`${pick(rng, DIRECTIONS).toLowerCase()} ${pick(rng, PROPERTIES)} of the ${pick(rng, ORGANS)}`] : []),
    lead: (rng, name) => `${name} describes a finding in which the ${pick(rng, PROPERTIES)} of the ${pick(rng, ORGANS)} departs from the expected range.`,
    fields: (rng) => ({
      frequency: pick(rng, FREQUENCIES),
      onset: pick(rng, ['antenatal', 'neonatal', 'infantile', 'childhood', 'juvenile', 'adult', 'late']),
      annotation_count: between(rng, 0, 4000),
    }),
  },
  anatomy: {
    noun: 'anatomical structure',
    name: (rng) => `${pick(rng, POSITIONS)} ${pick(rng, TISSUES)} of ${pick(rng, ORGANS)}`,
    synonyms: (rng) => (rng() < 0.4 ? [`${pick(rng, ORGANS)} ${pick(rng, TISSUES)}`] : []),
    lead: (rng, name) => `The ${name} is part of the ${pick(rng, SYSTEMS)} system and borders the ${pick(rng, POSITIONS)} ${pick(rng, TISSUES)}.`,
    fields: (rng) => ({
      system: pick(rng, SYSTEMS),
      hierarchy_depth: between(rng, 1, 14),
      cell_types: between(rng, 1, 60),
    }),
  },
  biological_process: {
    noun: 'biological process',
    name: (rng) => `${pick(rng, MODIFIERS)} ${pick(rng, SUBSTANCES)} ${pick(rng, PROCESSES)}${rng() < 0.3 ? ` in ${pick(rng, ORGANS)}` : ''}`,
    synonyms: (rng) => (rng() < 0.4 ? [`${pick(rng, SUBSTANCES)} ${pick(rng, PROCESSES)} ${pick(rng, ['control', 'pathway', 'program'])}`] : []),
    lead: (rng, name) => `${capital(name)} is a biological process that ${pick(rng, ['controls', 'tunes', 'limits', 'sustains', 'triggers'])} ${pick(rng, SUBSTANCES)} ${pick(rng, PROCESSES)}.`,
    fields: (rng) => ({ hierarchy_depth: between(rng, 1, 18), annotation_count: between(rng, 1, 9000), evidence_code: pick(rng, ['EXP', 'IDA', 'IMP', 'IGI', 'IEA', 'ISS']) }),
  },
  molecular_function: {
    noun: 'molecular function',
    name: (rng) => (rng() < 0.5 ? `${pick(rng, SUBSTANCES)} ${pick(rng, ENZYMES)} activity` : `${pick(rng, SUBSTANCES)} ${pick(rng, ['binding', 'sensing', 'carrier activity', 'exchange activity'])}`),
    synonyms: (rng) => (rng() < 0.3 ? [`${pick(rng, SUBSTANCES)} ${pick(rng, ENZYMES)}`] : []),
    lead: (rng, name) => `${capital(name)} is a molecular function carried out in the ${pick(rng, COMPARTMENTS)}.`,
    fields: (rng) => ({ hierarchy_depth: between(rng, 1, 15), annotation_count: between(rng, 1, 6000), ec_class: between(rng, 1, 7) }),
  },
  cellular_component: {
    noun: 'cellular component',
    name: (rng) => `${pick(rng, LOCATIONS)} ${pick(rng, COMPONENTS)}`,
    synonyms: (rng) => (rng() < 0.3 ? [`${pick(rng, COMPONENTS)} of the ${pick(rng, COMPARTMENTS)}`] : []),
    lead: (rng, name) => `The ${name} is a cellular component found near the ${pick(rng, COMPARTMENTS)}.`,
    fields: (rng) => ({ hierarchy_depth: between(rng, 1, 12), diameter_nm: round(5 + rng() * 2000, 1), compartment: pick(rng, COMPARTMENTS) }),
  },
  pathway: {
    noun: 'pathway',
    name: (rng) => (rng() < 0.6 ? `${capital(pick(rng, SUBSTANCES))} ${pick(rng, PROCESSES)} pathway` : `${capital(pick(rng, ENZYMES))} ${pick(rng, ['signaling cascade', 'relay', 'feedback loop', 'network'])}`),
    synonyms: (rng) => (rng() < 0.3 ? [`${pick(rng, SUBSTANCES)} ${pick(rng, PROCESSES)}`] : []),
    lead: (rng, name) => `The ${name} links ${pick(rng, SUBSTANCES)} ${pick(rng, PROCESSES)} to ${pick(rng, SUBSTANCES)} ${pick(rng, PROCESSES)}.`,
    fields: (rng) => ({ step_count: between(rng, 3, 120), compartment: pick(rng, COMPARTMENTS), curated: rng() < 0.7 }),
  },
  exposure: {
    noun: 'exposure',
    name: (rng) => `${pick(rng, ['chronic', 'acute', 'occupational', 'prenatal', 'residential', 'dietary'])} ${pick(rng, AGENTS)} exposure`,
    synonyms: (rng) => (rng() < 0.4 ? [`${pick(rng, AGENTS)} contact`] : []),
    lead: (rng, name) => `${capital(name)} is an environmental exposure measured mostly in ${pick(rng, ['urban', 'rural', 'industrial', 'coastal'])} populations.`,
    fields: (rng) => ({ threshold_ppm: round(Math.exp(rng() * 10 - 5), 4), route: pick(rng, ['inhalation', 'ingestion', 'dermal', 'mixed']), studies: between(rng, 1, 300) }),
  },
};

function genericStyle(typeName: string): Style {
  return {
    noun: typeName.replace(/_/g, ' '),
    name: (rng) => `${capital(pick(rng, WORDS))} ${pick(rng, WORDS)} ${between(rng, 1, 999)}`,
    synonyms: (rng) => (rng() < 0.3 ? [`${pick(rng, WORDS)}-${between(rng, 1, 9999)}`] : []),
    lead: (rng, name) => `${name} is a ${pick(rng, QUALIFIERS)} ${typeName.replace(/_/g, ' ')}.`,
    fields: (rng) => ({ rank: between(rng, 1, 100_000), weight: round(rng() * 100, 2) }),
  };
}

const SENTENCES: readonly ((rng: Rng, name: string, noun: string) => string)[] = [
  (rng) => `It has been described in ${between(rng, 2, 400)} independent reports, mostly from ${pick(rng, METHODS)} and ${pick(rng, METHODS)}.`,
  (rng, name) => `Changes affecting ${name} are associated with ${pick(rng, DISEASE_ADJ)} ${pick(rng, ORGANS)} ${pick(rng, CONDITIONS)}.`,
  (rng) => `Its activity depends on ${pick(rng, SUBSTANCES)} levels and on ${pick(rng, SUBSTANCES)} ${pick(rng, PROCESSES)} in the ${pick(rng, ORGANS)}.`,
  (rng, _name, noun) => `Compared with related ${noun} entries, it shows ${pick(rng, ['stronger', 'weaker', 'broader', 'narrower', 'more variable'])} effects on ${pick(rng, PROCESSES)}.`,
  (rng) => `Measurements range from ${round(rng() * 10, 2)} to ${round(10 + rng() * 90, 2)} ${pick(rng, ['mg/L', 'units per gram', 'percent', 'nmol', 'fold change'])} across ${between(rng, 2, 60)} sampled groups.`,
  (rng) => `Evidence is ${pick(rng, ['strongest', 'most consistent', 'weakest', 'still debated'])} in the ${pick(rng, ORGANS)}, where ${pick(rng, QUALIFIERS)} ${pick(rng, ENZYMES)} activity is ${pick(rng, ['high', 'low', 'variable', 'tightly regulated'])}.`,
  (rng, name) => `${name} was first characterised in ${between(rng, 1890, 2023)} and reclassified ${between(rng, 1, 6)} times since.`,
  (rng) => `Loss of function leads to ${pick(rng, DIRECTIONS).toLowerCase()} ${pick(rng, PROPERTIES)} of the ${pick(rng, ORGANS)} in ${between(rng, 3, 95)} percent of observed cases.`,
  (rng) => `Interactions with ${pick(rng, SUBSTANCES)} ${pick(rng, ENZYMES)}s have been proposed but not confirmed by ${pick(rng, METHODS)}.`,
  (rng) => `It is listed under ${pick(rng, SYSTEMS)} system topics and cross-referenced with ${between(rng, 1, 30)} curated sets.`,
  (rng) => `Seasonal and age-related variation is ${pick(rng, ['negligible', 'modest', 'pronounced', 'unknown'])}, with a peak around age ${between(rng, 1, 90)}.`,
  (rng, _name, noun) => `As a ${noun}, it is often studied together with ${pick(rng, SUBSTANCES)} ${pick(rng, PROCESSES)} and ${pick(rng, PROCESSES)}.`,
  (rng) => `Reported effect sizes have an odds ratio of ${round(0.5 + rng() * 4, 2)} (95% interval ${round(0.3 + rng() * 0.5, 2)} to ${round(2 + rng() * 6, 2)}).`,
  (rng) => `Annotation quality is rated ${pick(rng, ['gold', 'silver', 'bronze', 'provisional'])} after review of ${pick(rng, METHODS)}.`,
];

function paragraph(rng: Rng, name: string, noun: string, sentences: number): string {
  const out: string[] = [];
  for (let i = 0; i < sentences; i++) out.push(pick(rng, SENTENCES)(rng, name, noun));
  return out.join(' ');
}

function uniqueName(rng: Rng, style: Style, names: Set<string>): string {
  let name = style.name(rng);
  for (let attempt = 0; attempt < 6 && names.has(name); attempt++) name = style.name(rng);
  if (names.has(name)) {
    const base = name;
    let n = 2;
    do name = `${base} ${n++}`;
    while (names.has(name));
  }
  names.add(name);
  return name;
}

function makeEntity(rng: Rng, type: TypeSpec, names: Set<string>): { name: string; aliases: string[]; document: Record<string, unknown> } {
  const style = type.style;
  const name = uniqueName(rng, style, names);
  const synonyms = style.synonyms(rng, name).filter((s) => s !== name);
  const description = `${style.lead(rng, name)} ${paragraph(rng, name, style.noun, between(rng, 2, 7))}`;
  const document: Record<string, unknown> = {
    description,
    synonyms,
    ...style.fields(rng),
    confidence: round(rng(), 3),
    evidence_count: Math.floor(Math.exp(rng() * 8)),
    references: Array.from({ length: between(rng, 0, 4) }, () => `REF:${between(rng, 100000, 9999999)}`),
  };
  if (rng() < 0.35) document.notes = paragraph(rng, name, style.noun, between(rng, 1, 3));
  if (rng() < 0.03) {
    // A few entities carry long text: several KB in sections.
    const sections: string[] = [];
    const count = between(rng, 4, 9);
    for (let i = 0; i < count; i++) sections.push(`${pick(rng, SECTIONS)}\n${paragraph(rng, name, style.noun, between(rng, 6, 14))}`);
    document.full_text = sections.join('\n\n');
  }
  return { name, aliases: synonyms, document };
}
