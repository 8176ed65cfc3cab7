// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runMode } from '@/lib/strings';
import { MESSAGES } from '../../../../../domain/execution/decide';
import type { StepResult } from '../../../../../domain/execution/types';
import { ResultEditor } from './result-card';

const result: StepResult = {
  id: 'result-1',
  executionId: 'execution-1',
  stepId: 'step-2-id',
  stepOrder: 2,
  runId: 'run-1',
  label: 'Branch 1',
  branchName: null,
  branchPath: null,
  choiceIndex: null,
  loopIteration: null,
  result: 'Trà sen Tây Hồ',
  approved: false,
  createdAt: '2025-01-02T03:04:05.000Z',
};

function renderEditor(saving = false) {
  const onSave = vi.fn<(changes: { result: string; label: string }) => void>();
  const onCancel = vi.fn<() => void>();
  render(<ResultEditor result={result} saving={saving} onSave={onSave} onCancel={onCancel} />);
  return { onSave, onCancel };
}

const textBox = () => screen.getByLabelText(runMode.resultText) as HTMLTextAreaElement;
const labelBox = () => screen.getByLabelText(runMode.resultLabel) as HTMLInputElement;
const saveButton = () => screen.getByRole('button', { name: runMode.saveResult }) as HTMLButtonElement;

afterEach(cleanup);

// Typing and clicking through user-event in jsdom takes seconds when the machine is busy.
describe('the result editor', { timeout: 20_000 }, () => {
  it('starts from the result, and saves the edited text and label', async () => {
    const user = userEvent.setup();
    const { onSave, onCancel } = renderEditor();
    expect(textBox().value).toBe('Trà sen Tây Hồ');
    expect(labelBox().value).toBe('Branch 1');
    expect(labelBox().placeholder).toBe('step_2');

    await user.clear(textBox());
    await user.type(textBox(), 'Trà ướp sen, pha nước thứ hai');
    await user.clear(labelBox());
    await user.type(labelBox(), 'Bản sửa');
    await user.click(saveButton());

    expect(onSave).toHaveBeenCalledTimes(1);
    expect(onSave).toHaveBeenCalledWith({ result: 'Trà ướp sen, pha nước thứ hai', label: 'Bản sửa' });
    expect(onCancel).not.toHaveBeenCalled();
  });

  it('cancels without saving what was typed', async () => {
    const user = userEvent.setup();
    const { onSave, onCancel } = renderEditor();

    await user.type(textBox(), ' (nháp)');
    await user.click(screen.getByRole('button', { name: runMode.cancelEdit }));

    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onSave).not.toHaveBeenCalled();
  });

  it('refuses a blank text: says why, and neither the button nor Enter saves it', async () => {
    const user = userEvent.setup();
    const { onSave } = renderEditor();

    await user.clear(textBox());
    await user.type(textBox(), '   ');

    expect(screen.getByRole('alert').textContent).toBe(MESSAGES.emptyResult);
    expect(textBox().getAttribute('aria-invalid')).toBe('true');
    expect(saveButton().disabled).toBe(true);
    await user.type(labelBox(), '{Enter}');
    expect(onSave).not.toHaveBeenCalled();

    await user.type(textBox(), 'Có nội dung');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(saveButton().disabled).toBe(false);
  });

  it('keeps Save disabled while a save is on its way', () => {
    renderEditor(true);
    expect(saveButton().disabled).toBe(true);
  });
});
