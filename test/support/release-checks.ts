import crypto from 'node:crypto';
import { parquetReadObjects } from 'hyparquet';
import { parse } from 'yaml';

/**
 * Checks of a release's Hugging Face folder written from the specifications, not from the code that writes it:
 * each returns the problems found (empty when the folder is as the specification requires), so both vitest
 * and Playwright tests can assert on them.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const many = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const nonEmptyText = (v: unknown) => typeof v === 'string' && v.trim() !== '';
const isUrl = (v: unknown) => typeof v === 'string' && /^https?:\/\/[^\s]+$/.test(v);

/** The Croissant RAI vocabulary's properties (croissant_rai.ttl): anything else under `rai:` is a misspelling. */
const RAI_PROPERTIES = new Set([
  'dataCollection', 'dataCollectionType', 'dataCollectionMissingData', 'dataCollectionRawData', 'dataCollectionTimeframe',
  'dataPreprocessingProtocol', 'dataImputationProtocol', 'dataManipulationProtocol', 'dataReleaseMaintenancePlan',
  'personalSensitiveInformation', 'dataAnnotationProtocol', 'dataAnnotationPlatform', 'dataAnnotationAnalysis',
  'annotationsPerItem', 'annotatorDemographics', 'machineAnnotationTools', 'dataSocialImpact', 'dataBiases',
  'dataLimitations', 'dataUseCases',
]);

