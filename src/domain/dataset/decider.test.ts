import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DATASET_TEXT_MAX_CHARS, MAX_DATASET_ITEMS, MAX_DATASETS_PER_FLOW } from '../limits';
import { fold, given } from '../testing';
import type { DatasetCommand, DatasetContext } from './commands';
import {
  DATASET_NOT_FOUND,
  decider,
  ITEM_NOT_FOUND,
  NAME_REQUIRED,
  NAME_TOO_LONG,
  NO_ITEMS,
  TOO_MANY_AT_ONCE,
  TOO_MANY_DATASETS,
} from './decider';
import type { DatasetEvent, NewDatasetItem } from './events';
import { datasetSnapshot } from './snapshot';
import { datasetView } from './view';

const NOW = '2026-11-29T10:00:00.000Z';
const EARLIER = '2026-11-28T09:00:00.000Z';

const by =
  (userId: string) =>
  (_state: unknown, version: number): DatasetContext => ({ now: NOW, userId, version });

const created: DatasetEvent = {
  type: 'DatasetCreated',
  data: { datasetId: 'd1', flowId: 'f1', workspaceId: null, name: 'Câu hỏi', createdBy: 'ann', at: EARLIER },
};

const item = (itemId: string, extra: Partial<NewDatasetItem> = {}): NewDatasetItem => ({
  itemId,
  inputs: { 'step-1': `input of ${itemId}` },
  expected: {},
  tags: [],
  source: 'manual',
  ...extra,
});

const added = (...itemIds: string[]): DatasetEvent => ({
  type: 'DatasetItemsAdded',
  data: { items: itemIds.map((id) => item(id)), by: 'ann', at: EARLIER },
});

const add = (...items: NewDatasetItem[]): DatasetCommand => ({ type: 'AddDatasetItems', data: { items } });

