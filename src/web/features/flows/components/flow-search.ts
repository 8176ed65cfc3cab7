import type { FlowListItem } from '@/lib/flows-query';

/** Case-insensitive substring of name or description (the search box). */
export function matchesSearch(flow: Pick<FlowListItem, 'name' | 'description'>, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return flow.name.toLowerCase().includes(needle) || (flow.description ?? '').toLowerCase().includes(needle);
}
