import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import { buildPrompt, detectLabels, referencedResults } from './prompt';
import { aStep } from './testing';
import { type ConversationContext, DEFAULT_USER_INPUT, type StepResult } from './types';

const noConversation: ConversationContext = { userNotes: '', rejectedIdeas: '' };

let created = 0;
function aResult(stepOrder: number, text: string, fields: Partial<StepResult> = {}): StepResult {
  created++;
  return {
    id: `result-${created}`,
    executionId: 'execution-1',
    stepId: `step-${stepOrder}-id`,
    stepOrder,
    runId: `run-${created}`,
    label: 'Branch 1',
    branchName: null,
    branchPath: null,
    choiceIndex: null,
    loopIteration: null,
    result: text,
    approved: false,
    createdAt: `2025-01-01T00:00:${String(created % 60).padStart(2, '0')}.000Z`,
    ...fields,
  };
}

const research = aStep(1, { name: 'Market Research' });
const ideas = aStep(2, { name: 'Ideas' });
const later = aStep(4, { name: 'Later' });

function promptFor(
  systemPrompt: string,
  results: StepResult[],
  extra: Partial<Parameters<typeof buildPrompt>[0]> = {},
) {
  const step = aStep(3, { systemPrompt, ...extra.step });
  return buildPrompt({
    step,
    steps: [research, ideas, step, later],
    results,
    userInput: 'my input',
    conversation: noConversation,
    ...extra,
  });
}

describe('detectLabels', () => {
  it('lists each label once, trimmed, in order of first use', () => {
    expect(detectLabels('Use [[step-1]] and [[ Ideas ]], then [[step-1]] again; [[ ]] is no label')).toEqual([
      'step-1',
      'Ideas',
    ]);
    expect(detectLabels('no labels')).toEqual([]);
  });
});

