import { describe, expect, it } from 'vitest';
import { aFlowStep } from '../execution/testing';
import { decider } from './decider';
import type { FlowEvent, VersionedStep } from './events';
import { flowVersions, versionSummary } from './version-summary';

const AT = '2026-11-25T10:00:00.000Z';
const DETAILS = { name: 'Blog', description: 'Ideas, then a post', status: 'draft', isTemplate: false };

function step(id: string, order: number, name: string): VersionedStep {
  const { flowId: _flow, ...versioned } = aFlowStep(order, { id, name, createdAt: AT });
  return versioned;
}

const created = (origin: 'manual' | 'recommendation' = 'manual'): FlowEvent => ({
  type: 'FlowCreated',
  data: {
    flowId: 'f1',
    userId: 'u1',
    origin,
    details: DETAILS,
    steps: [step('s1', 1, 'Ý tưởng'), step('s2', 2, 'Bài viết')],
    at: AT,
  },
});

const before = decider.evolve(decider.initialState(), created());
const summary = (event: FlowEvent) => versionSummary(event, before);

describe('the summary of a flow version', () => {
  it('says in Vietnamese how the flow was made and with how many steps', () => {
    expect(versionSummary(created(), decider.initialState())).toBe('Tạo thủ công, gồm 2 step');
    expect(versionSummary(created('recommendation'), decider.initialState())).toBe(
      'Tạo từ một recommendation, gồm 2 step',
    );
  });

  it('names what a save changed, the status values as the flow keeps them', () => {
    expect(
      summary({
        type: 'FlowDescribed',
        data: {
          before: { name: 'Blog', description: 'a', status: 'draft' },
          after: { name: 'Trà', description: 'b', status: 'active' },
          at: AT,
        },
      }),
    ).toBe('Đổi tên thành "Trà"; Đổi mô tả; Đổi status: draft → active');
    expect(summary({ type: 'FlowStatusChanged', data: { before: 'draft', after: 'active', at: AT } })).toBe(
      'Đổi status: draft → active',
    );
  });

  it('names the step a change is about and the fields an edit changed, in the fields’ order', () => {
    expect(summary({ type: 'StepAdded', data: { step: step('s3', 3, 'Tóm tắt'), at: AT } })).toBe(
      'Thêm step "Tóm tắt"',
    );
    expect(
      summary({
        type: 'StepEdited',
        data: {
          stepId: 's2',
          before: {},
          after: { outputMode: 'loop', name: 'Bài', systemPrompt: 'x' },
          at: AT,
        },
      }),
    ).toBe('Sửa step "Bài viết": tên, prompt, output mode');
    expect(
      summary({ type: 'StepEdited', data: { stepId: 'gone', before: {}, after: { order: 1 }, at: AT } }),
    ).toBe('Sửa step "một step": thứ tự');
    expect(summary({ type: 'StepRemoved', data: { step: step('s1', 1, 'Ý tưởng'), at: AT } })).toBe(
      'Xóa step "Ý tưởng"',
    );
    expect(
      summary({
        type: 'StepsReordered',
        data: {
          orders: [
            { stepId: 's1', before: 1, after: 2 },
            { stepId: 's2', before: 2, after: 1 },
          ],
          at: AT,
        },
      }),
    ).toBe('Sắp xếp lại 2 step');
  });

  it('says which version a restore brought back, and a deletion', () => {
    expect(summary({ type: 'FlowRestored', data: { version: 3, details: DETAILS, steps: [], at: AT } })).toBe(
      'Khôi phục Version 3',
    );
    expect(summary({ type: 'FlowDeleted', data: { at: AT } })).toBe('Xóa flow');
  });

  it('joins the changes of one command into one version', () => {
    const recorded = (streamPosition: number, event: FlowEvent, commandId: string) => ({
      streamPosition,
      ...event,
      metadata: { userId: 'u1', commandId },
    });
    const versions = flowVersions([
      recorded(1, created(), 'c1'),
      recorded(2, { type: 'StepAdded', data: { step: step('s3', 3, 'A'), at: AT } }, 'c2'),
      recorded(3, { type: 'StepAdded', data: { step: step('s4', 4, 'B'), at: AT } }, 'c2'),
    ]);
    expect(versions.map((v) => [v.version, v.summary])).toEqual([
      [1, 'Tạo thủ công, gồm 2 step'],
      [3, 'Thêm step "A"; Thêm step "B"'],
    ]);
  });
});