/** The Croissant 1.1 specification's requirements on a dataset description ("Required", "Resources", "RecordSets"). */
export function croissantProblems(doc: unknown): string[] {
  const problems: string[] = [];
  const need = (ok: boolean, what: string) => { if (!ok) problems.push(what); };
  if (!isObject(doc)) return ['the document is not a JSON object'];
  const context = doc['@context'];
  need(isObject(context), '@context: expected an object');
  if (isObject(context)) {
    need(context['@vocab'] === 'http://schema.org/', '@context.@vocab: expected http://schema.org/');
    need(context.cr === 'http://mlcommons.org/croissant/', '@context.cr: expected http://mlcommons.org/croissant/');
    need(context.rai === 'http://mlcommons.org/croissant/RAI/', '@context.rai: expected http://mlcommons.org/croissant/RAI/');
    need(context.conformsTo === 'dct:conformsTo' && context.dct === 'http://purl.org/dc/terms/', '@context: conformsTo must map to dct:conformsTo');
    for (const term of ['citeAs', 'field', 'fileObject', 'recordSet', 'source', 'extract', 'column', 'key', 'isArray']) need(term in context, `@context: no term ${term}`);
  }
  need(doc['@type'] === 'sc:Dataset', '@type: expected sc:Dataset');
  need(many(doc.conformsTo).includes('http://mlcommons.org/croissant/1.1'), 'conformsTo: must include http://mlcommons.org/croissant/1.1');
  for (const p of ['name', 'description']) need(nonEmptyText(doc[p]), `${p}: expected one non-empty text`);
  need(isUrl(doc.url), 'url: expected one absolute URL');
  const licences = many(doc.license);
  need(licences.length > 0 && licences.every((l) => isUrl(l) || (isObject(l) && l['@type'] === 'sc:CreativeWork' && nonEmptyText(l.name))), 'license: expected URLs or sc:CreativeWork objects');
  const creators = many(doc.creator);
  need(creators.length > 0 && creators.every((c) => isObject(c) && ['sc:Person', 'sc:Organization'].includes(c['@type'] as string) && nonEmptyText(c.name)), 'creator: expected sc:Person or sc:Organization objects with a name');
  need(typeof doc.datePublished === 'string' && !Number.isNaN(Date.parse(doc.datePublished)) && /^\d{4}-\d{2}-\d{2}/.test(doc.datePublished), 'datePublished: expected an ISO 8601 date');
  need(typeof doc.version === 'string' && /^\d+\.\d+\.\d+$/.test(doc.version), 'version: expected MAJOR.MINOR.PATCH');
  need(nonEmptyText(doc.citeAs), 'citeAs: expected text');
  for (const key of Object.keys(doc).filter((k) => k.startsWith('rai:'))) {
    need(RAI_PROPERTIES.has(key.slice(4)), `${key}: not a property of the RAI vocabulary`);
    need(many(doc[key]).length > 0 && many(doc[key]).every(nonEmptyText), `${key}: expected text`);
  }

  const ids = new Set<string>();
  const defineId = (id: unknown, where: string) => {
    if (!nonEmptyText(id)) { problems.push(`${where}: no @id`); return; }
    need(!ids.has(id as string), `${where}: @id ${String(id)} is not unique`);
    ids.add(id as string);
  };
  const distribution = many(doc.distribution);
  need(distribution.length > 0, 'distribution: expected FileObjects or FileSets');
  const fileIds = new Set<string>();
  distribution.forEach((f, i) => {
    const where = `distribution[${i}]`;
    if (!isObject(f)) { problems.push(`${where}: expected an object`); return; }
    need(f['@type'] === 'cr:FileObject' || f['@type'] === 'cr:FileSet', `${where}: @type must be cr:FileObject or cr:FileSet`);
    defineId(f['@id'], where);
    fileIds.add(f['@id'] as string);
    need(many(f.encodingFormat).length > 0 && many(f.encodingFormat).every(nonEmptyText), `${where}.encodingFormat: expected MIME types`);
    if (f['@type'] === 'cr:FileObject') {
      need(nonEmptyText(f.contentUrl), `${where}.contentUrl: expected one URL`);
      need(typeof f.sha256 === 'string' && /^[0-9a-f]{64}$/.test(f.sha256), `${where}.sha256: expected 64 hex digits`);
    }
  });
  const recordSets = many(doc.recordSet);
  recordSets.forEach((rs, i) => {
    const where = `recordSet[${i}]`;
    if (!isObject(rs)) { problems.push(`${where}: expected an object`); return; }
    need(rs['@type'] === 'cr:RecordSet', `${where}: @type must be cr:RecordSet`);
    defineId(rs['@id'], where);
    const fields = many(rs.field);
    need(fields.length > 0, `${where}.field: expected fields`);
    const fieldIds = new Set<string>();
    fields.forEach((f, j) => {
      const at = `${where}.field[${j}]`;
      if (!isObject(f)) { problems.push(`${at}: expected an object`); return; }
      need(f['@type'] === 'cr:Field', `${at}: @type must be cr:Field`);
      defineId(f['@id'], at);
      fieldIds.add(f['@id'] as string);
      need(String(f['@id']).startsWith(`${String(rs['@id'])}/`), `${at}: @id should start with its record set's @id and "/"`);
      need(many(f.dataType).length > 0 && many(f.dataType).every((t) => typeof t === 'string' && /^(sc|cr):[A-Za-z]+$/.test(t)), `${at}.dataType: expected sc: or cr: types`);
      if (f.isArray !== undefined) need(typeof f.isArray === 'boolean', `${at}.isArray: expected a boolean`);
      const source = f.source;
      if (!isObject(source)) { problems.push(`${at}.source: expected a DataSource`); return; }
      const ref = (source.fileObject ?? source.fileSet) as Json | undefined;
      need(isObject(ref) && Object.keys(ref).length === 1 && fileIds.has(ref['@id'] as string), `${at}.source: must reference a FileObject or FileSet of the distribution`);
      const extract = source.extract;
      need(isObject(extract) && ['column', 'jsonPath', 'fileProperty'].filter((k) => k in extract).length === 1, `${at}.source.extract: expected one of column, jsonPath, fileProperty`);
    });
    for (const key of many(rs.key)) need(isObject(key) && fieldIds.has(key['@id'] as string), `${where}.key: must reference one of its fields`);
  });
  return problems;
}

/**
 * Every FileObject's sha256 and size against the bytes of the file its contentUrl names, and every file of the
 * folder listed in the distribution (but croissant.json itself, which describes the others).
 */
export function hashProblems(doc: Json, files: Map<string, Buffer>): string[] {
  const listed = new Set(many(doc.distribution).map((f) => (f as Json).contentUrl));
  const unlisted = [...files.keys()].filter((path) => path !== 'croissant.json' && !listed.has(path)).map((path) => `${path}: in the folder but not in the distribution`);
  return [...many(doc.distribution).flatMap((f) => {
    const file = f as Json;
    const bytes = files.get(file.contentUrl as string);
    if (!bytes) return [`${String(file.contentUrl)}: listed but not in the folder`];
    const problems: string[] = [];
    if (crypto.createHash('sha256').update(bytes).digest('hex') !== file.sha256) problems.push(`${String(file.contentUrl)}: sha256 does not match the file`);
    if (file.contentSize !== undefined && file.contentSize !== `${bytes.length} B`) problems.push(`${String(file.contentUrl)}: contentSize is not the file's size`);
    return problems;
  }), ...unlisted];
}

