import { parseCsv } from '../csv';
import { DomainError, ruleViolated } from '../errors';
import { MAX_DATASET_ITEMS_PER_ADD } from '../limits';
import { checkedItem, DATASET_KEY_PATTERN } from './decider';
import type { NewDatasetItem } from './events';

/** The prefix of a column of expected texts: `expected:<step>`. */
export const EXPECTED_PREFIX = 'expected:';
/** The column of tags, separated by `;`. */
export const TAGS_COLUMN = 'tags';

/** A step as a CSV's header may name it: by its id, or by its name when no other step has it. */
export interface NamedStep {
  id: string;
  name: string;
}

/** What a CSV column is. */
type Column = { kind: 'input' | 'expected'; key: string } | { kind: 'tags' };

export interface CsvItems {
  items: NewDatasetItem[];
  /** Columns that named no step of the flow: kept under the name given. */
  unknownColumns: string[];
}

/**
 * The items of a CSV file (see parseCsv): its header names the columns, one per input (a step's id or name),
 * `expected:<step>` for the text the step should answer, and `tags` (separated by `;`); every later record is
 * an item, its empty cells left out. A step is named by its id, or by its name (ignoring case) when one step
 * alone has it; a name no step has is kept as it is if it is a valid key, and reported. A refusal names the
 * line of the file.
 */
export function itemsFromCsv(text: string, steps: readonly NamedStep[], newId: () => string): CsvItems {
  const [header, ...rows] = parseCsv(text);
  if (header === undefined) throw ruleViolated('CSV trống: cần một dòng tiêu đề và ít nhất một dòng dữ liệu');
  if (rows.length === 0) throw ruleViolated('CSV chỉ có dòng tiêu đề: cần ít nhất một dòng dữ liệu');
  if (rows.length > MAX_DATASET_ITEMS_PER_ADD)
    throw ruleViolated(
      `CSV có ${rows.length} dòng dữ liệu; mỗi lần thêm tối đa ${MAX_DATASET_ITEMS_PER_ADD} item`,
    );
  const unknownColumns: string[] = [];
  const seen = new Set<string>();
  const columns = header.fields.map((title, index): Column => {
    const name = title.trim();
    const refuse = (message: string) =>
      ruleViolated(`CSV dòng ${header.line}, cột ${index + 1} ("${name.slice(0, 100)}"): ${message}`);
    if (name.toLowerCase() === TAGS_COLUMN) {
      if (seen.has(TAGS_COLUMN)) throw refuse('cột tags có hai lần');
      seen.add(TAGS_COLUMN);
      return { kind: 'tags' };
    }
    const expected = name.toLowerCase().startsWith(EXPECTED_PREFIX);
    const stepName = (expected ? name.slice(EXPECTED_PREFIX.length) : name).trim();
    if (stepName === '') throw refuse('tên cột trống');
    const key = stepKey(stepName, steps, refuse);
    if (key === null) {
      if (!DATASET_KEY_PATTERN.test(stepName)) throw refuse('không là step id hay tên step nào của flow');
      unknownColumns.push(name);
    }
    const kind = expected ? 'expected' : 'input';
    const resolved = key ?? stepName;
    if (seen.has(`${kind}:${resolved}`)) throw refuse('cột này trùng với một cột trước (cùng step)');
    seen.add(`${kind}:${resolved}`);
    return { kind, key: resolved };
  });
  const items = rows.map(({ line, fields }) => {
    const item: NewDatasetItem = { itemId: newId(), inputs: {}, expected: {}, tags: [], source: 'csv' };
    fields.forEach((cell, index) => {
      const column = columns[index]!;
      if (cell === '') return;
      if (column.kind === 'tags') item.tags = cell.split(';');
      else if (column.kind === 'input') item.inputs[column.key] = cell;
      else item.expected[column.key] = cell;
    });
    try {
      return checkedItem(item, 0);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      throw ruleViolated(`CSV dòng ${line}: ${error.message.replace(/^items\[0\][.:]?\s*/, '')}`);
    }
  });
  return { items, unknownColumns };
}

/** The id of the step a column names, null when none; refused when the name is several steps'. */
function stepKey(
  name: string,
  steps: readonly NamedStep[],
  refuse: (message: string) => DomainError,
): string | null {
  if (steps.some((step) => step.id === name)) return name;
  const named = steps.filter((step) => step.name.trim().toLowerCase() === name.toLowerCase());
  if (named.length > 1) throw refuse('nhiều step có tên này; hãy dùng step id');
  return named[0]?.id ?? null;
}
