import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_MESSAGES } from '../src/domain/step-review';
import { createTestApp, OFFLINE_MODEL, type TestApp } from './support/test-app';
import { join, newWorkspace, ok, type Person, person as personOf } from './support/workspace-people';

/**
 * A step's review rule in a workspace, through the API: only an owner of the workspace sets, changes or
 * removes it, on every path that writes steps, and each change is a version of the flow; a rule that no
 * one but the person saving it could meet is refused on save.
 */

let t: TestApp;

const person = (firstName: string) => personOf(t.app, firstName);

beforeAll(async () => {
  t = await createTestApp({ freeStepAllowance: 1_000 }, OFFLINE_MODEL);
});
afterAll(() => t.close());

const byReviewers = { by: 'role', role: 'reviewer' } as const;
const stored = { by: 'role', role: 'reviewer', approvals: 1, selfApproval: false };

/** A workspace with an owner, an editor and a reviewer, and a flow of it whose first step the reviewers review. */
async function team() {
  const owner = await person('Owner');
  const editor = await person('Editor');
  const reviewer = await person('Reviewer');
  const { id: workspaceId } = await newWorkspace(owner);
  await join(owner, workspaceId, editor, 'editor');
  await join(owner, workspaceId, reviewer, 'reviewer');
  const flow = ok(
    await owner.client.post('/api/flows', { name: 'Blog', description: 'Posts', workspaceId }),
    201,
  );
  const step = (order: number, fields: Record<string, unknown> = {}) =>
    owner.client.post('/api/steps', {
      flowId: flow.id,
      name: `Step ${order}`,
      order,
      systemPrompt: `Write part ${order}.`,
      ...fields,
    });
  const reviewed = ok(await step(1, { review: byReviewers }), 201);
  const plain = ok(await step(2), 201);
  return { owner, editor, reviewer, workspaceId, flowId: flow.id as string, reviewed, plain };
}

const versionsOf = async (who: Person, flowId: string) =>
  ok(await who.client.get(`/api/flows/${flowId}/versions`)) as {
    version: number;
    summary: string;
    actor: { userId: string } | null;
  }[];

/** The refusal, once its status is the one expected: its text. */
const refused = (
  response: { statusCode: number; body: string; json: () => { detail: string } },
  status: number,
) => {
  expect(response.statusCode, response.body).toBe(status);
  return response.json().detail;
};