const SIZE_CATEGORIES = ['n<1K', '1K<n<10K', '10K<n<100K', '100K<n<1M', '1M<n<10M', '10M<n<100M', '100M<n<1B', '1B<n<10B', '10B<n<100B', '100B<n<1T', 'n>1T'];
const CREATORS = ['found', 'crowdsourced', 'expert-generated', 'machine-generated', 'other'];

/** The YAML front matter of a README.md: null when there is none. */
export function frontMatter(readme: string): Json | null {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(readme);
  return match ? (parse(match[1]!) as Json) : null;
}

/**
 * The Hugging Face Hub's dataset-card metadata fields, with the values its documentation allows, and `configs`
 * naming exactly the data files present (`files`: the folder's files by path).
 */
export function hfCardProblems(readme: string, files: Map<string, Buffer>): string[] {
  const meta = frontMatter(readme);
  if (!meta) return ['README.md: no YAML front matter between --- lines'];
  const problems: string[] = [];
  const need = (ok: boolean, what: string) => { if (!ok) problems.push(what); };
  const list = (key: string) => many(meta[key]) as unknown[];
  need(typeof meta.license === 'string' && /^[a-z0-9.-]+$/.test(meta.license), 'license: expected a Hub licence id');
  if (meta.license === 'other') need(typeof meta.license_name === 'string' && /^[a-z0-9.-]+$/.test(meta.license_name), 'license_name: required with license: other');
  need(list('language').length > 0 && list('language').every((l) => typeof l === 'string' && /^[a-z]{2,3}(-[A-Za-z0-9]+)?$/.test(l)), 'language: expected ISO 639 codes');
  need(list('task_categories').includes('text-retrieval'), 'task_categories: expected text-retrieval');
  need(list('task_ids').every((t) => ['document-retrieval', 'utterance-retrieval', 'entity-linking-retrieval', 'fact-checking-retrieval'].includes(t as string)), 'task_ids: expected text-retrieval subtasks');
  need(list('size_categories').length === 1 && SIZE_CATEGORIES.includes(list('size_categories')[0] as string), 'size_categories: expected one of the Hub\'s buckets');
  need(list('annotations_creators').length > 0 && list('annotations_creators').every((c) => [...CREATORS, 'no-annotation'].includes(c as string)), 'annotations_creators: unknown value');
  need(list('language_creators').length > 0 && list('language_creators').every((c) => CREATORS.includes(c as string)), 'language_creators: unknown value');
  need(list('source_datasets').length > 0 && list('source_datasets').every((s) => typeof s === 'string' && /^(original|extended)(\|.+)?$/.test(s)), 'source_datasets: expected original or extended');
  need(nonEmptyText(meta.pretty_name), 'pretty_name: expected text');
  need(list('tags').every((t) => typeof t === 'string'), 'tags: expected text');
  const configs = list('configs') as Json[];
  need(configs.length > 0, 'configs: expected at least one');
  const listed = new Set<string>();
  for (const config of configs) {
    need(nonEmptyText(config.config_name), 'configs: config_name missing');
    for (const df of many(config.data_files) as Json[]) {
      need(typeof df.split === 'string' && /^\w+(\.\w+)*$/.test(df.split), `configs.data_files: bad split name ${String(df.split)}`);
      need(files.has(df.path as string), `configs.data_files: ${String(df.path)} is not in the folder`);
      listed.add(df.path as string);
    }
  }
  for (const path of files.keys()) if (path.startsWith('data/') && path.endsWith('.jsonl')) need(listed.has(path), `${path}: not listed in configs`);
  const rows = [...files].filter(([p]) => listed.has(p)).reduce((n, [, b]) => n + b.toString('utf8').split('\n').filter(Boolean).length, 0);
  const bucket = SIZE_CATEGORIES.findIndex((c) => c === list('size_categories')[0]);
  need(bucket === Math.max(0, Math.floor(Math.log10(Math.max(rows, 1))) - 2), `size_categories: ${String(list('size_categories')[0])} does not hold ${rows} rows`);
  return problems;
}

/** The folder's files, by path inside it, from a release zip's entries. */
export function folderFiles(entries: Map<string, Buffer>, folder: string): Map<string, Buffer> {
  return new Map([...entries].filter(([name]) => name.startsWith(`${folder}/`) && !name.endsWith('/')).map(([name, bytes]) => [name.slice(folder.length + 1), bytes]));
}

/** A Parquet file's rows as objects, read with hyparquet (a reader independent of the writer). */
export async function parquetRows(bytes: Buffer): Promise<Record<string, unknown>[]> {
  return parquetReadObjects({ file: Uint8Array.from(bytes).buffer });
}
