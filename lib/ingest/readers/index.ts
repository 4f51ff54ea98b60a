import type { KnowledgeSource } from '../source';
import { cypherbenchSource } from './cypherbench';
import { nativeSource } from './native';
import { primekgSource } from './primekg';
import { textGraphSource } from './text-graph';
import { triplesSource } from './triples';

/** The formats `skb import --format` reads; docs/formats.md describes each. */
export type ImportFormat = 'native' | 'primekg' | 'text-graph' | 'triples' | 'cypherbench';

export const IMPORT_FORMATS: readonly ImportFormat[] = ['native', 'primekg', 'text-graph', 'triples', 'cypherbench'];

/** The reader for a format. Throws when the files do not fit it (a missing or unrecognised file). */
export function openSource(format: ImportFormat, files: string[]): KnowledgeSource {
  switch (format) {
    case 'native':
      return nativeSource(files);
    case 'primekg':
      return primekgSource(files);
    case 'text-graph':
      return textGraphSource(files);
    case 'triples':
      return triplesSource(files);
    case 'cypherbench':
      return cypherbenchSource(files);
  }
}
