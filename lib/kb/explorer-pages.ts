import type { z } from 'zod';
import type { Queryable } from '../db/transaction';
import type { TextProblem } from '../input';
import { checkPageQuery, queryProblem, withoutParams, type Checked, type PageSearchParams } from '../http/page-query';
import {
  firstMissingEntity, graphPageSchema, kbVocabulary, metapathsPageSchema, noEntity, pathsPageSchema, searchPageSchema, unknownNames,
} from './explorer-params';

type Vocabulary = Awaited<ReturnType<typeof kbVocabulary>>;

interface PageSpec<S extends z.ZodType> {
  schema: S;
  arrayKeys: readonly string[];
  /** What the way back leads to: "the graph", "search". */
  pageName: string;
  /** Relation and type names the knowledge base must have. */
  names?: (value: z.output<S>, vocabulary: Vocabulary) => TextProblem[];
  /** Entity ids the knowledge base must hold, by parameter. */
  entities?: (value: z.output<S>) => [string, number | undefined][];
}

const backLabel = (pageName: string, params: string[]) => `Open ${pageName} without ${params.map((p) => `“${p}”`).join(', ')}`;

/**
 * The explorer page's parameters as its API route reads them, or why the page cannot show what its address asks
 * for: a parameter the route would refuse, a relation or type the knowledge base lacks, an entity id it does not hold.
 */
async function checkExplorerPage<S extends z.ZodType>(db: Queryable, kbId: number, path: string, searchParams: PageSearchParams, spec: PageSpec<S>): Promise<Checked<z.output<S>>> {
  const checked = checkPageQuery(spec.schema, path, searchParams, { arrayKeys: spec.arrayKeys, backLabel: '' });
  if (!checked.ok) {
    const params = [...new Set(checked.problem.problems.map((p) => p.field.split('.')[0]!))];
    return { ok: false, problem: { ...checked.problem, back: { ...checked.problem.back, label: backLabel(spec.pageName, params) } } };
  }
  if (spec.names) {
    const unknown = spec.names(checked.value, await kbVocabulary(db, kbId));
    if (unknown.length) {
      const params = [...new Set(unknown.map((p) => p.field))];
      return { ok: false, problem: { ...queryProblem(path, searchParams, unknown, ''), back: { href: withoutParams(path, searchParams, params), label: backLabel(spec.pageName, params) } } };
    }
  }
  const entities = (spec.entities?.(checked.value) ?? []).filter((e): e is [string, number] => e[1] !== undefined);
  const missing = await firstMissingEntity(db, kbId, entities.map(([, id]) => id));
  if (missing === null) return checked;
  const params = entities.filter(([, id]) => id === missing).map(([field]) => field);
  return { ok: false, problem: { message: noEntity(missing), problems: [], back: { href: withoutParams(path, searchParams, params), label: backLabel(spec.pageName, params) } } };
}

const stepsOf = (steps: string[]) => steps.map((s) => ({ relation: s.slice(s.indexOf('~') + 1, s.lastIndexOf('~')), type: s.slice(s.lastIndexOf('~') + 1) }));

export const checkGraphPage = (db: Queryable, kbId: number, path: string, searchParams: PageSearchParams) => checkExplorerPage(db, kbId, path, searchParams, {
  schema: graphPageSchema, arrayKeys: ['rel', 'expand'], pageName: 'the graph',
  names: (v, { relations }) => unknownNames('rel', v.rel, relations, 'relation'),
  entities: (v) => [['entity', v.entity]],
});

export const checkPathsPage = (db: Queryable, kbId: number, path: string, searchParams: PageSearchParams) => checkExplorerPage(db, kbId, path, searchParams, {
  schema: pathsPageSchema, arrayKeys: ['rel'], pageName: 'paths',
  names: (v, { relations }) => unknownNames('rel', v.rel, relations, 'relation'),
  entities: (v) => [['from', v.from], ['to', v.to]],
});

export const checkSearchPage = (db: Queryable, kbId: number, path: string, searchParams: PageSearchParams) => checkExplorerPage(db, kbId, path, searchParams, {
  schema: searchPageSchema, arrayKeys: ['type'], pageName: 'search',
  names: (v, { types }) => unknownNames('type', v.type, types, 'entity type'),
});

export const checkMetapathsPage = (db: Queryable, kbId: number, path: string, searchParams: PageSearchParams) => checkExplorerPage(db, kbId, path, searchParams, {
  schema: metapathsPageSchema, arrayKeys: ['step', 'step2'], pageName: 'metapaths',
  names: (v, { types, relations }) => [
    ...unknownNames('type', v.type ? [v.type] : [], types, 'entity type'),
    ...unknownNames('type2', v.type2 ? [v.type2] : [], types, 'entity type'),
    ...(['step', 'step2'] as const).flatMap((field) => stepsOf(v[field]).flatMap((s) => [
      ...unknownNames(field, [s.relation], relations, 'relation'), ...unknownNames(field, [s.type], types, 'entity type')])),
  ],
  entities: (v) => [['start', v.start], ['start2', v.start2]],
});
