/** The shapes of STaRK's three knowledge bases the generator imitates. */
export const SHAPES = ['prime', 'mag', 'amazon'] as const;
export type Shape = (typeof SHAPES)[number];

/** STaRK's published sizes (entities, edges, tokens of text, queries in the synthesized set). */
export const PUBLISHED: Record<Shape, { entities: number; edges: number; tokens: number; queries: number }> = {
  prime: { entities: 129_375, edges: 8_100_498, tokens: 31_800_000, queries: 11_204 },
  mag: { entities: 1_872_968, edges: 39_802_116, tokens: 212_602_571, queries: 13_323 },
  amazon: { entities: 1_035_542, edges: 9_443_802, tokens: 592_100_000, queries: 9_100 },
};
