import { describe, expect, it } from 'vitest';
import { MODEL_ID_MESSAGE } from '../model-choice';
import { createMasterStepSchema, updateMasterStepSchema } from './master-session';

const sessionId = '11111111-1111-4111-8111-111111111111';

describe("a master mode row's model", () => {
  it("is the server's default unless the new row names one, by the rule a flow step's follows", () => {
    expect(createMasterStepSchema.parse({ sessionId, stepName: 'Một' }).model).toBeNull();
    expect(
      createMasterStepSchema.parse({ sessionId, stepName: 'Một', model: ' openai:gpt-4.1-mini ' }).model,
    ).toBe('openai:gpt-4.1-mini');
    const refused = createMasterStepSchema.safeParse({ sessionId, stepName: 'Một', model: 'gpt 4' });
    expect(refused.error?.issues.map((issue) => issue.message)).toEqual([MODEL_ID_MESSAGE]);
  });

  it('is changed to another model or back to the default (null), and left alone when not named', () => {
    expect(updateMasterStepSchema.parse({ model: 'ollama:qwen3:8b' })).toEqual({ model: 'ollama:qwen3:8b' });
    expect(updateMasterStepSchema.parse({ model: null })).toEqual({ model: null });
    expect(updateMasterStepSchema.parse({ stepName: 'Hai' })).not.toHaveProperty('model');
    expect(updateMasterStepSchema.safeParse({ model: `openai:${'x'.repeat(300)}` }).success).toBe(false);
    expect(updateMasterStepSchema.safeParse({ model: 'openai:' }).success).toBe(false);
  });
});