describe('buildPrompt', () => {
  it('lays out the prompt, context, notes, rejected ideas and input under clear headings', () => {
    const step = aStep(3, { systemPrompt: 'Write about [[step-1]].', inputSources: [ideas.id] });
    const built = buildPrompt({
      step,
      steps: [research, ideas, step],
      results: [aResult(1, 'markets'), aResult(2, 'an idea')],
      userInput: '  be brief  ',
      conversation: { userNotes: 'Keep it short', rejectedIdeas: 'Idea X' },
    });
    expect(built.finalPrompt).toBe(
      [
        'Write about markets.',
        '## Context from Step 2: Ideas\nan idea',
        '## User notes\nKeep it short',
        '## Rejected ideas (do not repeat)\nIdea X',
        '## User input\nbe brief',
      ].join('\n\n'),
    );
    expect(built.stepLabels).toEqual({ 'step-1': 'markets' });
    expect(built.unresolvedLabels).toEqual([]);
  });

  it('resolves step-N, step_N, a result label and a step name (any case)', () => {
    const results = [aResult(1, 'markets'), aResult(2, 'named', { label: 'Shortlist' })];
    const built = promptFor(
      '[[step-1]] | [[step_2]] | [[shortlist]] | [[ market research ]] | [[IDEAS]]',
      results,
    );
    expect(built.finalPrompt.split('\n\n')[0]).toBe('markets | named | named | markets | named');
    expect(Object.keys(built.stepLabels)).toEqual([
      'step-1',
      'step_2',
      'shortlist',
      'market research',
      'IDEAS',
    ]);
  });

  it('leaves unresolved labels as written and lists them', () => {
    const built = promptFor('[[step-9]] [[nobody]] [[step-1]]', []);
    expect(built.finalPrompt.split('\n\n')[0]).toBe('[[step-9]] [[nobody]] [[step-1]]');
    expect(built.unresolvedLabels).toEqual(['step-9', 'nobody', 'step-1']);
    expect(built.stepLabels).toEqual({});
  });

  it('only earlier steps can be referenced', () => {
    const built = promptFor('[[step-4]] [[Later]] [[step-3]]', [aResult(4, 'future'), aResult(3, 'itself')]);
    expect(built.unresolvedLabels).toEqual(['step-4', 'Later', 'step-3']);
  });

  it('prefers approved results over the latest version', () => {
    const results = [
      aResult(1, 'old but approved', { approved: true }),
      aResult(1, 'newest', { runId: 'latest' }),
    ];
    expect(promptFor('[[step-1]]', results).stepLabels['step-1']).toBe('old but approved');
  });

  it('without approval takes the latest run, several results joined under their labels', () => {
    const results = [
      aResult(1, 'first version'),
      aResult(1, 'alpha', { runId: 'run-b', label: 'A' }),
      aResult(1, 'beta', { runId: 'run-b', label: 'B' }),
    ];
    expect(promptFor('[[step-1]]', results).stepLabels['step-1']).toBe('A:\nalpha\n\nB:\nbeta');
  });

  describe('unreviewed results', () => {
    it('none are reported when the referenced step has an approved result, even if newer ones wait', () => {
      const results = [
        aResult(1, 'approved', { approved: true }),
        aResult(1, 'newer, waiting', { runId: 'latest' }),
      ];
      const built = promptFor('[[step-1]]', results);
      expect(built.stepLabels['step-1']).toBe('approved');
      expect(built.unreviewedResults).toEqual([]);
    });

    it('with none approved the latest results are used, and each is reported once', () => {
      const waiting = [
        aResult(1, 'first version'),
        aResult(1, 'alpha', { runId: 'run-b', label: 'A' }),
        aResult(1, 'beta', { runId: 'run-b', label: 'B' }),
      ];
      const built = promptFor('[[step-1]] and again [[Market Research]]', waiting);
      expect(built.stepLabels['step-1']).toBe('A:\nalpha\n\nB:\nbeta');
      expect(built.unreviewedResults).toEqual([
        { resultId: waiting[1]!.id, stepId: research.id, stepOrder: 1, label: 'A' },
        { resultId: waiting[2]!.id, stepId: research.id, stepOrder: 1, label: 'B' },
      ]);
    });

    it('only the steps without an approved result are reported', () => {
      const approved = aResult(1, 'markets', { approved: true });
      const waiting = aResult(2, 'an idea');
      const built = promptFor('[[step-1]] [[step-2]]', [approved, waiting]);
      expect(built.unreviewedResults.map((use) => use.resultId)).toEqual([waiting.id]);
    });

    it('input sources and earlier loop iterations count as uses too', () => {
      const idea = aResult(2, 'an idea');
      const turn = aResult(3, 'turn 1', { loopIteration: 1, label: 'Loop 1' });
      const built = promptFor('Go', [idea, turn], {
        step: { ...aStep(3), systemPrompt: 'Go', inputSources: [ideas.id], outputMode: 'loop' },
        loopIteration: 2,
      });
      expect(built.unreviewedResults).toEqual([
        { resultId: idea.id, stepId: ideas.id, stepOrder: 2, label: 'Branch 1' },
        { resultId: turn.id, stepId: turn.stepId, stepOrder: 3, label: 'Loop 1' },
      ]);
    });
  });

  it('a loop step referenced later shows the latest run of every iteration', () => {
    const results = [
      aResult(1, 'turn 1', { loopIteration: 1, label: 'Loop 1' }),
      aResult(1, 'turn 2', { loopIteration: 2, label: 'Loop 2' }),
      aResult(1, 'turn 1 again', { loopIteration: 1, label: 'Loop 1' }),
    ];
    expect(referencedResults(results).map((r) => r.result)).toEqual(['turn 1 again', 'turn 2']);
  });

  it('input sources add earlier steps only, in step order, and skip steps without results', () => {
    const results = [aResult(1, 'markets'), aResult(2, 'an idea'), aResult(4, 'future')];
    const built = promptFor('Go', results, {
      step: { ...aStep(3), systemPrompt: 'Go', inputSources: [later.id, ideas.id, research.id, 'unknown'] },
    });
    expect(built.finalPrompt).toBe(
      [
        'Go',
        '## Context from Step 1: Market Research\nmarkets',
        '## Context from Step 2: Ideas\nan idea',
        '## User input\nmy input',
      ].join('\n\n'),
    );
  });

  it('blank input becomes the default input; blank notes add no section', () => {
    const built = promptFor('Go', [], {
      userInput: '   ',
      conversation: { userNotes: ' ', rejectedIdeas: '' },
    });
    expect(built.finalPrompt).toBe(`Go\n\n## User input\n${DEFAULT_USER_INPUT}`);
  });

  it('iteration n of a loop sees iterations 1..n-1 of the same step', () => {
    const loop = aStep(3, { outputMode: 'loop', maxLoopIterations: 4, systemPrompt: 'Improve' });
    const results = [
      aResult(3, 'draft 1', { loopIteration: 1, label: 'Loop 1' }),
      aResult(3, 'draft 2', { loopIteration: 2, label: 'Loop 2' }),
      aResult(3, 'draft 3', { loopIteration: 3, label: 'Loop 3' }),
    ];
    const built = buildPrompt({
      step: loop,
      steps: [research, ideas, loop],
      results,
      userInput: '',
      conversation: noConversation,
      loopIteration: 3,
    });
    expect(built.finalPrompt).toBe(
      [
        'Improve',
        '## Previous iterations\n### Loop 1\ndraft 1\n\n### Loop 2\ndraft 2',
        `## User input\n${DEFAULT_USER_INPUT}`,
      ].join('\n\n'),
    );
  });

  it('any label text is safe, object keys included', () => {
    const built = promptFor('[[__proto__]] [[constructor]]', []);
    expect(built.unresolvedLabels).toEqual(['__proto__', 'constructor']);
    expect(built.finalPrompt.startsWith('[[__proto__]] [[constructor]]')).toBe(true);
  });

  it('a result text with $ patterns is inserted literally', () => {
    expect(promptFor('Price: [[step-1]]', [aResult(1, "$& $1 $'")]).finalPrompt).toMatch(
      /^Price: \$& \$1 \$'/,
    );
  });
});

