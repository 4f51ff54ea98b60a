import { describe, expect, it } from 'vitest';
import { IMPORT_FORMATS, openSource } from '../../../lib/ingest/readers';
import { dataFile, drain } from './helpers';

describe('openSource', () => {
  it('lists the five formats', () => {
    expect(IMPORT_FORMATS).toEqual(['native', 'primekg', 'text-graph', 'triples', 'cypherbench']);
  });

  it('dispatches each format to its reader', () => {
    expect(() => openSource('native', [])).toThrow('Native format: no entities file (.jsonl) given');
    expect(() => openSource('primekg', [])).toThrow('PrimeKG format: expected exactly one kg file (.csv), got 0');
    expect(() => openSource('text-graph', [])).toThrow('Text-graph format: expected exactly one nodes (.jsonl) file, got none');
    expect(() => openSource('triples', [])).toThrow('Triples format: no triples file (.tsv, .txt) given');
    expect(() => openSource('cypherbench', [])).toThrow('CypherBench format: expected one graph file (.json), got none');
  });

  it('gives the same graph from the text-graph pair and from kg_style.csv', async () => {
    const fromText = await drain(openSource('text-graph', [dataFile('primekg-ibd', 'nodes.jsonl'), dataFile('primekg-ibd', 'edges.csv')]));
    const fromKg = await drain(openSource('primekg', [dataFile('primekg-ibd', 'kg_style.csv')]));
    const entities = (d: typeof fromText) => d.entities.map((e) => `${e.externalId}|${e.type}|${e.name}`).sort();
    const edges = (d: typeof fromText) => d.edges.map((e) => `${e.source}|${e.relation}|${e.target}`).sort();
    expect(entities(fromKg)).toEqual(entities(fromText));
    expect(edges(fromKg)).toEqual(edges(fromText));
  });
});
