/**
 * SQL for a tsquery matching any stemmed word of a text (its English lexemes OR-ed): for ranking by a
 * sentence-long query, which as a conjunction would match almost nothing. A text of stop words only gives the
 * empty tsquery, which matches nothing. `text` is a placeholder or column; use the result once per text
 * (e.g. in a subquery with OFFSET 0) so it is not re-parsed for every row it is compared with.
 */
export function anyWordQuery(text: string): string {
  return `coalesce(to_tsquery('simple', nullif(array_to_string(array(SELECT quote_literal(lexeme) FROM unnest(to_tsvector('english', ${text}))), ' | '), '')), ''::tsquery)`;
}
