/** An execution's events live in the stream `execution-<executionId>`. */
export const EXECUTION_STREAM_PREFIX = 'execution-';
export const executionStreamId = (executionId: string) => `${EXECUTION_STREAM_PREFIX}${executionId}`;
