export { type AnthropicProviderOptions, createAnthropicProvider } from './anthropic-provider';
export { checkGeminiKey, type GeminiKeyCheckOptions, type KeyCheck } from './gemini-key-check';
export { createGeminiProvider, type GeminiProviderOptions } from './gemini-provider';
export {
  type ModelAnswer,
  ModelCallError,
  type ModelProvider,
  type ModelRequest,
  type ModelStream,
  type ModelUsage,
  STOPPED_MESSAGE,
} from './model-provider';
export { createOfflineProvider, type OfflineProviderOptions } from './offline-provider';
export { createOpenAIProvider, type OpenAIProviderOptions } from './openai-provider';
export { checkAnthropicKey, checkOpenAIKey, type ProviderKeyCheckOptions } from './provider-key-check';
export { type ProviderChoice, type ResolvedProvider, resolveProvider } from './resolve-provider';
export { type StructuredOutput, structuredOutputFor } from './structured-output';
export { type GenerateWorkflowOptions, generateWorkflow } from './workflow-generation';
