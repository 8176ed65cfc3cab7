import type { Decider } from '../decider';
import { conflict, notFound, ruleViolated } from '../errors';
import {
  DATASET_MAX_TOTAL_CHARS,
  DATASET_NAME_MAX_LENGTH,
  DATASET_TAG_MAX_LENGTH,
  DATASET_TEXT_MAX_CHARS,
  MAX_DATASET_ITEM_FIELDS,
  MAX_DATASET_ITEM_TAGS,
  MAX_DATASET_ITEMS,
  MAX_DATASET_ITEMS_PER_ADD,
  MAX_DATASETS_PER_FLOW,
} from '../limits';
import type { DatasetCommand, DatasetContext } from './commands';
import type { DatasetEvent, DatasetState, NewDatasetItem } from './events';

export const DATASET_NOT_FOUND = 'Không tìm thấy dataset';
export const ITEM_NOT_FOUND = 'Không tìm thấy item trong dataset';
export const NAME_REQUIRED = 'name: tên dataset không được để trống';
export const NAME_TOO_LONG = `name: tối đa ${DATASET_NAME_MAX_LENGTH} ký tự`;
export const TOO_MANY_DATASETS = `Mỗi flow có tối đa ${MAX_DATASETS_PER_FLOW} dataset`;
export const NO_ITEMS = 'items: cần ít nhất một item';
export const TOO_MANY_AT_ONCE = `items: tối đa ${MAX_DATASET_ITEMS_PER_ADD} item mỗi lần thêm`;
export const tooManyItems = (having: number, adding: number) =>
  `Dataset có tối đa ${MAX_DATASET_ITEMS.toLocaleString('en-US')} item (kể cả item đã archive): đang có ${having}, thêm ${adding} sẽ vượt giới hạn`;
export const TOO_LARGE = `Tổng nội dung các item của một dataset tối đa ${DATASET_MAX_TOTAL_CHARS.toLocaleString('en-US')} ký tự`;

/**
 * The name of an input or an expected text: a step id (any name of letters, digits and `_ . : -`, up to 100
 * characters, is kept, so an item outlives the step it names), except `__proto__`, which an object of texts
 * by name cannot hold as one of its names.
 */
export const DATASET_KEY_PATTERN = /^(?!__proto__$)[\p{L}\p{N}_][\p{L}\p{N}_.:-]{0,99}$/u;
/** The pattern as the API document states it (JSON Schema has no \p classes). */
export const DATASET_KEY_DESCRIPTION =
  'A step id of the flow (any name of letters, digits and _ . : -, at most 100 characters, but __proto__, is kept)';

/** A dataset's rules: its items as its stream folds them, and what each command adds. */
export const decider: Decider<DatasetState, DatasetCommand, DatasetEvent, DatasetContext> = {
  initialState,
  evolve,
  decide,
};

function initialState(): DatasetState {
  return {
    datasetId: null,
    flowId: null,
    workspaceId: null,
    name: '',
    createdBy: null,
    items: [],
    totalChars: 0,
    createdAt: null,
    updatedAt: null,
  };
}

function evolve(state: DatasetState, event: DatasetEvent): DatasetState {
  const next = { ...state, updatedAt: event.data.at };
  switch (event.type) {
    case 'DatasetCreated': {
      const { datasetId, flowId, workspaceId, name, createdBy, at } = event.data;
      return { ...next, datasetId, flowId, workspaceId, name, createdBy, createdAt: at };
    }
    case 'DatasetRenamed':
      return { ...next, name: event.data.after };
    case 'DatasetItemsAdded':
      return {
        ...next,
        items: [...state.items, ...event.data.items.map(({ itemId }) => ({ itemId, archived: false }))],
        totalChars: state.totalChars + event.data.items.reduce((sum, item) => sum + charsOf(item), 0),
      };
    case 'DatasetItemArchived':
      return { ...next, items: withArchived(state.items, event.data.itemId, true) };
    case 'DatasetItemRestored':
      return { ...next, items: withArchived(state.items, event.data.itemId, false) };
    default:
      // An event type this version does not know changes nothing.
      return state;
  }
}

