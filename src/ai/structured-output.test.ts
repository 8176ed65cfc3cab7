import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { modelJsonSchemaOf, structuredOutputFor } from './structured-output';

describe('the JSON schema a model is asked to answer in', () => {
  it('is the input side of the zod schema the answer is read with, in the keywords Gemini takes', () => {
    const answer = z.strictObject({
      kind: z.literal('plan'),
      title: z.string().trim().min(1).max(200).describe('A short title'),
      count: z.int(),
      rating: z.int().min(1).max(5).catch(3),
      tags: z
        .array(z.string().regex(/^[a-z]+$/))
        .max(10)
        .default([]),
      note: z.string().nullable(),
    });
    expect(modelJsonSchemaOf(answer)).toEqual({
      type: 'object',
      properties: {
        kind: { type: 'string', enum: ['plan'] },
        title: { type: 'string', description: 'A short title' },
        count: { type: 'integer' },
        rating: { type: 'integer', minimum: 1, maximum: 5 },
        tags: { type: 'array', maxItems: 10, items: { type: 'string' } },
        note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
      required: ['kind', 'title', 'count', 'rating', 'note'],
      additionalProperties: false,
    });
  });

  it('asks a multiple-choice step for one of its choices, and a multiple step for named alternatives', () => {
    expect(structuredOutputFor('multiple_choice', ['Yes', 'No']).json?.schema).toEqual({
      type: 'object',
      properties: { choice: { type: 'string', enum: ['Yes', 'No'] }, reason: { type: 'string' } },
      required: ['choice'],
    });
    expect(structuredOutputFor('multiple', []).json?.schema).toEqual({
      type: 'array',
      items: {
        type: 'object',
        properties: { branchName: { type: 'string' }, content: { type: 'string' } },
        required: ['branchName', 'content'],
      },
    });
    expect(structuredOutputFor('single', []).json).toBeUndefined();
  });
});