describe('the dataset decider', () => {
  it('creates a dataset of a flow, its name trimmed', () => {
    given(decider, [], by('ann'))
      .when({
        type: 'CreateDataset',
        data: { datasetId: 'd1', flowId: 'f1', workspaceId: 'w1', name: '  Câu hỏi ', datasetsOfFlow: 0 },
      })
      .thenEmits([
        {
          type: 'DatasetCreated',
          data: {
            datasetId: 'd1',
            flowId: 'f1',
            workspaceId: 'w1',
            name: 'Câu hỏi',
            createdBy: 'ann',
            at: NOW,
          },
        },
      ]);
  });

  it('refuses a name left empty or too long, and a flow with its datasets used up', () => {
    const create = (name: string, datasetsOfFlow = 0): DatasetCommand => ({
      type: 'CreateDataset',
      data: { datasetId: 'd1', flowId: 'f1', workspaceId: null, name, datasetsOfFlow },
    });
    given(decider, [], by('ann')).when(create('  ')).thenThrows('rule_violated', NAME_REQUIRED);
    given(decider, [], by('ann'))
      .when(create('x'.repeat(101)))
      .thenThrows('rule_violated', NAME_TOO_LONG);
    given(decider, [], by('ann'))
      .when(create('ok', MAX_DATASETS_PER_FLOW))
      .thenThrows('rule_violated', TOO_MANY_DATASETS);
    given(decider, [created], by('ann')).when(create('again')).thenThrows('conflict');
  });

  it('renames, and does nothing for the same name', () => {
    given(decider, [created], by('bob'))
      .when({ type: 'RenameDataset', data: { name: 'Mới' } })
      .thenEmits([{ type: 'DatasetRenamed', data: { before: 'Câu hỏi', after: 'Mới', by: 'bob', at: NOW } }]);
    given(decider, [created], by('bob'))
      .when({ type: 'RenameDataset', data: { name: ' Câu hỏi' } })
      .thenEmits([]);
  });

  it('answers 404 for any command on a stream without a dataset', () => {
    given(decider, [], by('ann'))
      .when(add(item('i1')))
      .thenThrows('not_found', DATASET_NOT_FOUND);
  });

  it('adds items with their tags trimmed and without repeats', () => {
    given(decider, [created], by('ann'))
      .when(add(item('i1', { tags: [' a ', 'a', '', 'b'], expected: { 'step-2': 'ok' } })))
      .thenEmits([
        {
          type: 'DatasetItemsAdded',
          data: {
            items: [item('i1', { tags: ['a', 'b'], expected: { 'step-2': 'ok' } })],
            by: 'ann',
            at: NOW,
          },
        },
      ]);
  });

  it('refuses items past their limits, naming the item', () => {
    const when = (command: DatasetCommand) => given(decider, [created], by('ann')).when(command);
    when(add()).thenThrows('rule_violated', NO_ITEMS);
    when(add(...Array.from({ length: 501 }, (_, i) => item(`i${i}`)))).thenThrows(
      'rule_violated',
      TOO_MANY_AT_ONCE,
    );
    when(add(item('i1'), item('i2', { inputs: {}, expected: {} }))).thenThrows(
      'rule_violated',
      /^items\[1\]: cần ít nhất một input/,
    );
    when(add(item('i1', { inputs: { 'a b': 'x' } }))).thenThrows(
      'rule_violated',
      /items\[0\]\.inputs: "a b"/,
    );
    when(add(item('i1', { inputs: { s: 'x'.repeat(DATASET_TEXT_MAX_CHARS + 1) } }))).thenThrows(
      'rule_violated',
      /items\[0\]\.inputs\.s: tối đa 20,000 ký tự/,
    );
    when(
      add(item('i1', { inputs: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`s${i}`, 'x'])) })),
    ).thenThrows('rule_violated', /tối đa 50 mục/);
    when(add(item('i1', { tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }))).thenThrows(
      'rule_violated',
      /tối đa 10 tag/,
    );
    when(add(item('i1', { tags: ['x'.repeat(51)] }))).thenThrows('rule_violated', /mỗi tag tối đa 50/);
    when(add(item('i1', { source: 'execution' }))).thenThrows('rule_violated', /sourceExecutionId/);
    given(decider, [created, added('i1')], by('ann'))
      .when(add(item('i1')))
      .thenThrows('conflict', /đã có trong dataset/);
  });

  it('holds at most MAX_DATASET_ITEMS items, archived ones counted', () => {
    const ids = Array.from({ length: MAX_DATASET_ITEMS }, (_, i) => `i${i}`);
    const history: DatasetEvent[] = [created];
    for (let i = 0; i < ids.length; i += 500) history.push(added(...ids.slice(i, i + 500)));
    history.push({ type: 'DatasetItemArchived', data: { itemId: 'i0', by: 'ann', at: EARLIER } });
    given(decider, history, by('ann'))
      .when(add(item('one-more')))
      .thenThrows('rule_violated', /tối đa 5,000 item/);
  });

  it('archives and restores an item; doing either twice does nothing', () => {
    const archived: DatasetEvent = {
      type: 'DatasetItemArchived',
      data: { itemId: 'i1', by: 'ann', at: NOW },
    };
    const { state } = given(decider, [created, added('i1', 'i2')], by('ann'))
      .when({ type: 'ArchiveDatasetItem', data: { itemId: 'i1' } })
      .thenEmits([archived]);
    expect(state.items).toEqual([
      { itemId: 'i1', archived: true },
      { itemId: 'i2', archived: false },
    ]);
    given(decider, [created, added('i1'), archived], by('ann'))
      .when({ type: 'ArchiveDatasetItem', data: { itemId: 'i1' } })
      .thenEmits([]);
    given(decider, [created, added('i1'), archived], by('ann'))
      .when({ type: 'RestoreDatasetItem', data: { itemId: 'i1' } })
      .thenEmits([{ type: 'DatasetItemRestored', data: { itemId: 'i1', by: 'ann', at: NOW } }]);
    given(decider, [created, added('i1')], by('ann'))
      .when({ type: 'RestoreDatasetItem', data: { itemId: 'i1' } })
      .thenEmits([]);
    given(decider, [created], by('ann'))
      .when({ type: 'ArchiveDatasetItem', data: { itemId: 'nope' } })
      .thenThrows('not_found', ITEM_NOT_FOUND);
  });

  it('encodes each state as a snapshot that decodes to the same state', () => {
    const history = [
      created,
      added('i1', 'i2'),
      { type: 'DatasetItemArchived', data: { itemId: 'i1', by: 'a', at: NOW } } as DatasetEvent,
    ];
    let state = decider.initialState();
    for (const event of history) {
      state = decider.evolve(state, event);
      expect(datasetSnapshot.decode(JSON.parse(JSON.stringify(datasetSnapshot.encode(state))))).toEqual(
        state,
      );
    }
    expect(datasetSnapshot.decode({ datasetId: 3 })).toBeNull();
  });
});

