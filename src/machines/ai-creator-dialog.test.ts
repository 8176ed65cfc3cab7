import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { builtinTemplate } from '../domain/builtin-templates';
import {
  type AiCreatorEmitted,
  aiCreatorDialogMachine,
  aiCreatorPhaseOf,
  type CreatedFlow,
  type DialogWorkflow,
  readImport,
  type WorkflowSource,
} from './ai-creator-dialog';
import { type Pending, settle, waitIn } from './testing';

const generated = {
  name: 'Tuyển dụng',
  description: 'Quy trình tuyển dụng',
  steps: [
    { name: 'JD', order: 1, systemPrompt: 'Viết JD', outputMode: 'single', inputSources: [] },
    {
      name: 'Câu hỏi',
      order: 2,
      systemPrompt: 'Từ [[step-1]]',
      outputMode: 'multiple',
      inputSources: ['step-1'],
    },
  ],
} satisfies DialogWorkflow;

/** The dialog's machine with requests that wait until the test answers them, and what it emits. */
function dialog() {
  const generations: Pending<unknown, { description: string; includeTemplateHints: boolean }>[] = [];
  const creations: Pending<CreatedFlow, { workflowJSON: DialogWorkflow; source: WorkflowSource }>[] = [];
  const machine = aiCreatorDialogMachine.provide({
    actors: {
      generate: fromPromise(waitIn(generations)),
      createFlow: fromPromise(waitIn(creations)),
    },
  });
  const actor = createActor(machine).start();
  const emitted: AiCreatorEmitted[] = [];
  actor.on('*', (event) => emitted.push(event));
  const phase = () => aiCreatorPhaseOf(actor.getSnapshot());
  const context = () => actor.getSnapshot().context;
  return { actor, generations, creations, emitted, phase, context, settle };
}

/** A dialog showing the preview of `generated`. */
async function previewing() {
  const d = dialog();
  d.actor.send({ type: 'DESCRIPTION_CHANGED', description: 'Tuyển lập trình viên' });
  d.actor.send({ type: 'GENERATE' });
  d.generations[0]!.resolve({ workflow: generated });
  await d.settle();
  expect(d.phase()).toBe('preview');
  d.emitted.length = 0;
  return d;
}

