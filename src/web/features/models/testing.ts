import type { Model } from './api/get-models';

/** Two models of two providers, as `GET /api/models` lists them: for tests of what shows a model picker. */
export const twoModels: Model[] = [
  {
    id: 'openai:gpt-4.1-mini',
    provider: 'openai',
    name: 'gpt-4.1-mini',
    capabilities: { streaming: true, structuredOutput: true },
    source: 'server',
  },
  {
    id: 'anthropic:claude-sonnet-5',
    provider: 'anthropic',
    name: 'claude-sonnet-5',
    capabilities: { streaming: true, structuredOutput: false },
    source: 'server',
  },
];
