import type { FastifyInstance, FastifyRequest } from 'fastify';
import { generateWorkflow, ModelCallError, resolveProvider } from '../../ai';
import { improveDescription } from '../../ai/description-improvement';
import {
  improveRequestSchema,
  proposalRequestSchema,
  workflowDescriptionOf,
} from '../../domain/ai-flow-creator';
import { HttpError } from '../errors';
import { modelCallRateLimit } from '../model-call-rate-limit';
import { userIdOf } from '../plugins/auth';
import { ownKeyForRun } from '../usage-standing';

/**
 * The AI flow creator's two model calls: an improved description for the first message, and a workflow
 * proposal from the whole conversation. Saving the proposal is POST /api/ai/create-from-json.
 */
export async function aiFlowCreatorRoutes(
  app: FastifyInstance,
  options: { resolveModel?: typeof resolveProvider | undefined },
) {
  /** The model a step run of this user would use; past the free allowance it refuses (429) before any call. */
  const modelFor = async (request: FastifyRequest) => {
    const ownKey = await ownKeyForRun(app, userIdOf(request));
    return (options.resolveModel ?? resolveProvider)({
      ownKey,
      defaultKey: app.config.geminiApiKey,
      model: app.config.geminiModel,
      baseUrl: app.config.geminiBaseUrl,
      timeoutMs: app.config.modelTimeoutMs,
    }).provider;
  };

  /** A model that failed or answered nothing usable: 502 with its message, as a failed run answers. */
  const asked = async <T>(call: Promise<T>): Promise<T> => {
    try {
      return await call;
    } catch (error) {
      if (error instanceof ModelCallError) throw new HttpError(502, error.message, error.retryable);
      throw error;
    }
  };

  const limit = modelCallRateLimit(app.config.modelCallsPerMinute);

  app.post('/api/ai/flow-creator/improve', limit, async (request) => {
    userIdOf(request);
    const { description } = improveRequestSchema.parse(request.body);
    const provider = await modelFor(request);
    return { improvement: await asked(improveDescription(provider, description.trim())) };
  });

  app.post('/api/ai/flow-creator/proposal', limit, async (request) => {
    userIdOf(request);
    const { conversationHistory } = proposalRequestSchema.parse(request.body);
    const provider = await modelFor(request);
    return { proposal: await asked(generateWorkflow(provider, workflowDescriptionOf(conversationHistory))) };
  });
}