function decide(command: DatasetCommand, state: DatasetState, context: DatasetContext): DatasetEvent[] {
  const at = context.now;
  const by = context.userId;
  if (command.type === 'CreateDataset') {
    if (state.datasetId !== null) throw conflict('Dataset đã tồn tại');
    const { datasetId, flowId, workspaceId, datasetsOfFlow } = command.data;
    if (datasetsOfFlow >= MAX_DATASETS_PER_FLOW) throw ruleViolated(TOO_MANY_DATASETS);
    const name = checkedName(command.data.name);
    return [{ type: 'DatasetCreated', data: { datasetId, flowId, workspaceId, name, createdBy: by, at } }];
  }
  if (state.datasetId === null) throw notFound(DATASET_NOT_FOUND);
  switch (command.type) {
    case 'RenameDataset': {
      const name = checkedName(command.data.name);
      if (name === state.name) return [];
      return [{ type: 'DatasetRenamed', data: { before: state.name, after: name, by, at } }];
    }
    case 'AddDatasetItems': {
      const items = command.data.items.map(checkedItem);
      if (items.length === 0) throw ruleViolated(NO_ITEMS);
      if (items.length > MAX_DATASET_ITEMS_PER_ADD) throw ruleViolated(TOO_MANY_AT_ONCE);
      if (state.items.length + items.length > MAX_DATASET_ITEMS)
        throw ruleViolated(tooManyItems(state.items.length, items.length));
      const ids = new Set(state.items.map((item) => item.itemId));
      for (const item of items) {
        if (ids.has(item.itemId)) throw conflict(`Item ${item.itemId} đã có trong dataset`);
        ids.add(item.itemId);
      }
      const added = items.reduce((sum, item) => sum + charsOf(item), 0);
      if (state.totalChars + added > DATASET_MAX_TOTAL_CHARS) throw ruleViolated(TOO_LARGE);
      return [{ type: 'DatasetItemsAdded', data: { items, by, at } }];
    }
    case 'ArchiveDatasetItem': {
      const { itemId } = command.data;
      if (itemOf(state, itemId).archived) return [];
      return [{ type: 'DatasetItemArchived', data: { itemId, by, at } }];
    }
    case 'RestoreDatasetItem': {
      const { itemId } = command.data;
      if (!itemOf(state, itemId).archived) return [];
      return [{ type: 'DatasetItemRestored', data: { itemId, by, at } }];
    }
  }
}

function itemOf(state: DatasetState, itemId: string) {
  const item = state.items.find((each) => each.itemId === itemId);
  if (!item) throw notFound(ITEM_NOT_FOUND);
  return item;
}

const withArchived = (items: DatasetState['items'], itemId: string, archived: boolean) =>
  items.map((item) => (item.itemId === itemId ? { ...item, archived } : item));

/** The characters of an item's texts, as counted against DATASET_MAX_TOTAL_CHARS. */
export const charsOf = (item: Pick<NewDatasetItem, 'inputs' | 'expected'>) =>
  [...Object.values(item.inputs), ...Object.values(item.expected)].reduce(
    (sum, text) => sum + text.length,
    0,
  );

/** A name as the API checks it (trimmed, filled in, not too long), checked again for any other caller. */
function checkedName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw ruleViolated(NAME_REQUIRED);
  if (trimmed.length > DATASET_NAME_MAX_LENGTH) throw ruleViolated(NAME_TOO_LONG);
  return trimmed;
}

/**
 * An item as it is recorded, or the refusal that names the item (`items[2]`) and what is wrong: its inputs
 * and expected texts by valid names, within their sizes, at least one of them; its tags trimmed, without
 * repeats, within theirs.
 */
export function checkedItem(item: NewDatasetItem, index: number): NewDatasetItem {
  const where = `items[${index}]`;
  const texts = (field: 'inputs' | 'expected') => {
    const entries = Object.entries(item[field]);
    if (entries.length > MAX_DATASET_ITEM_FIELDS)
      throw ruleViolated(`${where}.${field}: tối đa ${MAX_DATASET_ITEM_FIELDS} mục`);
    for (const [key, text] of entries) {
      if (!DATASET_KEY_PATTERN.test(key) || key === '__proto__')
        throw ruleViolated(
          `${where}.${field}: "${key.slice(0, 100)}" không phải tên hợp lệ (step id: chữ, số và _ . : -, tối đa 100 ký tự)`,
        );
      if (typeof text !== 'string') throw ruleViolated(`${where}.${field}.${key}: phải là văn bản`);
      if (text.length > DATASET_TEXT_MAX_CHARS)
        throw ruleViolated(
          `${where}.${field}.${key}: tối đa ${DATASET_TEXT_MAX_CHARS.toLocaleString('en-US')} ký tự (đang có ${text.length.toLocaleString('en-US')})`,
        );
    }
    return Object.fromEntries(entries);
  };
  const inputs = texts('inputs');
  const expected = texts('expected');
  if (Object.keys(inputs).length === 0 && Object.keys(expected).length === 0)
    throw ruleViolated(`${where}: cần ít nhất một input hoặc một expected`);
  const tags = [...new Set(item.tags.map((tag) => tag.trim()).filter((tag) => tag !== ''))];
  if (tags.length > MAX_DATASET_ITEM_TAGS)
    throw ruleViolated(`${where}.tags: tối đa ${MAX_DATASET_ITEM_TAGS} tag`);
  const long = tags.find((tag) => tag.length > DATASET_TAG_MAX_LENGTH);
  if (long !== undefined)
    throw ruleViolated(
      `${where}.tags: mỗi tag tối đa ${DATASET_TAG_MAX_LENGTH} ký tự ("${long.slice(0, 60)}…")`,
    );
  if (item.source === 'execution' && !item.sourceExecutionId)
    throw ruleViolated(`${where}: item từ execution cần sourceExecutionId`);
  return {
    itemId: item.itemId,
    inputs,
    expected,
    tags,
    source: item.source,
    ...(item.source === 'execution' && item.sourceExecutionId
      ? { sourceExecutionId: item.sourceExecutionId }
      : {}),
  };
}
