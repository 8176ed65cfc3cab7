/**
 * Where a review is decided: the run screen of its flow, showing the execution under review (not the flow's
 * latest, which may be another one, or none of the reviewer's) with the step brought into view. The inbox
 * links here, and so do the mails about a review: one shape of the path for the browser and the server.
 */
export function reviewLink(flowId: string, executionId: string, stepId: string): string {
  const query = new URLSearchParams({ mode: 'run', execution: executionId, step: stepId });
  return `/flows/${encodeURIComponent(flowId)}?${query}`;
}

/** Where an execution is seen: the run screen of its flow, showing that execution. */
export function executionLink(flowId: string, executionId: string): string {
  const query = new URLSearchParams({ mode: 'run', execution: executionId });
  return `/flows/${encodeURIComponent(flowId)}?${query}`;
}
