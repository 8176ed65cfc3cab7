// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { confirmations } from '@/lib/strings';
import { ConfirmDialog, useConfirm } from './confirm-dialog';

/** A button that asks first, and shows the answer it got. */
function Asker({ question }: { question: string }) {
  const confirm = useConfirm();
  const [answer, setAnswer] = useState('none');
  return (
    <>
      <button
        type="button"
        onClick={async () => {
          setAnswer('asking');
          setAnswer(String(await confirm(question)));
        }}
      >
        Ask
      </button>
      <output data-testid="answer">{answer}</output>
      <ConfirmDialog />
    </>
  );
}

afterEach(cleanup);

const answer = () => screen.getByTestId('answer').textContent;

// Typing and clicking through user-event in jsdom takes seconds when the machine is busy.
describe('the confirmation dialog', { timeout: 20_000 }, () => {
  it('asks the question, and answers yes only on its confirm button', async () => {
    const user = userEvent.setup();
    render(<Asker question="Bạn có chắc muốn xóa session này?" />);

    await user.click(screen.getByRole('button', { name: 'Ask' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByRole('heading').textContent).toBe('Bạn có chắc muốn xóa session này?');
    await user.click(within(dialog).getByRole('button', { name: confirmations.confirm }));

    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(answer()).toBe('true');
  });

  it('answers no on its cancel button and on Escape', async () => {
    const user = userEvent.setup();
    render(<Asker question="Bạn có chắc muốn xóa API key này?" />);

    await user.click(screen.getByRole('button', { name: 'Ask' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: confirmations.cancel }),
    );
    expect(answer()).toBe('false');

    await user.click(screen.getByRole('button', { name: 'Ask' }));
    await screen.findByRole('alertdialog');
    expect(answer()).toBe('asking');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(answer()).toBe('false');
  });

  it('shows the first paragraph of a longer question as its title and the rest below', async () => {
    const user = userEvent.setup();
    render(<Asker question={'Chạy lại từ step 2?\n\nMột execution mới sẽ bắt đầu.'} />);

    await user.click(screen.getByRole('button', { name: 'Ask' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByRole('heading').textContent).toBe('Chạy lại từ step 2?');
    expect(within(dialog).getByText('Một execution mới sẽ bắt đầu.')).toBeTruthy();
  });
});
