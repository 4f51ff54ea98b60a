/** Where a link leads and what it says. */
export interface WayBack {
  href: string;
  label: string;
}

/** A knowledge base's lists by the path segment of the records they list; an LLM call is listed by its synthesis. */
const KB_LISTS: Record<string, { list: string; label: string }> = {
  campaigns: { list: 'campaigns', label: 'Campaigns of this knowledge base' },
  studies: { list: 'studies', label: 'Studies of this knowledge base' },
  queries: { list: 'queries', label: 'Query sets of this knowledge base' },
  entities: { list: 'search', label: 'Search this knowledge base' },
  'llm-calls': { list: 'synthesize', label: 'Synthesis of this knowledge base' },
};

/**
 * The way back from a path that found nothing: the list its record would be in (`/kb/x/campaigns/7/review` ->
 * the campaigns of `x`), from the path alone, so it says nothing of what exists; null where there is no list.
 */
export function listOfPath(pathname: string): WayBack | null {
  const [, top, slug, section, record] = pathname.split('/');
  if (top === 'imports' && slug) return { href: '/admin/import', label: 'Imports' };
  if (top !== 'kb' || !slug || !section) return null;
  const list = record ? KB_LISTS[section] : undefined;
  return list ? { href: `/kb/${slug}/${list.list}`, label: list.label } : { href: `/kb/${slug}`, label: 'This knowledge base' };
}
