// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import type { Execution } from '@/lib/execution-stream';
import { runMode, whyDisabled } from '@/lib/strings';
import { MESSAGES } from '../../../../../domain/execution/decide';
import { aFlowStep, aStep, executionStarted, fold, ranStep } from '../../../../../domain/execution/testing';
import type { ExecutionEvent } from '../../../../../domain/execution/types';
import type { Step } from '../../../../../domain/flow';
import { quickRunMachine } from '../../../../../machines/quick-run';
import { StepCard } from './step-card';

const outline = aFlowStep(1, { name: 'Dàn ý' });
const article = aFlowStep(2, { name: 'Bài viết', requiresUserInput: true });
const steps = [outline, article];

/** The execution after these events, as the server answers it. */
function executionOf(events: ExecutionEvent[]): Execution {
  return { ...fold(events), version: events.length };
}

/** Step 1 ran: the execution stands at step 2, which waits for the user's input. */
const atArticle = executionOf([
  executionStarted(
    [aStep(1, { name: 'Dàn ý' }), aStep(2, { name: 'Bài viết', requiresUserInput: true })],
    ['cache-1', 'cache-2'],
  ),
  ...ranStep(aStep(1, { name: 'Dàn ý' }), 'run-1', 'cache-1', 'result-1', 'Mở bài, thân bài, kết bài'),
]);

/** The step card as the run screen holds it: the Input box's text lives above the card. */
function Harness({ step, execution }: { step: Step; execution: Execution | null }) {
  const [input, setInput] = useState('');
  const [quickRun] = useState(() => createActor(quickRunMachine).start());
  return (
    <StepCard
      step={step}
      steps={steps}
      isFirst={step.order === 1}
      execution={execution}
      executionLoading={false}
      streaming={{}}
      input={input}
      onInputChange={setInput}
      quickRun={quickRun}
    />
  );
}

function renderCard(step: Step, execution: Execution | null) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(
    <QueryClientProvider client={client}>
      <Harness step={step} execution={execution} />
    </QueryClientProvider>,
  );
}

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// Typing and clicking through user-event in jsdom takes seconds when the machine is busy.
describe('the run-mode step card', { timeout: 20_000 }, () => {
  it('tells that the step waits for input, and keeps Execute disabled with the reason until input is typed', async () => {
    const user = userEvent.setup();
    renderCard(article, atArticle);

    expect(screen.getByTestId('step-card-2').dataset.status).toBe('input');
    expect(screen.getByRole('status')).toHaveProperty('textContent', runMode.waitingInputText);
    const execute = screen.getByTestId('execute-step-2') as HTMLButtonElement;
    expect(execute.disabled).toBe(true);
    expect(execute.title).toBe(whyDisabled.needsInput);
    expect(execute.textContent).toBe(runMode.needsInput);

    await user.type(screen.getByTestId('step-input-2'), 'Viết về trà sen');

    expect(execute.disabled).toBe(false);
    expect(execute.title).toBe('');
    expect(execute.textContent).toBe(runMode.execute);
  });

  it('shows the results of a step that ran, and runs it again with what is typed', async () => {
    const user = userEvent.setup();
    const rerun = executionOf([
      ...ranStep(aStep(1, { name: 'Dàn ý' }), 'run-2', null, 'result-2', 'Dàn ý mới'),
    ]);
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ execution: { ...atArticle, ...rerun, version: 5 }, results: [] }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
    );
    renderCard(outline, atArticle);

    expect(screen.getByTestId('step-card-1').dataset.status).toBe('completed');
    expect(screen.getByTestId('step-results-1').textContent).toContain('Mở bài, thân bài, kết bài');
    const execute = screen.getByTestId('execute-step-1') as HTMLButtonElement;
    expect(execute.textContent).toBe(runMode.rerun);

    await user.type(screen.getByTestId('step-input-1'), 'Ngắn hơn');
    await user.click(execute);

    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe(`/api/executions/${atArticle.id}/steps/${outline.id}/execute`);
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ userInput: 'Ngắn hơn' });
  });

  it('on a stopped execution says so, and Execute gives that as the reason it is disabled', () => {
    const stopped = executionOf([
      executionStarted([aStep(1, { name: 'Dàn ý' }), aStep(2)], ['cache-1', 'cache-2']),
      { type: 'ExecutionStopped', data: { at: '2025-01-02T03:05:00.000Z' } },
    ]);
    renderCard(outline, stopped);

    expect(screen.getByTestId('step-stopped-1').textContent).toBe(MESSAGES.stopped);
    const execute = screen.getByTestId('execute-step-1') as HTMLButtonElement;
    expect(execute.disabled).toBe(true);
    expect(execute.title).toBe(MESSAGES.stopped);
    expect(execute.dataset.disabledReason).toBe(MESSAGES.stopped);
  });

  it('opens and closes on its header', async () => {
    const user = userEvent.setup();
    renderCard(article, null);

    const header = screen.getByTestId('step-header-2');
    expect(header.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByTestId('execute-step-2')).toBeNull();
    await user.click(header);
    expect(header.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByTestId('execute-step-2')).toBeTruthy();
  });
});