describe('AI creator dialog: the Tạo AI tab', () => {
  it('starts idle with every field empty', () => {
    const { phase, context } = dialog();
    expect(phase()).toBe('idle');
    expect(context()).toEqual({
      description: '',
      workflow: null,
      templateId: null,
      importText: '',
      creating: null,
    });
  });

  it('refuses to generate from a blank description, without a request', () => {
    const { actor, generations, emitted, phase } = dialog();
    actor.send({ type: 'GENERATE' });
    actor.send({ type: 'DESCRIPTION_CHANGED', description: '  \n ' });
    actor.send({ type: 'GENERATE' });
    expect(emitted).toEqual([{ type: 'descriptionMissing' }, { type: 'descriptionMissing' }]);
    expect(generations).toHaveLength(0);
    expect(phase()).toBe('idle');
  });

  it('generates from the trimmed description with template hints, once while generating', () => {
    const { actor, generations, phase } = dialog();
    actor.send({ type: 'DESCRIPTION_CHANGED', description: '  Tuyển lập trình viên ' });
    actor.send({ type: 'GENERATE' });
    expect(phase()).toBe('generating');
    actor.send({ type: 'GENERATE' });
    actor.send({ type: 'CREATE' });
    expect(generations.map((g) => g.input)).toEqual([
      { description: 'Tuyển lập trình viên', includeTemplateHints: true },
    ]);
    expect(phase()).toBe('generating');
  });

  it('previews the generated workflow and tells its step count', async () => {
    const { actor, generations, emitted, phase, context, settle } = dialog();
    actor.send({ type: 'DESCRIPTION_CHANGED', description: 'Tuyển lập trình viên' });
    actor.send({ type: 'GENERATE' });
    generations[0]!.resolve({ workflow: generated });
    await settle();
    expect(phase()).toBe('preview');
    expect(context().workflow).toEqual(generated);
    expect(emitted).toEqual([{ type: 'generated', stepCount: 2 }]);
  });

  it('goes back idle on an answer without a workflow object (format) or without name or steps (data)', async () => {
    const cases: Array<[unknown, AiCreatorEmitted['type']]> = [
      [{}, 'responseFormatInvalid'],
      ['a text', 'responseFormatInvalid'],
      [{ workflow: 'text' }, 'responseFormatInvalid'],
      [{ workflow: { steps: generated.steps } }, 'workflowDataInvalid'],
      [{ workflow: { name: ' ', steps: generated.steps } }, 'workflowDataInvalid'],
      [{ workflow: { name: 'X', steps: [] } }, 'workflowDataInvalid'],
      [{ workflow: { name: 'X' } }, 'workflowDataInvalid'],
    ];
    for (const [answer, expected] of cases) {
      const { actor, generations, emitted, phase, context, settle } = dialog();
      actor.send({ type: 'DESCRIPTION_CHANGED', description: 'x' });
      actor.send({ type: 'GENERATE' });
      generations[0]!.resolve(answer);
      await settle();
      expect(emitted).toEqual([{ type: expected }]);
      expect(phase()).toBe('idle');
      expect(context().workflow).toBeNull();
      expect(context().description).toBe('x');
    }
  });

  it('goes back idle with the error when the request fails', async () => {
    const { actor, generations, emitted, phase, settle } = dialog();
    actor.send({ type: 'DESCRIPTION_CHANGED', description: 'x' });
    actor.send({ type: 'GENERATE' });
    const error = new Error('502: The model is busy');
    generations[0]!.reject(error);
    await settle();
    expect(emitted).toEqual([{ type: 'generateFailed', error }]);
    expect(phase()).toBe('idle');
  });

  it('creates the previewed workflow, then clears every field and tells the dialog to close', async () => {
    const { actor, creations, emitted, phase, context, settle } = await previewing();
    actor.send({ type: 'TEMPLATE_CHOSEN', templateId: 'business-strategy' });
    actor.send({ type: 'IMPORT_TEXT_CHANGED', text: '{}' });
    actor.send({ type: 'CREATE' });
    expect(phase()).toBe('creating');
    expect(creations.map((c) => c.input)).toEqual([{ workflowJSON: generated, source: 'generated' }]);
    actor.send({ type: 'CREATE' });
    actor.send({ type: 'GENERATE' });
    expect(creations).toHaveLength(1);

    creations[0]!.resolve({ id: 'f1', name: 'Tuyển dụng' });
    await settle();
    expect(emitted).toEqual([
      { type: 'created', flow: { id: 'f1', name: 'Tuyển dụng' }, source: 'generated', name: 'Tuyển dụng' },
    ]);
    expect(phase()).toBe('idle');
    expect(context()).toEqual({
      description: '',
      workflow: null,
      templateId: null,
      importText: '',
      creating: null,
    });
  });

  it('keeps the preview when creating it fails', async () => {
    const { actor, creations, emitted, phase, context, settle } = await previewing();
    actor.send({ type: 'CREATE' });
    const error = new Error('400: bad');
    creations[0]!.reject(error);
    await settle();
    expect(emitted).toEqual([{ type: 'createFailed', error }]);
    expect(phase()).toBe('preview');
    expect(context().workflow).toEqual(generated);
    expect(context().creating).toBeNull();
  });

  it('generates again from the preview, keeping the old preview when that fails', async () => {
    const { actor, generations, emitted, phase, context, settle } = await previewing();
    actor.send({ type: 'DESCRIPTION_CHANGED', description: 'Khác' });
    expect(phase()).toBe('preview');
    actor.send({ type: 'GENERATE' });
    expect(phase()).toBe('generating');
    generations[1]!.reject(new Error('boom'));
    await settle();
    expect(phase()).toBe('preview');
    expect(context().workflow).toEqual(generated);
    expect(emitted.map((e) => e.type)).toEqual(['generateFailed']);
  });

  it('does not create anything from idle when nothing is previewed', () => {
    const { actor, creations, phase } = dialog();
    actor.send({ type: 'CREATE' });
    expect(phase()).toBe('idle');
    expect(creations).toHaveLength(0);
  });
});