describe('the size of a prompt', () => {
  const results = [aResult(1, 'r'.repeat(1_000)), aResult(2, 'i'.repeat(300))];
  const template = '[[step-1]] and [[Ideas]] '.repeat(50);
  const context = { userNotes: 'n'.repeat(200), rejectedIdeas: 'old idea' };

  it('is counted before the prompt is put together: the count is the length it would have', () => {
    const built = promptFor(template, results, {
      conversation: context,
      limits: { maxPromptChars: 1_000_000, maxTextChars: 500_000 },
    });
    const size = built.finalPrompt.length;
    expect(size).toBeGreaterThan(65_000);
    expect(() =>
      promptFor(template, results, {
        conversation: context,
        limits: { maxPromptChars: size, maxTextChars: 500_000 },
      }),
    ).not.toThrow();
    expect(() =>
      promptFor(template, results, {
        conversation: context,
        limits: { maxPromptChars: size - 1, maxTextChars: 500_000 },
      }),
    ).toThrow(
      new DomainError(
        'too_large',
        `Prompt sẽ dài ${size.toLocaleString('en-US')} ký tự; giới hạn (MAX_PROMPT_CHARS) là ${(size - 1).toLocaleString('en-US')}.`,
      ),
    );
  });

  it('counts a reference repeated a million times without building the text', () => {
    const huge = '[[step-1]]'.repeat(1_000_000);
    const started = promptFor.bind(null, huge, [aResult(1, 'x'.repeat(100_000))], {
      limits: { maxPromptChars: 1_000_000, maxTextChars: 500_000 },
    });
    // 10^11 characters if it were built: a refusal, not an out-of-memory crash.
    expect(started).toThrow(/^Prompt sẽ dài 100,000,000,0\d\d ký tự/);
  });
});
