/**
 * The name, group and one-line summary of every operation of the API, as the OpenAPI document gives them
 * (`operationId`, `tags`, `summary`): what a generated client calls its functions and how a reader finds
 * them. Keyed by method and route; a route without an entry fails the document's test.
 */
export interface Operation {
  operationId: string;
  tag: Tag;
  summary: string;
  /** How the operation takes part in conditional requests on the record's version (see EntityTagUse). */
  entityTag?: EntityTagUse;
}

/**
 * 'read': answers the record's ETag and honours If-None-Match (304). 'write': honours If-Match (412) and
 * answers the new ETag. 'delete': honours If-Match (412); nothing is left to tag.
 */
export type EntityTagUse = 'read' | 'write' | 'delete';

export const TAGS = {
  health: 'Whether the process and its database answer',
  auth: 'Sign-up, sign-in and the signed-in user',
  flows: 'Flows of prompt steps: create, change, export, versions',
  steps: 'The steps of a flow',
  executions: 'Runs of a flow, step by step, with their history',
  results: 'The results of step runs: edit, approve, delete',
  logs: 'The model requests of a flow',
  context: 'The AI conversation context of a flow',
  keys: 'Own API keys and the free allowance',
  tokens: 'API tokens to call this API with (Authorization: Bearer), made and revoked when signed in',
  models: 'The models a step may be answered by',
  ai: 'Flows made or improved by the model',
  suggestions: 'Suggestions for a flow from its history',
  'master-mode': 'Master mode: rows run as a sheet',
  sessions: 'Saved places to come back to',
  recommendations: 'Workflow recommendations, templates and patterns',
  workspaces: 'Workspaces, their members and invitations',
  reviews: "Reviews of a step's results by another person than the runner",
  datasets: 'Datasets of a flow: cases to run it over (inputs, expected texts, tags), versioned',
  experiments:
    'Experiments: a flow version run over a dataset version, scored, and compared version to version',
  audit: 'The signed audit log: its public key, checkpoints, proofs and bundles to check offline',
} as const;

export type Tag = keyof typeof TAGS;

const op = (operationId: string, tag: Tag, summary: string, entityTag?: EntityTagUse): Operation => ({
  operationId,
  tag,
  summary,
  ...(entityTag ? { entityTag } : {}),
});

