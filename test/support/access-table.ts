import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect, vi } from 'vitest';
import type { Action, Role } from '../../src/api/access';
import { SESSION_COOKIE } from '../../src/api/auth/plugin';
import { roleMay } from '../../src/domain/workspace/roles';
import { type Call, executeAllToTheEnd } from './execute-all';
import { anotherAddress, signUp, TEST_WEBHOOK_HOST } from './test-app';

/**
 * Every operation of the API with what calling it takes, and the records the owner makes to call them on:
 * what the access tests (each user's own records, and each role of a workspace) call.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The ids of what the owner made for these checks; every one of them is the owner's. */
export interface Fixtures {
  /** A flow with two steps, run: an execution with a result of step 1, its logs, a context, a suggestion. */
  flow: string;
  step1: string;
  step2: string;
  execution: string;
  result: string;
  /** A flow with two steps, for the calls that add, change or remove steps, clear logs or add a context. */
  scratchFlow: string;
  scratchStep1: string;
  scratchStep2: string;
  /** A dataset of the flow, with an item (archived and restored by the calls). */
  dataset: string;
  datasetItem: string;
  /** An experiment of the flow over the dataset, completed; and one waiting for the owner, to stop. */
  experiment: string;
  experimentToStop: string;
  /** A flow made to be deleted. */
  doomedFlow: string;
  /** A flow with a step, to restore to its version 1. */
  restoredFlow: string;
  /** Executions of the flow made to be stopped, reset, and to have their result deleted. */
  executionToStop: string;
  executionToReset: string;
  resultToDelete: string;
  /** A master mode session made from the flow (its rows are the flow's steps), with a run. */
  masterSession: string;
  masterRow: string;
  masterRowToDelete: string;
  masterSessionToDelete: string;
  /** A session whose Execute All has ended, and that Execute All. */
  masterSessionRunAll: string;
  executeAll: string;
  userSession: string;
  userSessionToDelete: string;
  apiKey: string;
  apiKeyToDelete: string;
  /** An API token of the owner's, made to be revoked. */
  apiTokenToRevoke: string;
  recommendation: string;
  /** A workspace the owner made, with two members invited by the owner: one to change, one to remove. */
  workspace: string;
  member: string;
  memberToRemove: string;
  /** Webhooks of the workspace: one to list deliveries of, one to delete; a delivery of the first (a test's). */
  webhook: string;
  webhookToDelete: string;
  webhookDelivery: string;
  /** The token of an invitation to the owner's e-mail address, into a third user's workspace. */
  invitationToken: string;
  /** A pending invitation of the owner's workspace, made to be revoked. */
  invitationToRevoke: string;
  /** The workspace the flows are in; null: the owner's own flows. */
  home: string | null;
  /**
   * Reviews of a step its workspace's members review (in `home`, or the owner's workspace when the flows
   * are the owner's own: only a workspace's step asks other people): one to approve, one to reject; and an
   * execution with an unreviewed result of a step without a rule, for the runner to ask for review of.
   */
  reviewToApprove: string;
  reviewToReject: string;
  reviewRequestExecution: string;
  reviewRequestStep: string;
}

export interface Caller {
  name: string;
  email: string;
}

export interface Entry {
  /**
   * owner: a resource of one user; anyone else gets 404. caller: the caller's own account or collection;
   * another user gets theirs, never the owner's ids. public: no session needed.
   */
  access: 'owner' | 'caller' | 'public';
  /**
   * owner only: what the call does to a record that can be in a workspace (a flow, an execution, the
   * workspace itself), which a member's role must allow; none: the record is its owner's alone (a saved
   * session, an API key), which no member may touch.
   */
  needs?: Action;
  /** public only: what a signed-out caller gets. */
  signedOut?: number;
  /** The body sent, valid for the owner too, so a 404 is the access rule and not validation. */
  body?: (f: Fixtures, caller: Caller) => unknown;
  query?: (f: Fixtures) => string;
  /** Path parameters taken from fixtures made for this call, over the ones the path resolves to. */
  ids?: (f: Fixtures) => Record<string, string>;
  /** The call signs the caller in anew (its session ends): checked after every other call of the caller. */
  startsSession?: true;
}

export const PASSWORD = 'correct horse battery';
/** The version of the fixtures' main flow: made, then its two steps added. */
const MAIN_FLOW_VERSION = 3;
const workflow = {
  name: 'Imported',
  description: 'A workflow as JSON',
  steps: [{ name: 'Ideas', order: 1, systemPrompt: 'List three ideas about tea.', outputMode: 'single' }],
};
let registrations = 0;

