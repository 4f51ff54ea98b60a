import type { KnowledgeSource } from './source';

export interface InMemoryKnowledgeBase {
  entities: { externalId: string; type: string; name: string; aliases: string[]; document: Record<string, unknown> }[];
  edges: { source: string; relation: string; target: string; properties?: Record<string, unknown> | null }[];
}

/** A knowledge source over records already in memory (the demo, tests); positions are list indexes. */
export function memorySource(kb: InMemoryKnowledgeBase, name = 'memory'): KnowledgeSource {
  let done = 0;
  const total = kb.entities.length + kb.edges.length;
  return {
    progress: () => ({ done, total }),
    async *entities() {
      for (const [i, e] of kb.entities.entries()) {
        done += 1;
        yield { ...e, at: { file: `${name}:entities`, line: i + 1 } };
      }
    },
    async *edges() {
      for (const [i, e] of kb.edges.entries()) {
        done += 1;
        yield { ...e, properties: e.properties ?? null, at: { file: `${name}:edges`, line: i + 1 } };
      }
    },
  };
}
