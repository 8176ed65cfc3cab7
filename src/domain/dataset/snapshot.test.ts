import { describe, expect, it } from 'vitest';
import { snapshotFingerprint } from '../testing';
import { decider } from './decider';
import type { DatasetEvent } from './events';
import { datasetSnapshot } from './snapshot';

const at = (minute: number) => `2026-11-29T10:${String(minute).padStart(2, '0')}:00.000Z`;

const history: DatasetEvent[] = [
  {
    type: 'DatasetCreated',
    data: { datasetId: 'd1', flowId: 'f1', workspaceId: 'w1', name: 'Cases', createdBy: 'ann', at: at(0) },
  },
  { type: 'DatasetRenamed', data: { before: 'Cases', after: 'Câu hỏi', by: 'ann', at: at(1) } },
  {
    type: 'DatasetItemsAdded',
    data: {
      items: [
        { itemId: 'i1', inputs: { s1: 'trà' }, expected: { s2: 'bài' }, tags: ['a'], source: 'manual' },
        {
          itemId: 'i2',
          inputs: { s1: 'cà phê' },
          expected: {},
          tags: [],
          source: 'execution',
          sourceExecutionId: 'e1',
        },
      ],
      by: 'ann',
      at: at(2),
    },
  },
  { type: 'DatasetItemArchived', data: { itemId: 'i1', by: 'bob', at: at(3) } },
  { type: 'DatasetItemRestored', data: { itemId: 'i1', by: 'bob', at: at(4) } },
  { type: 'DatasetItemArchived', data: { itemId: 'i2', by: 'bob', at: at(5) } },
];

describe("a dataset's snapshot", () => {
  it('holds every state of a history exactly, and names the shape', () => {
    // A new hash means the state or evolve changed: bump datasetSnapshot.shape, then store the new hash.
    expect({
      shape: datasetSnapshot.shape,
      fingerprint: snapshotFingerprint(decider, datasetSnapshot, [history]),
    }).toEqual({
      shape: 'dataset.1',
      fingerprint: '8bab4c32a996475fc7d592d6a4fafb289b6fd31b948047b355644738aca05900',
    });
  });

  it('refuses a stored value of another shape', () => {
    expect(datasetSnapshot.decode({ datasetId: 3 })).toBeNull();
    expect(datasetSnapshot.decode(null)).toBeNull();
  });
});