describe('AI creator dialog: the Template tab', () => {
  it('asks for a template when none (or an unknown one) is chosen', () => {
    const { actor, creations, emitted, phase } = dialog();
    actor.send({ type: 'CREATE_FROM_TEMPLATE' });
    actor.send({ type: 'TEMPLATE_CHOSEN', templateId: 'no-such-template' });
    actor.send({ type: 'CREATE_FROM_TEMPLATE' });
    expect(emitted).toEqual([{ type: 'templateMissing' }, { type: 'templateMissing' }]);
    expect(creations).toHaveLength(0);
    expect(phase()).toBe('idle');
  });

  it('creates the chosen built-in template, from idle or from a preview', async () => {
    for (const start of [dialog, previewing]) {
      const { actor, creations, emitted, context, phase, settle } = await start();
      actor.send({ type: 'TEMPLATE_CHOSEN', templateId: 'marketing-content' });
      actor.send({ type: 'CREATE_FROM_TEMPLATE' });
      expect(phase()).toBe('creating');
      const template = builtinTemplate('marketing-content')!.workflow;
      expect(creations[0]!.input).toEqual({ workflowJSON: template, source: 'template' });
      creations[0]!.resolve({ id: 'f2', name: template.name });
      await settle();
      expect(emitted.at(-1)).toEqual({
        type: 'created',
        flow: { id: 'f2', name: template.name },
        source: 'template',
        name: template.name,
      });
      expect(context().templateId).toBeNull();
      expect(context().workflow).toBeNull();
    }
  });
});

describe('AI creator dialog: the Import tab', () => {
  it('tells apart empty, invalid and non-workflow JSON, and creates nothing for them', () => {
    const cases: Array<[string, AiCreatorEmitted['type']]> = [
      ['', 'importEmpty'],
      ['  \n', 'importEmpty'],
      ['{"name": "x", ', 'importInvalidJson'],
      ['[1, 2]', 'importNotWorkflow'],
      ['{"name": "No steps"}', 'importNotWorkflow'],
      ['{"flows": []}', 'importNotWorkflow'],
      ['"text"', 'importNotWorkflow'],
    ];
    for (const [text, expected] of cases) {
      const { actor, creations, emitted, phase } = dialog();
      actor.send({ type: 'IMPORT_TEXT_CHANGED', text });
      actor.send({ type: 'IMPORT' });
      expect(emitted, text).toEqual([{ type: expected }]);
      expect(creations).toHaveLength(0);
      expect(phase()).toBe('idle');
    }
  });

  it('creates the first flow of a flows list, naming it in the success', async () => {
    const { actor, creations, emitted, settle } = dialog();
    const second = { ...generated, name: 'Second' };
    actor.send({ type: 'IMPORT_TEXT_CHANGED', text: JSON.stringify({ flows: [generated, second] }) });
    actor.send({ type: 'IMPORT' });
    expect(creations[0]!.input).toEqual({ workflowJSON: generated, source: 'import' });
    creations[0]!.resolve({ id: 'f3', name: generated.name });
    await settle();
    expect(emitted).toEqual([
      { type: 'created', flow: { id: 'f3', name: 'Tuyển dụng' }, source: 'import', name: 'Tuyển dụng' },
    ]);
  });

  it('imports a nameless first flow, naming it in the success as the server saved it', async () => {
    const { actor, creations, emitted, settle } = dialog();
    const { name: _, ...nameless } = generated;
    actor.send({ type: 'IMPORT_TEXT_CHANGED', text: JSON.stringify({ flows: [nameless] }) });
    actor.send({ type: 'IMPORT' });
    expect(creations[0]!.input).toEqual({ workflowJSON: nameless, source: 'import' });
    creations[0]!.resolve({ id: 'f4', name: 'Untitled' });
    await settle();
    expect(emitted).toEqual([
      { type: 'created', flow: { id: 'f4', name: 'Untitled' }, source: 'import', name: 'Untitled' },
    ]);
  });

  it('keeps the pasted text when the server refuses the workflow', async () => {
    const { actor, creations, emitted, context, phase, settle } = dialog();
    const text = JSON.stringify({ name: 'Bad', steps: [{ name: 'A' }] });
    actor.send({ type: 'IMPORT_TEXT_CHANGED', text });
    actor.send({ type: 'IMPORT' });
    const error = new Error('400: steps.0.order: expected number');
    creations[0]!.reject(error);
    await settle();
    expect(emitted).toEqual([{ type: 'createFailed', error }]);
    expect(phase()).toBe('idle');
    expect(context().importText).toBe(text);
  });
});

describe('readImport', () => {
  it('reads an object with name and steps, a flows list, and what Export JSON answers', () => {
    expect(readImport(JSON.stringify(generated))).toEqual({ kind: 'workflow', workflow: generated });
    expect(readImport(JSON.stringify({ flows: [generated] }))).toEqual({
      kind: 'workflow',
      workflow: generated,
    });
    expect(readImport(JSON.stringify({ workflow: generated }))).toEqual({
      kind: 'workflow',
      workflow: generated,
    });
    expect(readImport('null')).toEqual({ kind: 'notWorkflow' });
  });
});
