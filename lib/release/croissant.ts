import crypto from 'node:crypto';
import { HF_COLUMNS } from './hf-data';
import { hfFrontMatter } from './hf-readme';
import { knownLicence } from './licence';
import type { ReleaseRecord } from './record';
import { releaseStatements } from './statements';

export const CROISSANT_SPEC = 'http://mlcommons.org/croissant/1.1';
export const CROISSANT_RAI_SPEC = 'http://mlcommons.org/croissant/RAI/1.0';

/** The JSON-LD context the Croissant 1.1 specification recommends (its Appendix 1). */
export const CROISSANT_CONTEXT = {
  '@language': 'en',
  '@vocab': 'http://schema.org/',
  sc: 'http://schema.org/',
  cr: 'http://mlcommons.org/croissant/',
  rai: 'http://mlcommons.org/croissant/RAI/',
  dct: 'http://purl.org/dc/terms/',
  annotation: 'cr:annotation',
  arrayShape: 'cr:arrayShape',
  citeAs: 'cr:citeAs',
  column: 'cr:column',
  conformsTo: 'dct:conformsTo',
  containedIn: 'cr:containedIn',
  data: { '@id': 'cr:data', '@type': '@json' },
  dataType: { '@id': 'cr:dataType', '@type': '@vocab' },
  equivalentProperty: 'cr:equivalentProperty',
  examples: { '@id': 'cr:examples', '@type': '@json' },
  excludes: 'cr:excludes',
  extract: 'cr:extract',
  field: 'cr:field',
  fileProperty: 'cr:fileProperty',
  fileObject: 'cr:fileObject',
  fileSet: 'cr:fileSet',
  format: 'cr:format',
  includes: 'cr:includes',
  isArray: 'cr:isArray',
  isLiveDataset: 'cr:isLiveDataset',
  jsonPath: 'cr:jsonPath',
  key: 'cr:key',
  md5: 'cr:md5',
  parentField: 'cr:parentField',
  recordSet: 'cr:recordSet',
  references: 'cr:references',
  regex: 'cr:regex',
  readLines: 'cr:readLines',
  sdVersion: 'cr:sdVersion',
  separator: 'cr:separator',
  source: 'cr:source',
  subField: 'cr:subField',
  transform: 'cr:transform',
  unArchive: 'cr:unArchive',
  value: 'cr:value',
} as const;

/** A file of the folder as the Croissant distribution lists it. */
export interface FolderFile {
  path: string;
  bytes: Buffer;
  encodingFormat: string;
  description: string;
}

export function sha256Hex(bytes: Buffer): string {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}

/**
 * The release's Croissant 1.1 description, from the same record and statements as its card: the files with
 * their SHA-256, one record set per split read from its JSONL file, and the Responsible-AI properties.
 */
export function croissant(r: ReleaseRecord, splits: string[], files: FolderFile[]): Record<string, unknown> {
  const says = releaseStatements(r);
  const licence = knownLicence(r.set.license);
  return {
    '@context': CROISSANT_CONTEXT,
    '@type': 'sc:Dataset',
    conformsTo: [CROISSANT_SPEC, CROISSANT_RAI_SPEC],
    name: `${r.set.name}-v${r.release.number}`,
    alternateName: says.title,
    description: says.description,
    license: licence.url ?? { '@type': 'sc:CreativeWork', name: licence.text || 'not stated' },
    url: r.release.url,
    version: `${r.release.number}.0.0`,
    datePublished: r.release.createdAt,
    citeAs: says.citation,
    creator: r.release.createdBy ? { '@type': 'sc:Person', name: r.release.createdBy } : { '@type': 'sc:Organization', name: `Curators of ${r.kb.name}` },
    keywords: hfFrontMatter(r, splits).tags,
    inLanguage: r.language,
    isLiveDataset: false,
    'rai:dataCollection': says.dataCollection,
    'rai:dataCollectionType': says.collectionTypes,
    'rai:dataCollectionMissingData': says.unresolved,
    'rai:dataAnnotationProtocol': says.annotationProtocol,
    'rai:dataAnnotationAnalysis': says.annotationAnalysis,
    'rai:annotatorDemographics': says.annotatorDemographics,
    'rai:machineAnnotationTools': says.machineAnnotationTools,
    'rai:dataLimitations': says.limitations,
    'rai:dataBiases': says.biases,
    'rai:dataUseCases': says.useCases,
    'rai:personalSensitiveInformation': says.personalInformation,
    'rai:dataReleaseMaintenancePlan': says.maintenance,
    distribution: files.map((f) => ({
      '@type': 'cr:FileObject',
      '@id': f.path,
      name: f.path,
      description: f.description,
      contentUrl: f.path,
      contentSize: `${f.bytes.length} B`,
      encodingFormat: f.encodingFormat,
      sha256: sha256Hex(f.bytes),
    })),
    recordSet: splits.map((split) => ({
      '@type': 'cr:RecordSet',
      '@id': split,
      name: split,
      description: `The queries of the ${split} split, one record a line of data/${split}.jsonl.`,
      key: { '@id': `${split}/id` },
      field: HF_COLUMNS.map((c) => ({
        '@type': 'cr:Field',
        '@id': `${split}/${c.name}`,
        name: c.name,
        description: c.description,
        dataType: 'sc:Text',
        ...(c.list ? { isArray: true } : {}),
        source: { fileObject: { '@id': `data/${split}.jsonl` }, extract: { column: c.name } },
      })),
    })),
  };
}
