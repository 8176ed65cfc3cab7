import type { ModelAnswer, ModelProvider, ModelRequest, ModelStream } from '../../ai';
import type { SpanAttributes } from '../telemetry/gen-ai';
import { modelCallMeasured } from '../telemetry/metrics';
import { traceChat } from '../telemetry/spans';

/**
 * A model's whole answer outside a run's record (a judge's score; a call that is no run: generating a
 * workflow, the flow creator, suggestions, recommendations): traced as a `chat <model>` span and measured as
 * a run's call is, in this one place. `answer` is called at once, within the span (the provider's HTTP
 * request is its child). Its failure is thrown as it came; aborted by `signal`, it counts as stopped.
 */
export function observedAnswer(
  model: { modelId: string; provider: ModelProvider },
  request: ModelRequest,
  answer: () => Promise<ModelAnswer>,
  record?: SpanAttributes,
): Promise<ModelAnswer> {
  const started = performance.now();
  return traceChat({ ...model, request, ...(record ? { record } : {}) }, async (chat) => {
    try {
      const answered = await answer();
      chat.answered(answered);
      modelCallMeasured(model, started, 'succeeded', answered.usage);
      return answered;
    } catch (error) {
      const stopped = request.signal?.aborted === true;
      chat.failed(error, stopped ? 'stopped' : null);
      modelCallMeasured(model, started, stopped ? 'stopped' : 'failed', null, error);
      throw error;
    }
  });
}

/**
 * `provider` with each call observed (observedAnswer): the provider the calls that are no run are given.
 * Its stream is the provider's own, its `final` the observed answer.
 */
export function observedProvider(provider: ModelProvider, modelId: string): ModelProvider {
  return {
    ...provider,
    stream(request) {
      let stream: ModelStream | undefined;
      const final = observedAnswer({ modelId, provider }, request, () => {
        stream = provider.stream(request);
        return stream.final;
      });
      // The caller reads the failure from its stream's `final`, as from the provider's.
      final.catch(() => {});
      if (!stream) throw new Error('observedAnswer did not call the model at once');
      const streamed = stream;
      return { [Symbol.asyncIterator]: () => streamed[Symbol.asyncIterator](), final };
    },
  };
}