/** One entry per operation of the OpenAPI document, keyed by method and the document's path. */
export const ACCESS: Record<string, Entry> = {
  'GET /healthz': { access: 'public', signedOut: 200 },
  'GET /readyz': { access: 'public', signedOut: 200 },
  'POST /api/auth/login': {
    access: 'public',
    signedOut: 200,
    // Signed out, the owner signs in from a second browser; signed in, each caller signs in as themselves.
    body: (_f, caller) => ({ email: caller.email, password: PASSWORD }),
    startsSession: true,
  },
  'POST /api/auth/register': {
    access: 'public',
    signedOut: 201,
    body: () => ({
      email: `access-${++registrations}-${Date.now()}@example.com`,
      password: PASSWORD,
      firstName: 'New',
      lastName: 'Account',
    }),
    startsSession: true,
  },
  'GET /api/auth/user': { access: 'caller' },

  'GET /api/flows': { access: 'caller' },
  'POST /api/flows': { access: 'caller', body: () => ({ name: 'Access', description: 'A flow of my own' }) },
  'GET /api/flows/{id}': { access: 'owner', needs: 'read' },
  'PUT /api/flows/{id}': { access: 'owner', needs: 'change', body: () => ({ description: 'Changed' }) },
  'DELETE /api/flows/{id}': { access: 'owner', needs: 'change', ids: (f) => ({ id: f.doomedFlow }) },
  // Where the flow is already: a move that changes nothing, allowed to whoever may move it.
  'POST /api/flows/{id}/move': { access: 'owner', needs: 'change', body: (f) => ({ workspaceId: f.home }) },
  'GET /api/flows/{flowId}/steps': { access: 'owner', needs: 'read' },
  'POST /api/flows/{flowId}/execute': { access: 'owner', needs: 'run' },
  'GET /api/flows/{flowId}/executions/latest': { access: 'owner', needs: 'read' },
  'GET /api/flows/{id}/export': { access: 'owner', needs: 'read' },
  'GET /api/flows/{id}/versions': { access: 'owner', needs: 'read' },
  'GET /api/flows/{id}/verify': { access: 'owner', needs: 'read' },
  'GET /api/flows/{id}/versions/{version}': { access: 'owner', needs: 'read' },
  'POST /api/flows/{id}/restore/{version}': {
    access: 'owner',
    needs: 'change',
    ids: (f) => ({ id: f.restoredFlow }),
  },
  'GET /api/flows/{flowId}/executions': { access: 'owner', needs: 'read' },

  'POST /api/datasets': {
    access: 'owner',
    needs: 'change',
    body: (f) => ({ name: 'Another dataset', flowId: f.flow }),
  },
  'GET /api/datasets': { access: 'owner', needs: 'read', query: (f) => `?flowId=${f.flow}` },
  'GET /api/datasets/{id}': { access: 'owner', needs: 'read' },
  'PATCH /api/datasets/{id}': { access: 'owner', needs: 'change', body: () => ({ name: 'Renamed' }) },
  'POST /api/datasets/{id}/items': {
    access: 'owner',
    needs: 'change',
    body: () => ({ items: [{ inputs: { topic: 'oolong' } }] }),
  },
  'POST /api/datasets/{id}/items/from-execution': {
    access: 'owner',
    needs: 'change',
    body: (f) => ({ executionId: f.execution }),
  },
  'POST /api/datasets/{id}/items/{itemId}/archive': { access: 'owner', needs: 'change' },
  'POST /api/datasets/{id}/items/{itemId}/restore': { access: 'owner', needs: 'change' },

  'POST /api/experiments': {
    access: 'owner',
    needs: 'run',
    // The flow's version with its two steps (made, then a step added twice): checked as the fixtures are made.
    body: (f) => ({ flowId: f.flow, flowVersion: MAIN_FLOW_VERSION, datasetId: f.dataset }),
  },
  'GET /api/experiments': { access: 'owner', needs: 'read', query: (f) => `?flowId=${f.flow}` },
  'GET /api/experiments/compare': { access: 'owner', needs: 'read', query: (f) => `?ids=${f.experiment}` },
  'GET /api/experiments/{id}': { access: 'owner', needs: 'read' },
  'POST /api/experiments/{id}/stop': {
    access: 'owner',
    needs: 'run',
    ids: (f) => ({ id: f.experimentToStop }),
    body: () => ({}),
  },
  'POST /api/experiments/{id}/score-again': { access: 'owner', needs: 'run', body: () => ({}) },
  'POST /api/experiments/{id}/promote': { access: 'owner', needs: 'change', body: () => ({}) },

  'POST /api/steps': {
    access: 'owner',
    needs: 'change',
    body: (f) => ({ flowId: f.scratchFlow, name: 'Added', order: 3, systemPrompt: 'Sum up [[step-1]].' }),
  },
  'PUT /api/steps/{id}': {
    access: 'owner',
    needs: 'change',
    ids: (f) => ({ id: f.scratchStep1 }),
    body: () => ({ systemPrompt: 'List four ideas about tea.' }),
  },
  'DELETE /api/steps/{id}': { access: 'owner', needs: 'change', ids: (f) => ({ id: f.scratchStep2 }) },

  'GET /api/executions/{id}': { access: 'owner', needs: 'read' },
  'POST /api/executions/{id}/steps/{stepId}/execute': {
    access: 'owner',
    needs: 'run',
    body: () => ({ userInput: '' }),
  },
  'POST /api/executions/{id}/stop': {
    access: 'owner',
    needs: 'run',
    ids: (f) => ({ id: f.executionToStop }),
  },
  'POST /api/executions/{id}/reset': {
    access: 'owner',
    needs: 'run',
    ids: (f) => ({ id: f.executionToReset }),
  },
  'GET /api/executions/{id}/events': { access: 'owner', needs: 'read', query: () => '?limit=10' },
  'GET /api/executions/{id}/state': { access: 'owner', needs: 'read', query: () => '?at=1' },
  'GET /api/executions/{id}/verify': { access: 'owner', needs: 'read' },
  'GET /api/executions/{id}/reviews/audit': { access: 'owner', needs: 'read' },
  'GET /api/executions/{id}/audit': { access: 'owner', needs: 'read', query: () => '?format=csv' },
  'GET /api/audit/public-key': { access: 'caller' },
  'GET /api/audit/checkpoints': { access: 'caller' },
  'GET /api/audit/checkpoints/latest': { access: 'caller' },
  'GET /api/audit/proofs/consistency': { access: 'caller', query: () => '?from=0&to=1' },
  'GET /api/audit/proofs/inclusion': {
    access: 'owner',
    needs: 'read',
    query: (f) => `?executionId=${f.execution}`,
  },
  'GET /api/flows/{id}/audit': { access: 'owner', needs: 'read', query: () => '?format=bundle' },
  'POST /api/executions/{id}/rerun-from/{stepId}': { access: 'owner', needs: 'run' },
  'PUT /api/step-results/{id}': { access: 'owner', needs: 'review', body: () => ({ label: 'ideas' }) },
  'DELETE /api/step-results/{id}': {
    access: 'owner',
    needs: 'review',
    ids: (f) => ({ id: f.resultToDelete }),
  },
  'GET /api/reviews': { access: 'caller', query: () => '?status=pending' },
  'POST /api/reviews/{id}/approve': {
    access: 'owner',
    needs: 'review',
    body: () => ({ comment: 'Looks right' }),
    ids: (f) => ({ id: f.reviewToApprove }),
  },
  'POST /api/reviews/{id}/reject': {
    access: 'owner',
    needs: 'review',
    body: () => ({ reason: 'Say it more kindly' }),
    ids: (f) => ({ id: f.reviewToReject }),
  },
  'POST /api/executions/{id}/steps/{stepId}/review-requests': {
    access: 'owner',
    needs: 'run',
    body: () => ({ role: 'editor', note: 'A second pair of eyes' }),
    ids: (f) => ({ id: f.reviewRequestExecution, stepId: f.reviewRequestStep }),
  },

  'GET /api/flows/{flowId}/logs': { access: 'owner', needs: 'read' },
  'DELETE /api/flows/{flowId}/logs': {
    access: 'owner',
    needs: 'change',
    ids: (f) => ({ flowId: f.scratchFlow }),
  },
  'GET /api/flows/{flowId}/context': { access: 'owner', needs: 'read' },
  'POST /api/flows/{flowId}/context': {
    access: 'owner',
    needs: 'change',
    // The scratch flow has no context yet (the flow has one: posting there is a 409).
    ids: (f) => ({ flowId: f.scratchFlow }),
    body: () => ({ userNotes: 'Keep it short.' }),
  },
  'PATCH /api/flows/{flowId}/context': {
    access: 'owner',
    needs: 'change',
    body: () => ({ userNotes: 'Keep it shorter.' }),
  },
  'DELETE /api/flows/{flowId}/context/rejected-ideas': { access: 'owner', needs: 'change' },

  'GET /api/user/api-keys': { access: 'caller' },
  'POST /api/user/api-keys': {
    access: 'caller',
    body: () => ({ keyName: 'Another key', apiKey: 'AIza-not-a-real-key' }),
  },
  'DELETE /api/user/api-keys/{id}': { access: 'owner', ids: (f) => ({ id: f.apiKeyToDelete }) },
  'GET /api/user/usage': { access: 'caller' },
  'GET /api/user/tokens': { access: 'caller' },
  'POST /api/user/tokens': { access: 'caller', body: () => ({ name: 'Another token', scopes: ['read'] }) },
  'DELETE /api/user/tokens/{id}': { access: 'owner', ids: (f) => ({ id: f.apiTokenToRevoke }) },
  'GET /api/models': { access: 'caller' },

  'POST /api/ai/flow-creator/improve': {
    access: 'caller',
    body: () => ({ description: 'A flow that writes blog posts about tea' }),
  },
  'POST /api/ai/flow-creator/proposal': {
    access: 'caller',
    body: () => ({ conversationHistory: 'A flow that writes blog posts about tea' }),
  },
  'POST /api/ai/generate-workflow': {
    access: 'caller',
    body: () => ({ description: 'A flow that writes blog posts about tea' }),
  },
  'POST /api/ai/create-from-json': { access: 'caller', body: () => ({ workflowJSON: workflow }) },

  'GET /api/flows/{flowId}/suggestions': { access: 'owner', needs: 'read' },
  'POST /api/flows/{flowId}/suggestions': { access: 'owner', needs: 'change' },
  'DELETE /api/flows/{flowId}/suggestions': { access: 'owner', needs: 'change' },

  'GET /api/master-mode/sessions': { access: 'caller', query: (f) => `?flowId=${f.flow}` },
  'GET /api/master-mode/session/{sessionId}': { access: 'owner' },
  'DELETE /api/master-mode/session/{sessionId}': {
    access: 'owner',
    ids: (f) => ({ sessionId: f.masterSessionToDelete }),
  },
  'GET /api/master-mode/session/{sessionId}/runs': { access: 'owner' },
  'POST /api/master-mode/standalone': {
    access: 'owner',
    needs: 'run',
    body: (f) => ({ name: 'From flow', flowId: f.flow }),
  },
  'POST /api/master-mode/import': { access: 'caller', body: () => workflow },
  'POST /api/master-mode/steps': {
    access: 'owner',
    body: (f) => ({ sessionId: f.masterSession, stepName: 'Added row', systemPrompt: 'Say hello.' }),
  },
  'PUT /api/master-mode/steps/{stepId}': { access: 'owner', body: () => ({ userInput: 'green tea' }) },
  'DELETE /api/master-mode/steps/{stepId}': {
    access: 'owner',
    ids: (f) => ({ stepId: f.masterRowToDelete }),
  },
  'POST /api/master-mode/execute/{stepId}': { access: 'owner' },
  // On a session of its own: the rows run after the answer, and must not meet the other calls' runs.
  'POST /api/master-mode/execute-all/{sessionId}': {
    access: 'owner',
    ids: (f) => ({ sessionId: f.masterSessionRunAll }),
  },
  'GET /api/master-mode/session/{sessionId}/execute-all/{runAllId}': {
    access: 'owner',
    ids: (f) => ({ sessionId: f.masterSessionRunAll, runAllId: f.executeAll }),
  },
  'POST /api/master-mode/stop/{sessionId}': { access: 'owner' },
  'POST /api/master-mode/reset/{sessionId}': { access: 'owner' },

  'GET /api/user-sessions': { access: 'caller' },
  'POST /api/user-sessions': {
    access: 'owner',
    needs: 'read',
    body: (f) => ({ sessionName: 'Saved', flowId: f.flow }),
  },
  'DELETE /api/user-sessions/{id}': { access: 'owner', ids: (f) => ({ id: f.userSessionToDelete }) },
  'POST /api/user-sessions/{id}/load': { access: 'owner' },

  'GET /api/recommendations': { access: 'caller' },
  'POST /api/recommendations/generate': { access: 'caller' },
  'GET /api/templates': { access: 'caller' },
  'GET /api/patterns': { access: 'caller' },
  'POST /api/recommendations/{id}/implement': { access: 'owner' },
  'POST /api/recommendations/{id}/feedback': {
    access: 'owner',
    body: () => ({ action: 'modified', rating: 4, feedback: 'Close to what I need.' }),
  },

  'GET /api/workspaces': { access: 'caller' },
  'POST /api/workspaces': { access: 'caller', body: () => ({ name: 'Access' }) },
  'GET /api/workspaces/{id}/members': { access: 'owner', needs: 'read' },
  'GET /api/workspaces/{id}/executions': { access: 'owner', needs: 'read' },
  'GET /api/workspaces/{id}/audit': {
    access: 'owner',
    needs: 'read',
    query: () => '?from=2000-01-01T00:00:00Z&to=2100-01-01T00:00:00Z',
  },
  'POST /api/workspaces/{id}/invitations': {
    access: 'owner',
    needs: 'manage',
    body: () => ({ email: 'invited@example.com', role: 'editor' }),
  },
  'PUT /api/workspaces/{id}/members/{userId}': {
    access: 'owner',
    needs: 'manage',
    body: () => ({ role: 'reviewer' }),
  },
  'DELETE /api/workspaces/{id}/members/{userId}': {
    access: 'owner',
    needs: 'manage',
    ids: (f) => ({ userId: f.memberToRemove }),
  },
  'GET /api/workspaces/{id}/invitations': { access: 'owner', needs: 'manage' },
  'DELETE /api/workspaces/{id}/invitations/{invitationId}': {
    access: 'owner',
    needs: 'manage',
    ids: (f) => ({ invitationId: f.invitationToRevoke }),
  },
  // Sent to the owner's address: another user's reading or acceptance of it is a 404 (read before accepted).
  'GET /api/invitations/{token}': { access: 'owner' },
  'POST /api/invitations/{token}/accept': { access: 'owner' },
  // A workspace's webhooks are its owners' alone, to list as much as to change.
  'POST /api/workspaces/{id}/webhooks': {
    access: 'owner',
    needs: 'manage',
    body: () => ({ url: `https://${TEST_WEBHOOK_HOST}/access`, events: ['*'] }),
  },
  'GET /api/workspaces/{id}/webhooks': { access: 'owner', needs: 'manage' },
  'DELETE /api/workspaces/{id}/webhooks/{hookId}': {
    access: 'owner',
    needs: 'manage',
    ids: (f) => ({ hookId: f.webhookToDelete }),
  },
  'GET /api/workspaces/{id}/webhooks/{hookId}/deliveries': { access: 'owner', needs: 'manage' },
  'POST /api/workspaces/{id}/webhooks/{hookId}/rotate-secret': { access: 'owner', needs: 'manage' },
  'POST /api/workspaces/{id}/webhooks/{hookId}/test': { access: 'owner', needs: 'manage' },
  // Its delivery to a host that never resolves is pending or failed: retried now either way.
  'POST /api/workspaces/{id}/webhooks/{hookId}/deliveries/{deliveryId}/retry': {
    access: 'owner',
    needs: 'manage',
  },
};

