import type { DatasetItem } from '@/features/datasets';
import { excerptOf } from '@/lib/excerpt';
import { compare as t } from '../strings';

/** How an item of the dataset is named on these screens: its number in the dataset and its first input. */
export function itemLabeler(items: readonly DatasetItem[] | undefined) {
  const index = new Map((items ?? []).map((item, i) => [item.id, { item, n: i + 1 }]));
  return (itemId: string): string => {
    const found = index.get(itemId);
    if (!found) return `${t.item} ${itemId.slice(0, 8)}`;
    const first = Object.values(found.item.inputs)[0];
    return first ? `${t.itemNumber(found.n)}: ${excerptOf(first, 60)}` : t.itemNumber(found.n);
  };
}