describe("a step's review rule in a workspace", () => {
  it("is refused to an editor changing or removing it, and is an owner's change recorded as a version", async () => {
    const { owner, editor, workspaceId, flowId, reviewed, plain } = await team();
    const before = await versionsOf(owner, flowId);
    // The flows list tells whose the flow is and that it has review rules: what the web app offers by.
    const listed = async () =>
      (ok(await editor.client.get(`/api/flows?workspaceId=${workspaceId}`)) as { id: string }[]).find(
        (flow) => flow.id === flowId,
      );
    expect(await listed()).toMatchObject({ userId: owner.id, reviewRules: true });

    const changed = await editor.client.put(`/api/steps/${reviewed.id}`, {
      review: { ...byReviewers, approvals: 1, dueInHours: 4 },
    });
    expect(refused(changed, 403)).toBe(REVIEW_MESSAGES.ownersOnly);
    const removed = await editor.client.put(`/api/steps/${reviewed.id}`, { review: null });
    expect(refused(removed, 403)).toBe(REVIEW_MESSAGES.ownersOnly);
    const set = await editor.client.put(`/api/steps/${plain.id}`, { review: byReviewers });
    expect(refused(set, 403)).toBe(REVIEW_MESSAGES.ownersOnly);
    // Nothing was written.
    expect(await versionsOf(owner, flowId)).toHaveLength(before.length);
    expect(ok(await editor.client.get(`/api/flows/${flowId}/steps`))[0].review).toEqual(stored);

    // The editor still edits the step, its rule sent back as it is.
    const renamed = ok(
      await editor.client.put(`/api/steps/${reviewed.id}`, { name: 'Draft', review: byReviewers }),
    );
    expect(renamed).toMatchObject({ name: 'Draft', review: stored });

    const ownerRemoved = ok(await owner.client.put(`/api/steps/${reviewed.id}`, { review: null }));
    expect(ownerRemoved.review).toBeNull();
    expect(await listed()).toMatchObject({ reviewRules: false });
    const after = await versionsOf(owner, flowId);
    expect(after).toHaveLength(before.length + 2);
    expect(after.at(-1)).toMatchObject({ actor: { userId: owner.id } });
    expect(after.at(-1)!.summary).toContain('người duyệt');
  });

  it('is refused to an editor on the other paths that would change it: a step with a rule, the flow, an import, a version', async () => {
    const { owner, editor, workspaceId, flowId, reviewed, plain } = await team();
    expect(refused(await editor.client.delete(`/api/steps/${reviewed.id}`), 403)).toBe(
      REVIEW_MESSAGES.stepHasRule,
    );
    expect(refused(await editor.client.delete(`/api/flows/${flowId}`), 403)).toBe(
      REVIEW_MESSAGES.flowHasRules('delete it'),
    );
    const added = await editor.client.post('/api/steps', {
      flowId,
      name: 'Step 3',
      order: 3,
      systemPrompt: 'Part 3.',
      review: byReviewers,
    });
    expect(refused(added, 403)).toBe(REVIEW_MESSAGES.ownersOnly);
    // Another workspace the editor owns: the flow may not take its rules there.
    const { id: elsewhere } = await newWorkspace(editor, 'Elsewhere');
    const moved = await editor.client.post(`/api/flows/${flowId}/move`, { workspaceId: elsewhere });
    expect(refused(moved, 403)).toBe(REVIEW_MESSAGES.flowHasRules('move it out of the workspace'));
    // The flow's JSON carries the rule: imported by an editor, it is refused.
    const exported = ok(await owner.client.get(`/api/flows/${flowId}/export`));
    const imported = await editor.client.post('/api/ai/create-from-json', {
      workflowJSON: exported.workflow,
      workspaceId,
    });
    expect(refused(imported, 403)).toBe(REVIEW_MESSAGES.ownersOnly);
    // A version from before the rule: restoring it would remove the rule.
    const versions = await versionsOf(owner, flowId);
    const first = versions[0]!.version;
    expect(refused(await editor.client.post(`/api/flows/${flowId}/restore/${first}`, {}), 403)).toBe(
      REVIEW_MESSAGES.versionHasOtherRules,
    );
    // A step without a rule is the editor's to remove; the owner removes the one with a rule.
    expect((await editor.client.delete(`/api/steps/${plain.id}`)).statusCode).toBe(204);
    expect((await owner.client.delete(`/api/steps/${reviewed.id}`)).statusCode).toBe(204);
  });

  it('is refused on save when no one but the person saving could meet it', async () => {
    const { owner, reviewer, plain } = await team();
    const outsider = await person('Outsider');
    const saving = (review: Record<string, unknown>) =>
      owner.client.put(`/api/steps/${plain.id}`, { review });
    expect(refused(await saving({ by: 'members', userIds: [owner.id] }), 400)).toBe(REVIEW_MESSAGES.onlyYou);
    expect(refused(await saving({ by: 'members', userIds: [owner.id], selfApproval: true }), 400)).toBe(
      REVIEW_MESSAGES.onlyYou,
    );
    expect(
      refused(await saving({ by: 'members', userIds: [owner.id, reviewer.id], approvals: 2 }), 400),
    ).toBe(REVIEW_MESSAGES.tooFewOthers(1));
    expect(refused(await saving({ by: 'members', userIds: [outsider.id] }), 400)).toBe(
      REVIEW_MESSAGES.notAReviewer,
    );
    expect(refused(await saving({ ...byReviewers, approvals: 2 }), 400)).toBe(
      REVIEW_MESSAGES.tooFewOfRole('reviewer', 1),
    );
    expect(refused(await saving({ by: 'role', role: 'owner' }), 400)).toBe(
      REVIEW_MESSAGES.tooFewOfRole('owner', 0),
    );
    const saved = ok(
      await saving({ by: 'members', userIds: [owner.id, reviewer.id], approvals: 2, selfApproval: true }),
    );
    expect(saved.review).toMatchObject({ by: 'members', userIds: [owner.id, reviewer.id], approvals: 2 });
  });
});