/** What a path parameter names, by the path it is in (`{id}` is a flow under /api/flows, and so on). */
const PARAMETERS: Array<[RegExp, Record<string, (f: Fixtures) => string>]> = [
  [/^\/api\/flows\/\{id\}/, { id: (f) => f.flow, version: () => '1' }],
  [/^\/api\/flows\/\{flowId\}/, { flowId: (f) => f.flow }],
  [/^\/api\/steps\/\{id\}$/, { id: (f) => f.step1 }],
  [/^\/api\/datasets\/\{id\}/, { id: (f) => f.dataset, itemId: (f) => f.datasetItem }],
  [/^\/api\/experiments\/\{id\}/, { id: (f) => f.experiment }],
  [/^\/api\/executions\/\{id\}/, { id: (f) => f.execution, stepId: (f) => f.step2 }],
  [/^\/api\/step-results\/\{id\}$/, { id: (f) => f.result }],
  [/^\/api\/user\/api-keys\/\{id\}$/, { id: (f) => f.apiKey }],
  [/^\/api\/user-sessions\/\{id\}/, { id: (f) => f.userSession }],
  [/^\/api\/recommendations\/\{id\}/, { id: (f) => f.recommendation }],
  [/^\/api\/master-mode\//, { sessionId: (f) => f.masterSession, stepId: (f) => f.masterRow }],
  [
    /^\/api\/workspaces\/\{id\}/,
    {
      id: (f) => f.workspace,
      userId: (f) => f.member,
      hookId: (f) => f.webhook,
      deliveryId: (f) => f.webhookDelivery,
    },
  ],
  [/^\/api\/invitations\/\{token\}/, { token: (f) => f.invitationToken }],
];

export const operationOf = (key: string) => {
  const [method, path] = key.split(' ') as [Method, string];
  return { method, path };
};

export function urlOf(key: string, f: Fixtures): string {
  const { path } = operationOf(key);
  const entry = ACCESS[key]!;
  const given = entry.ids?.(f) ?? {};
  const resolved = PARAMETERS.find(([pattern]) => pattern.test(path))?.[1] ?? {};
  const url = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = given[name] ?? resolved[name]?.(f);
    if (value === undefined) throw new Error(`no fixture for {${name}} in ${key}: add one to PARAMETERS`);
    return value;
  });
  return url + (entry.query?.(f) ?? '');
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
export const uuidsIn = (text: string) => (text.match(UUID) ?? []).map((id) => id.toLowerCase());

