import type { Queryable } from '../db/transaction';
import { wilsonInterval } from '../stats/proportion';

/** The error rate of one group of audited queries, with its 95% Wilson score interval. */
export interface ErrorRate {
  group: string;
  /** Items whose review is done. */
  audited: number;
  /** Of those, the queries found wrong: an answer removed or added, or the query flagged or removed. */
  errors: number;
  rate: number | null;
  low: number | null;
  high: number | null;
}

export interface AuditErrors {
  items: number;
  audited: number;
  total: ErrorRate;
  bySplit: ErrorRate[];
  byOrigin: ErrorRate[];
  /** What the fixes were, over all audited items. */
  changes: { answersRemoved: number; answersAdded: number; flagged: number; removed: number };
}

/** The split's name as the dashboard shows it; queries without a split form a group of their own. */
export const NO_SPLIT = '(no split)';

function rate(group: string, audited: number, errors: number): ErrorRate {
  return { group, audited, errors, ...wilsonInterval(errors, audited) };
}

/** The error rate an audit found, in total, per split and per origin (how the queries were made). */
export async function auditErrors(db: Queryable, campaignId: number): Promise<AuditErrors> {
  const { rows } = await db.query<{ split: string | null; origin: string; error: boolean | null; removed: number; added: number; action: string | null }>(
    `SELECT split, origin, (outcome->>'error')::boolean AS error, outcome->>'action' AS action,
            coalesce(jsonb_array_length(outcome->'removedAnswers'), 0) AS removed, coalesce(jsonb_array_length(outcome->'addedAnswers'), 0) AS added
       FROM audit_item WHERE campaign_id = $1`, [campaignId]);
  const done = rows.filter((r) => r.error !== null);
  const grouped = (key: (r: (typeof rows)[number]) => string) => {
    const groups = new Map<string, { audited: number; errors: number }>();
    for (const r of done) {
      const g = groups.get(key(r)) ?? { audited: 0, errors: 0 };
      g.audited++;
      if (r.error) g.errors++;
      groups.set(key(r), g);
    }
    return [...groups].sort(([a], [b]) => a.localeCompare(b)).map(([group, g]) => rate(group, g.audited, g.errors));
  };
  return {
    items: rows.length,
    audited: done.length,
    total: rate('all', done.length, done.filter((r) => r.error).length),
    bySplit: grouped((r) => r.split ?? NO_SPLIT),
    byOrigin: grouped((r) => r.origin),
    changes: {
      answersRemoved: done.reduce((s, r) => s + r.removed, 0),
      answersAdded: done.reduce((s, r) => s + r.added, 0),
      flagged: done.filter((r) => r.action === 'flag').length,
      removed: done.filter((r) => r.action === 'remove').length,
    },
  };
}