/** A command a user could give an existing dataset, among a few item ids. */
const commandArbitrary = (ids: string[]) =>
  fc.oneof(
    fc
      .uniqueArray(fc.constantFrom(...ids), { minLength: 1, maxLength: 3 })
      .map((itemIds): DatasetCommand => add(...itemIds.map((id) => item(id)))),
    fc
      .constantFrom(...ids)
      .map((itemId): DatasetCommand => ({ type: 'ArchiveDatasetItem', data: { itemId } })),
    fc
      .constantFrom(...ids)
      .map((itemId): DatasetCommand => ({ type: 'RestoreDatasetItem', data: { itemId } })),
    fc
      .string({ minLength: 1, maxLength: 10 })
      .map((name): DatasetCommand => ({ type: 'RenameDataset', data: { name } })),
  );

/** The events the commands make, in turn, each refused command leaving the stream as it was. */
function run(commands: DatasetCommand[]): DatasetEvent[] {
  const events: DatasetEvent[] = [created];
  for (const command of commands) {
    const state = fold(decider, events);
    try {
      events.push(...decider.decide(command, state, { now: NOW, userId: 'ann', version: events.length }));
    } catch {
      // Refused: nothing recorded.
    }
  }
  return events;
}

const positioned = (events: DatasetEvent[]) => events.map((event, i) => ({ event, position: i + 1 }));

describe('the dataset decider, over any run of commands', () => {
  const ids = ['a', 'b', 'c', 'd'];

  it('never brings an archived item back unless it is restored', () => {
    fc.assert(
      fc.property(fc.array(commandArbitrary(ids), { maxLength: 30 }), (commands) => {
        const events = run(commands);
        const archived = new Set<string>();
        for (const event of events) {
          if (event.type === 'DatasetItemArchived') archived.add(event.data.itemId);
          if (event.type === 'DatasetItemRestored') archived.delete(event.data.itemId);
          if (event.type === 'DatasetItemsAdded')
            for (const added of event.data.items) expect(archived.has(added.itemId)).toBe(false);
        }
        const state = fold(decider, events);
        for (const each of state.items) expect(each.archived).toBe(archived.has(each.itemId));
        const view = datasetView(positioned(events))!;
        expect(
          view.items
            .filter((each) => each.archived)
            .map((each) => each.itemId)
            .sort(),
        ).toEqual([...archived].sort());
      }),
    );
  });

  it('shows at version v exactly the fold of the events up to v', () => {
    fc.assert(
      fc.property(fc.array(commandArbitrary(ids), { maxLength: 30 }), fc.nat(40), (commands, cut) => {
        const events = run(commands);
        const version = Math.min(cut + 1, events.length);
        const view = datasetView(positioned(events), version)!;
        const upTo = events.slice(0, version);
        expect(view.version).toBe(version);
        expect(view).toEqual(datasetView(positioned(upTo)));
        const state = fold(decider, upTo);
        expect(view.items.map(({ itemId, archived }) => ({ itemId, archived }))).toEqual(state.items);
        expect(view.name).toBe(state.name);
      }),
    );
  });
});