/** A browser: its session cookie follows the answers (a sign-in gives a new one). */
export class Browser {
  constructor(
    private readonly app: FastifyInstance,
    private cookie: string | undefined,
    /** Every id the answers named, when the browser's answers are the owner's data. */
    readonly seen?: Set<string>,
  ) {}

  async call(method: Method, url: string, body?: unknown): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({
      method,
      url,
      headers: this.cookie ? { cookie: this.cookie } : {},
      ...(body === undefined ? {} : { payload: body as object }),
    });
    const setCookie = [response.headers['set-cookie'] ?? []].flat();
    const session = setCookie.find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    if (session && this.cookie !== undefined) this.cookie = session.split(';')[0];
    for (const id of uuidsIn(response.body)) this.seen?.add(id);
    return response;
  }

  /** The call's answer, which must be `status`. */
  async made(status: number, method: Method, url: string, body?: unknown) {
    const response = await this.call(method, url, body);
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(status);
    return response.json();
  }
}

/**
 * The owner's records for the access tests, every one of them the owner's: flows (in `home` when given, else
 * the owner's own) with steps, runs, results, logs, a context and suggestions; master mode sessions, saved
 * sessions, API keys, a recommendation; a workspace (`home`, else a new one) with two more members; an
 * invitation of the owner into someone else's workspace.
 */