export const OPERATIONS: Record<string, Operation> = {
  'GET /healthz': op('checkHealth', 'health', 'Whether this process answers'),
  'GET /readyz': op(
    'checkReadiness',
    'health',
    'Whether this process can serve: database, migrations, live log',
  ),
  'POST /api/auth/login': op('signIn', 'auth', 'Sign in with e-mail and password'),
  'POST /api/auth/register': op('signUp', 'auth', 'Create an account and sign in'),
  'GET /api/auth/user': op('getSignedInUser', 'auth', 'The signed-in user'),

  'GET /api/flows': op('listFlows', 'flows', 'The flows of the signed-in user, newest first'),
  'POST /api/flows': op('createFlow', 'flows', 'Create a flow'),
  'GET /api/flows/:id': op('getFlow', 'flows', 'One flow', 'read'),
  'PUT /api/flows/:id': op('updateFlow', 'flows', "Change a flow's name, description or status", 'write'),
  'DELETE /api/flows/:id': op('deleteFlow', 'flows', 'Delete a flow', 'delete'),
  'GET /api/flows/:id/export': op('exportFlow', 'flows', 'A flow as JSON, to import elsewhere'),
  'GET /api/flows/:id/verify': op(
    'verifyFlow',
    'flows',
    "Whether a flow's stored events are still the ones appended, by their hashes",
  ),
  'GET /api/flows/:id/versions': op('listFlowVersions', 'flows', "A flow's versions, newest first"),
  'GET /api/flows/:id/versions/:version': op('getFlowVersion', 'flows', 'A flow as it was at one version'),
  'POST /api/flows/:id/move': op(
    'moveFlow',
    'flows',
    "Move a flow into a workspace, to another, or back to its owner's own flows",
    'write',
  ),
  'POST /api/flows/:id/restore/:version': op(
    'restoreFlowVersion',
    'flows',
    'Make an old version the current one',
  ),

  'GET /api/flows/:flowId/steps': op('listSteps', 'steps', "A flow's steps in order", 'read'),
  'POST /api/steps': op('createStep', 'steps', 'Add a step to a flow'),
  'PUT /api/steps/:id': op('updateStep', 'steps', 'Change a step', 'write'),
  'DELETE /api/steps/:id': op('deleteStep', 'steps', 'Delete a step', 'write'),

  'POST /api/flows/:flowId/execute': op('startExecution', 'executions', 'Start an execution of a flow'),
  'GET /api/workspaces/:id/executions': op(
    'listWorkspaceExecutions',
    'executions',
    "A workspace's executions, newest first, filtered by flow, person, status and time",
  ),
  'GET /api/flows/:flowId/executions/latest': op(
    'getLatestExecution',
    'executions',
    "A flow's latest execution",
  ),
  'GET /api/flows/:flowId/executions': op(
    'listExecutions',
    'executions',
    "A flow's executions, newest first",
  ),
  'GET /api/executions/:id': op('getExecution', 'executions', 'One execution with its results', 'read'),
  'POST /api/executions/:id/steps/:stepId/execute': op(
    'runStep',
    'executions',
    'Run one step of an execution',
  ),
  'POST /api/executions/:id/stop': op('stopExecution', 'executions', "Stop an execution's running step"),
  'POST /api/executions/:id/reset': op('resetExecution', 'executions', 'Start an execution over'),
  'GET /api/executions/:id/events': op(
    'listExecutionHistory',
    'executions',
    "An execution's history, page by page",
  ),
  'GET /api/executions/:id/verify': op(
    'verifyExecution',
    'executions',
    "Whether an execution's stored events are still the ones appended, by their hashes",
  ),
  'GET /api/executions/:id/audit': op(
    'downloadExecutionAudit',
    'executions',
    "An execution's events with their hashes, as a JSON or CSV file, or as an audit bundle to check offline",
  ),
  'GET /api/audit/public-key': op(
    'getAuditPublicKey',
    'audit',
    "The audit log's public key, to check its signed checkpoints",
  ),
  'GET /api/audit/checkpoints': op(
    'listAuditCheckpoints',
    'audit',
    "The audit log's signed checkpoints, newest first",
  ),
  'GET /api/audit/checkpoints/latest': op(
    'getLatestAuditCheckpoint',
    'audit',
    "The audit log's latest signed checkpoint",
  ),
  'GET /api/audit/proofs/inclusion': op(
    'getAuditInclusionProofs',
    'audit',
    "A record's events with the proof of each in the audit log at a checkpoint",
  ),
  'GET /api/audit/proofs/consistency': op(
    'getAuditConsistencyProof',
    'audit',
    'The proof that a later checkpoint of the audit log extends an earlier one',
  ),
  'GET /api/flows/:id/audit': op(
    'downloadFlowAuditBundle',
    'audit',
    "A flow's record with its proofs in the audit log, as a file to check offline",
  ),
  'GET /api/workspaces/:id/audit': op(
    'downloadWorkspaceAuditBundle',
    'audit',
    'The runs a workspace started between two times with their proofs in the audit log, as a file to check offline',
  ),
  'GET /api/executions/:id/state': op(
    'getExecutionState',
    'executions',
    'An execution as it stood after any event',
  ),
  'POST /api/executions/:id/rerun-from/:stepId': op(
    'rerunFromStep',
    'executions',
    'A new execution from a step on',
  ),

  'PUT /api/step-results/:id': op('updateStepResult', 'results', 'Edit, label or approve a result'),
  'DELETE /api/step-results/:id': op(
    'deleteStepResult',
    'results',
    'Delete a result (kept as a rejected idea)',
  ),

  'GET /api/reviews': op(
    'listReviews',
    'reviews',
    'The reviews the signed-in user may decide, pending or done, newest first',
  ),
  'POST /api/reviews/:id/approve': op('approveReview', 'reviews', "Approve a step's results as its reviewer"),
  'POST /api/reviews/:id/reject': op(
    'rejectReview',
    'reviews',
    "Reject a step's results with a reason: the step goes back to the runner",
  ),
  'POST /api/executions/:id/steps/:stepId/review-requests': op(
    'requestReview',
    'reviews',
    "Ask other people to approve a step's latest results",
  ),
  'GET /api/executions/:id/reviews/audit': op(
    'auditReviews',
    'reviews',
    'Each review of an execution for an auditor: who was asked, who decided, what they saw, how long it took',
  ),

  'GET /api/flows/:flowId/logs': op('listRequestLogs', 'logs', "A flow's model requests, newest first"),
  'DELETE /api/flows/:flowId/logs': op('clearRequestLogs', 'logs', "Hide a flow's model requests so far"),

  'GET /api/flows/:flowId/context': op('getConversationContext', 'context', "A flow's conversation context"),
  'POST /api/flows/:flowId/context': op(
    'createConversationContext',
    'context',
    'Start the context with notes',
  ),
  'PATCH /api/flows/:flowId/context': op('updateConversationNotes', 'context', "Change the context's notes"),
  'DELETE /api/flows/:flowId/context/rejected-ideas': op(
    'clearRejectedIdeas',
    'context',
    "Leave a flow's rejected ideas so far out of its prompts",
  ),

  'GET /api/user/api-keys': op('listApiKeys', 'keys', 'Own API keys, masked'),
  'POST /api/user/api-keys': op('createApiKey', 'keys', 'Add an own API key'),
  'DELETE /api/user/api-keys/:id': op('deleteApiKey', 'keys', 'Remove an own API key'),
  'GET /api/user/usage': op('getUsage', 'keys', 'The free allowance used and left'),
  'GET /api/user/tokens': op('listApiTokens', 'tokens', 'Your API tokens, newest first (never the tokens)'),
  'POST /api/user/tokens': op('createApiToken', 'tokens', 'Make an API token: it is shown this once'),
  'DELETE /api/user/tokens/:id': op('revokeApiToken', 'tokens', 'Revoke an API token: it stops at once'),
  'POST /api/datasets': op('createDataset', 'datasets', 'Make a dataset of a flow'),
  'GET /api/datasets': op('listDatasets', 'datasets', "A flow's datasets, newest first"),
  'GET /api/datasets/:id': op(
    'getDataset',
    'datasets',
    'A dataset with its items, now or as of an earlier version',
  ),
  'PATCH /api/datasets/:id': op('renameDataset', 'datasets', 'Rename a dataset'),
  'POST /api/datasets/:id/items': op(
    'addDatasetItems',
    'datasets',
    'Add items: JSON, or a CSV file (Content-Type: text/csv)',
  ),
  'POST /api/datasets/:id/items/from-execution': op(
    'addDatasetItemFromExecution',
    'datasets',
    'Add a run of the flow as an item: its user inputs and its approved results',
  ),
  'POST /api/datasets/:id/items/:itemId/archive': op(
    'archiveDatasetItem',
    'datasets',
    'Leave an item out from this version on (it is kept)',
  ),
  'POST /api/datasets/:id/items/:itemId/restore': op(
    'restoreDatasetItem',
    'datasets',
    'Bring an archived item back',
  ),
  'POST /api/experiments': op(
    'startExperiment',
    'experiments',
    'Run a flow version over a dataset: each item as an ordinary execution (202: runs go on after)',
  ),
  'GET /api/experiments': op('listExperiments', 'experiments', "A flow's experiments, newest first"),
  'GET /api/experiments/compare': op(
    'compareExperiments',
    'experiments',
    'Experiments side by side, the first as the baseline: per item and step, and summaries (JSON or CSV)',
  ),
  'GET /api/experiments/:id': op('getExperiment', 'experiments', 'An experiment with its settings and runs'),
  'POST /api/experiments/:id/stop': op(
    'stopExperiment',
    'experiments',
    'Stop an experiment: no run starts any more, open runs are stopped',
  ),
  'POST /api/experiments/:id/score-again': op(
    'scoreExperimentAgain',
    'experiments',
    'Score the stored outputs again with the scorers named (all when none): no flow model call',
  ),
  'POST /api/experiments/:id/promote': op(
    'promoteExperiment',
    'experiments',
    "Make a completed experiment its flow's baseline",
  ),
  'GET /api/models': op('listModels', 'models', 'The models a step may name, the default first'),

  'POST /api/ai/flow-creator/improve': op('improveFlowDescription', 'ai', 'Improve a flow description'),
  'POST /api/ai/flow-creator/proposal': op('proposeFlow', 'ai', 'Propose a flow from a description'),
  'POST /api/ai/generate-workflow': op('generateWorkflow', 'ai', 'Make a flow from a conversation'),
  'POST /api/ai/create-from-json': op('importFlow', 'ai', 'Make a flow from its JSON'),

  'GET /api/flows/:flowId/suggestions': op(
    'listSuggestions',
    'suggestions',
    "A flow's suggestions, newest first",
  ),
  'POST /api/flows/:flowId/suggestions': op(
    'createSuggestions',
    'suggestions',
    'Make suggestions for a flow now',
  ),
  'DELETE /api/flows/:flowId/suggestions': op(
    'clearSuggestions',
    'suggestions',
    "Delete a flow's suggestions",
  ),

  'GET /api/master-mode/sessions': op('listMasterSessions', 'master-mode', 'Master mode sessions'),
  'GET /api/master-mode/session/:sessionId': op('getMasterSession', 'master-mode', 'A session with its rows'),
  'DELETE /api/master-mode/session/:sessionId': op('deleteMasterSession', 'master-mode', 'Delete a session'),
  'GET /api/master-mode/session/:sessionId/runs': op('listMasterRuns', 'master-mode', "A session's row runs"),
  'POST /api/master-mode/standalone': op('createMasterSession', 'master-mode', 'A session of its own'),
  'POST /api/master-mode/import': op('importFlowToMasterMode', 'master-mode', 'A session from a flow'),
  'POST /api/master-mode/steps': op('createMasterRow', 'master-mode', 'Add a row'),
  'PUT /api/master-mode/steps/:stepId': op('updateMasterRow', 'master-mode', 'Change a row'),
  'DELETE /api/master-mode/steps/:stepId': op('deleteMasterRow', 'master-mode', 'Delete a row'),
  'POST /api/master-mode/execute/:stepId': op('runMasterRow', 'master-mode', 'Run one row'),
  'POST /api/master-mode/execute-all/:sessionId': op(
    'executeAllRows',
    'master-mode',
    'Start running every row in order',
  ),
  'GET /api/master-mode/session/:sessionId/execute-all/:runAllId': op(
    'getExecuteAll',
    'master-mode',
    'How an Execute All went',
  ),
  'POST /api/master-mode/stop/:sessionId': op(
    'stopExecuteAll',
    'master-mode',
    'Stop Execute All before its next row',
  ),
  'POST /api/master-mode/reset/:sessionId': op(
    'resetMasterSession',
    'master-mode',
    "Clear every row's result",
  ),

  'GET /api/user-sessions': op('listSavedSessions', 'sessions', 'Saved sessions, the last active first'),
  'POST /api/user-sessions': op('saveSession', 'sessions', 'Save where the user is'),
  'DELETE /api/user-sessions/:id': op('deleteSavedSession', 'sessions', 'Delete a saved session'),
  'POST /api/user-sessions/:id/load': op('loadSavedSession', 'sessions', 'Go back to a saved session'),

  'GET /api/recommendations': op(
    'listRecommendations',
    'recommendations',
    'Recommendations, most urgent first',
  ),
  'POST /api/recommendations/generate': op(
    'generateRecommendations',
    'recommendations',
    'Make recommendations now',
  ),
  'GET /api/templates': op('listTemplates', 'recommendations', 'Flow templates'),
  'GET /api/patterns': op('listPatterns', 'recommendations', 'Patterns seen in the flows'),
  'POST /api/recommendations/:id/implement': op(
    'implementRecommendation',
    'recommendations',
    'Make a flow of it',
  ),
  'POST /api/recommendations/:id/feedback': op(
    'rateRecommendation',
    'recommendations',
    'Rate a recommendation',
  ),

  'GET /api/workspaces': op(
    'listWorkspaces',
    'workspaces',
    "The signed-in user's workspaces, with their role",
  ),
  'POST /api/workspaces': op('createWorkspace', 'workspaces', 'Create a workspace, as its owner'),
  'GET /api/workspaces/:id/members': op('listWorkspaceMembers', 'workspaces', "A workspace's members"),
  'POST /api/workspaces/:id/invitations': op(
    'inviteWorkspaceMember',
    'workspaces',
    'Invite someone by e-mail address (owners)',
  ),
  'GET /api/workspaces/:id/invitations': op(
    'listPendingInvitations',
    'workspaces',
    "A workspace's pending invitations, with who made each (owners)",
  ),
  'DELETE /api/workspaces/:id/invitations/:invitationId': op(
    'revokeInvitation',
    'workspaces',
    'Revoke a pending invitation (owners): its link no longer works',
  ),
  'GET /api/invitations/:token': op(
    'readInvitation',
    'workspaces',
    'The workspace, inviter, role and expiry of an invitation sent to your e-mail address',
  ),
  'POST /api/invitations/:token/accept': op(
    'acceptInvitation',
    'workspaces',
    'Accept an invitation sent to your e-mail address',
  ),
  'PUT /api/workspaces/:id/members/:userId': op(
    'changeWorkspaceMemberRole',
    'workspaces',
    "Change a member's role (owners)",
  ),
  'DELETE /api/workspaces/:id/members/:userId': op(
    'removeWorkspaceMember',
    'workspaces',
    'Remove a member (owners), or leave',
  ),
  'POST /api/workspaces/:id/webhooks': op(
    'createWebhook',
    'workspaces',
    "Add a webhook (owners): the workspace's events are POSTed to its URL, signed; its secret is shown once",
  ),
  'GET /api/workspaces/:id/webhooks': op('listWebhooks', 'workspaces', "A workspace's webhooks (owners)"),
  'DELETE /api/workspaces/:id/webhooks/:hookId': op(
    'deleteWebhook',
    'workspaces',
    'Remove a webhook (owners)',
  ),
  'GET /api/workspaces/:id/webhooks/:hookId/deliveries': op(
    'listWebhookDeliveries',
    'workspaces',
    "A webhook's last deliveries, newest first (owners)",
  ),
  'POST /api/workspaces/:id/webhooks/:hookId/rotate-secret': op(
    'rotateWebhookSecret',
    'workspaces',
    'A new secret for a webhook (owners), shown once; the one before it signs deliveries too for 24 hours',
  ),
  'POST /api/workspaces/:id/webhooks/:hookId/test': op(
    'sendTestWebhookDelivery',
    'workspaces',
    'Send a webhook.test delivery to a webhook (owners), the way every event is sent',
  ),
  'POST /api/workspaces/:id/webhooks/:hookId/deliveries/:deliveryId/retry': op(
    'retryWebhookDelivery',
    'workspaces',
    'Try a delivery not delivered again now (owners)',
  ),
};