export async function makeFixtures(
  app: FastifyInstance,
  owner: Browser,
  ownerEmail: string,
  home: string | null,
  ownerIds: Set<string>,
): Promise<Fixtures> {
  const flowWithSteps = async (name: string, steps: string[]) => {
    const flow = await owner.made(201, 'POST', '/api/flows', {
      name,
      description: `${name} flow`,
      ...(home ? { workspaceId: home } : {}),
    });
    const ids: string[] = [];
    for (const [i, systemPrompt] of steps.entries()) {
      const step = { flowId: flow.id, name: `Step ${i + 1}`, order: i + 1, systemPrompt };
      ids.push((await owner.made(201, 'POST', '/api/steps', step)).id);
    }
    return { flow: flow.id as string, steps: ids };
  };
  const start = async (flowId: string) =>
    (await owner.made(201, 'POST', `/api/flows/${flowId}/execute`)).id as string;
  const runStep = async (executionId: string, stepId: string) => {
    const run = await owner.made(200, 'POST', `/api/executions/${executionId}/steps/${stepId}/execute`, {
      userInput: 'green tea',
    });
    return run.results[0].id as string;
  };

  const main = await flowWithSteps('Blog', ['List three ideas about tea.', 'Write a post from [[step-1]].']);
  const execution = await start(main.flow);
  const result = await runStep(execution, main.steps[0]!);
  // Approved, so the execution can be rerun from step 2 (which reuses it).
  await owner.made(200, 'PUT', `/api/step-results/${result}`, { approved: true });
  expect(await owner.made(200, 'GET', `/api/flows/${main.flow}/logs`)).not.toHaveLength(0);
  await owner.made(201, 'POST', `/api/flows/${main.flow}/context`, { userNotes: 'Tea for beginners.' });
  await owner.made(201, 'POST', `/api/flows/${main.flow}/suggestions`);
  const executionToDeleteFrom = await start(main.flow);

  const dataset = (await owner.made(201, 'POST', '/api/datasets', { name: 'Cases', flowId: main.flow }))
    .id as string;
  const datasetItem = (
    await owner.made(201, 'POST', `/api/datasets/${dataset}/items`, {
      items: [{ inputs: { [main.steps[0]!]: 'green tea' } }],
    })
  ).itemIds[0] as string;

  // Experiments of the flow over the dataset: one run of its last version's two steps, approved as they come
  // (ended, to be compared and promoted); and one waiting for the owner's approval (to be stopped).
  const flowVersion = Number(
    String((await owner.call('GET', `/api/flows/${main.flow}`)).headers.etag).replace(/\D/g, ''),
  );
  const experimentOf = async (review: string) =>
    (
      await owner.made(202, 'POST', '/api/experiments', {
        flowId: main.flow,
        flowVersion,
        datasetId: dataset,
        review: Object.fromEntries(main.steps.map((step) => [step, review])),
        scorers: [{ type: 'length', min: 1 }],
      })
    ).id as string;
  expect(flowVersion).toBe(MAIN_FLOW_VERSION);
  const experiment = await experimentOf('auto');
  const experimentToStop = await experimentOf('human');
  await vi.waitFor(
    async () => {
      expect((await owner.made(200, 'GET', `/api/experiments/${experiment}`)).status).toBe('completed');
      expect((await owner.made(200, 'GET', `/api/experiments/${experimentToStop}`)).counts.waiting).toBe(1);
    },
    { timeout: 60_000, interval: 50 },
  );

  const scratch = await flowWithSteps('Scratch', ['Say hello.', 'Say goodbye.']);
  await runStep(await start(scratch.flow), scratch.steps[0]!);
  const restored = await flowWithSteps('Restored', ['Say hello.']);

  const masterSession = await owner.made(201, 'POST', '/api/master-mode/standalone', {
    name: 'Rows of the blog',
    flowId: main.flow,
  });
  expect(masterSession.steps).toHaveLength(2);
  const masterRow = masterSession.steps[0].id as string;
  await owner.made(200, 'POST', `/api/master-mode/execute/${masterRow}`);
  const rowToDelete = await owner.made(201, 'POST', '/api/master-mode/steps', {
    sessionId: masterSession.id,
    stepName: 'Spare row',
  });

  const runAllSession = await owner.made(201, 'POST', '/api/master-mode/standalone', { name: 'Run all' });
  await owner.made(201, 'POST', '/api/master-mode/steps', {
    sessionId: runAllSession.id,
    stepName: 'Text row',
    stepType: 'text',
    userInput: 'Tea',
  });
  const ownerCall: Call = async (method, url) => {
    const response = await owner.call(method, url);
    return { status: response.statusCode, body: response.json() };
  };
  const { id: executeAll } = await executeAllToTheEnd(ownerCall, runAllSession.id);

  const savedSession = (name: string) =>
    owner.made(201, 'POST', '/api/user-sessions', { sessionName: name, flowId: main.flow });
  const apiKey = (name: string) =>
    owner.made(201, 'POST', '/api/user/api-keys', { keyName: name, apiKey: `AIza-${name}` });

  const generated = await owner.made(201, 'POST', '/api/recommendations/generate');
  expect(generated.count).toBeGreaterThan(0);
  const recommendation = generated.recommendations[0].id as string;
  // Feedback keeps it when recommendations are generated again (only untouched ones are replaced).
  await owner.made(201, 'POST', `/api/recommendations/${recommendation}/feedback`, {
    action: 'modified',
    rating: 3,
  });

  // The owner's workspace, with two members who joined by the owner's invitations.
  const workspace =
    home ?? ((await owner.made(201, 'POST', '/api/workspaces', { name: 'Access team' })).id as string);
  const joinAs = async (name: string) => {
    const member = await signUp(app, name, { remoteAddress: anotherAddress() });
    const { acceptUrl } = await owner.made(201, 'POST', `/api/workspaces/${workspace}/invitations`, {
      email: member.email,
      role: 'editor',
    });
    await new Browser(app, member.cookie).made(
      200,
      'POST',
      `/api/invitations/${new URL(acceptUrl).pathname.split('/').at(-1)}/accept`,
    );
    return member.user.id;
  };
  const member = await joinAs('Member');
  const memberToRemove = await joinAs('Leaving');
  await owner.made(200, 'GET', `/api/workspaces/${workspace}/members`);
  // A third user's workspace invites the owner: the owner's to accept.
  const third = new Browser(app, (await signUp(app, 'Third', { remoteAddress: anotherAddress() })).cookie);
  const thirdWorkspace = (await third.made(201, 'POST', '/api/workspaces', { name: 'Elsewhere' })).id;
  const { acceptUrl } = await third.made(201, 'POST', `/api/workspaces/${thirdWorkspace}/invitations`, {
    email: ownerEmail,
    role: 'auditor',
  });
  const invitationToken = new URL(acceptUrl).pathname.split('/').at(-1)!;
  ownerIds.add(invitationToken);
  const invitationToRevoke = (
    await owner.made(201, 'POST', `/api/workspaces/${workspace}/invitations`, {
      email: 'revoked@example.com',
      role: 'reviewer',
    })
  ).id as string;
  const hook = async (name: string) =>
    (
      await owner.made(201, 'POST', `/api/workspaces/${workspace}/webhooks`, {
        url: `https://${TEST_WEBHOOK_HOST}/${name}`,
        events: ['execution.completed'],
      })
    ).id as string;
  const webhook = await hook('kept');
  const webhookToDelete = await hook('deleted');
  const webhookDelivery = (
    await owner.made(202, 'POST', `/api/workspaces/${workspace}/webhooks/${webhook}/test`)
  ).deliveryId as string;

  // A step the workspace's members review (whoever of them decides, the rule names all who may review), and
  // a step without a rule, in a workspace: the flows' own, or the owner's when the flows are theirs alone.
  const reviewHome = home ?? workspace;
  const members = (
    (await owner.made(200, 'GET', `/api/workspaces/${reviewHome}/members`)) as {
      userId: string;
      role: Role;
    }[]
  ).filter((m) => roleMay(m.role, 'review'));
  const reviewFlow = await owner.made(201, 'POST', '/api/flows', {
    name: 'Reviewed',
    description: 'A flow its members review',
    workspaceId: reviewHome,
  });
  const reviewedStep = await owner.made(201, 'POST', '/api/steps', {
    flowId: reviewFlow.id,
    name: 'Reviewed',
    order: 1,
    systemPrompt: 'Say hello.',
    review: { by: 'members', userIds: members.map((m) => m.userId), selfApproval: true },
  });
  const plainStep = await owner.made(201, 'POST', '/api/steps', {
    flowId: reviewFlow.id,
    name: 'Plain',
    order: 2,
    systemPrompt: 'Say goodbye.',
  });
  const reviewRun = async (stepId: string) => {
    const executionId = await start(reviewFlow.id);
    const run = await owner.made(200, 'POST', `/api/executions/${executionId}/steps/${stepId}/execute`, {
      userInput: '',
    });
    return { executionId, reviewId: run.execution.reviews[0]?.id as string };
  };
  const reviewToApprove = (await reviewRun(reviewedStep.id)).reviewId;
  const reviewToReject = (await reviewRun(reviewedStep.id)).reviewId;
  const reviewRequestExecution = (await reviewRun(plainStep.id)).executionId;

  return {
    reviewToApprove,
    reviewToReject,
    reviewRequestExecution,
    reviewRequestStep: plainStep.id as string,
    home,
    workspace,
    member,
    memberToRemove,
    invitationToken,
    invitationToRevoke,
    webhook,
    webhookToDelete,
    webhookDelivery,
    flow: main.flow,
    dataset,
    datasetItem,
    experiment,
    experimentToStop,
    step1: main.steps[0]!,
    step2: main.steps[1]!,
    execution,
    result,
    scratchFlow: scratch.flow,
    scratchStep1: scratch.steps[0]!,
    scratchStep2: scratch.steps[1]!,
    doomedFlow: (await flowWithSteps('Doomed', [])).flow,
    restoredFlow: restored.flow,
    executionToStop: await start(main.flow),
    executionToReset: await start(main.flow),
    resultToDelete: await runStep(executionToDeleteFrom, main.steps[0]!),
    masterSession: masterSession.id,
    masterRow,
    masterRowToDelete: rowToDelete.id,
    masterSessionToDelete: (await owner.made(201, 'POST', '/api/master-mode/standalone', { name: 'Spare' }))
      .id,
    masterSessionRunAll: runAllSession.id,
    executeAll,
    userSession: (await savedSession('Working on the blog')).id,
    userSessionToDelete: (await savedSession('Spare')).id,
    apiKey: (await apiKey('first')).id,
    apiKeyToDelete: (await apiKey('spare')).id,
    apiTokenToRevoke: (await owner.made(201, 'POST', '/api/user/tokens', { name: 'Spare', scopes: ['read'] }))
      .id,
    recommendation,
  };
}
