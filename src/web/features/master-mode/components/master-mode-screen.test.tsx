// @vitest-environment jsdom
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Toaster } from '@/components/ui/toaster';
import { modelsQueryOptions } from '@/features/models';
import { twoModels } from '@/features/models/testing';
import { createQueryClient } from '@/lib/api-client';
import { confirmations } from '@/lib/strings';
import type { MasterSessionWithSteps, MasterStep } from '../../../../domain/master-mode/master-session';
import { masterMode } from '../strings';
import { MasterModeScreen } from './master-mode-screen';

// The live updates come over a socket: here the test pushes them.
const socket = vi.hoisted(() => ({ push: null as ((message: unknown) => void) | null }));
vi.mock('@/lib/execution-socket', () => ({
  executionSocket: () => ({
    watch: (_topic: unknown, handlers: { onMessage: (message: unknown) => void }) => {
      socket.push = handlers.onMessage;
      return () => {
        socket.push = null;
      };
    },
  }),
}));

const AT = '2025-01-02T03:04:05.000Z';

function aRow(order: number, fields: Partial<MasterStep>): MasterStep {
  return {
    id: `row-${order}`,
    sessionId: 'session-1',
    order,
    stepName: `Step ${order}`,
    userInput: '',
    result: '',
    systemPrompt: '',
    stepType: 'ai',
    isRequired: false,
    model: null,
    createdAt: AT,
    updatedAt: AT,
    ...fields,
  };
}

const session: MasterSessionWithSteps = {
  id: 'session-1',
  userId: 'user-1',
  flowId: null,
  sessionName: 'Ghi chú',
  createdAt: AT,
  updatedAt: AT,
  version: 4,
  runningStepIds: [],
  executeAll: null,
  steps: [
    aRow(1, { stepName: 'Outline', stepType: 'text', userInput: 'Trà sen', result: 'Trà sen' }),
    aRow(2, {
      stepName: 'Bài viết',
      isRequired: true,
      userInput: 'Viết từ [[row-1]]',
      result: 'Bài về trà sen',
      systemPrompt: 'Viết bài từ [[row-1]] và [[row-9]]',
    }),
  ],
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const fetchMock = vi.fn<typeof fetch>();
/** The calls that change something on the server: method and path, with the body sent. */
const writes = () =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method && init.method !== 'GET')
    .map(([url, init]) => ({
      method: init?.method,
      url,
      body: init?.body ? JSON.parse(String(init.body)) : null,
    }));

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    if (method === 'GET' && url.startsWith('/api/master-mode/session')) return json(session);
    if (method === 'PUT' && url.startsWith('/api/master-mode/steps/')) {
      const row = session.steps.find((s) => url.endsWith(s.id));
      return json({ ...row, ...JSON.parse(String(init?.body)) });
    }
    if (method === 'DELETE') return new Response(null, { status: 204 });
    return json({ message: 'not here' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const models = twoModels;

function renderScreen() {
  const client = createQueryClient();
  // The models the server offers, as read once (they change only with its configuration).
  client.setQueryData(modelsQueryOptions().queryKey, models);
  render(
    <QueryClientProvider client={client}>
      <MasterModeScreen sessionId="session-1" />
      <ConfirmDialog />
      <Toaster closeLabel="Close" />
    </QueryClientProvider>,
  );
}

/** The server pushes the end of an Execute All, as the session's stream records it. */
function pushEnded(
  runAllId: string,
  outcome: 'completed' | 'stopped' | 'failed',
  message: string | null = null,
) {
  act(() =>
    socket.push!({
      type: 'event',
      position: 9,
      event: { type: 'MasterExecuteAllEnded', data: { runAllId, outcome, message, at: AT } },
    }),
  );
}

const row = (position: number) => screen.getByTestId(`master-row-${position}`);
const cell = (position: number, column: string) =>
  within(row(position)).getByLabelText(column) as HTMLTextAreaElement;

// Typing and clicking through user-event in jsdom takes seconds when the machine is busy.
describe('the master mode grid', { timeout: 20_000 }, () => {
  it('shows one row per step with its number, name, type and its Input, Result and Prompt cells', async () => {
    renderScreen();

    expect((await screen.findByTestId('master-mode-title')).textContent).toBe('Master Mode - Ghi chú');
    expect(screen.getAllByTestId('master-row-number').map((n) => n.textContent)).toEqual(['001', '002']);
    expect(screen.getAllByTestId('master-row-name').map((n) => n.textContent)).toEqual([
      'Outline',
      'Bài viết',
    ]);
    expect(within(row(1)).getByText(masterMode.stepTypes.text)).toBeTruthy();
    expect(within(row(2)).getByText(masterMode.requiredBadge)).toBeTruthy();

    expect(cell(2, masterMode.columns.input).value).toBe('Viết từ [[row-1]]');
    expect(cell(2, masterMode.columns.result).value).toBe('Bài về trà sen');
    expect(cell(2, masterMode.columns.result).readOnly).toBe(true);
    expect(cell(2, masterMode.columns.prompt).value).toBe('Viết bài từ [[row-1]] và [[row-9]]');
    // A reference past the last row is named under the row.
    expect(within(row(2)).getByTestId('master-row-unresolved').textContent).toBe(
      masterMode.unresolvedReferences(['[[row-9]]']),
    );
    expect(within(row(1)).queryByTestId('master-row-unresolved')).toBeNull();
  });

  it('edits a cell: the row is selected, and leaving the cell saves what was typed', async () => {
    const user = userEvent.setup();
    renderScreen();
    await screen.findByTestId('master-row-2');
    expect(within(row(1)).getByTestId('master-row-select').getAttribute('aria-pressed')).toBe('true');

    const prompt = cell(2, masterMode.columns.prompt);
    await user.clear(prompt);
    // user-event reads '[[' as one typed '['.
    await user.type(prompt, 'Tóm tắt [[[[row-1]]');

    expect(prompt.value).toBe('Tóm tắt [[row-1]]');
    expect(within(row(2)).getByTestId('master-row-select').getAttribute('aria-pressed')).toBe('true');
    expect(within(row(2)).queryByTestId('master-row-unresolved')).toBeNull();
    expect(writes()).toEqual([]);

    await user.click(cell(1, masterMode.columns.input));

    await vi.waitFor(() =>
      expect(writes()).toEqual([
        { method: 'PUT', url: '/api/master-mode/steps/row-2', body: { systemPrompt: 'Tóm tắt [[row-1]]' } },
      ]),
    );
  });

  it("gives each ai row the model picker: the one picked is saved at once, the server's default as null", async () => {
    const user = userEvent.setup();
    renderScreen();
    await screen.findByTestId('master-row-2');
    // A text row has no model.
    expect(within(row(1)).queryByTestId('master-row-model-select')).toBeNull();
    const select = within(row(2)).getByLabelText('Model') as HTMLSelectElement;
    expect(select.value).toBe('');
    expect([...select.options].map((o) => o.textContent)).toEqual([
      'Mặc định của server (openai:gpt-4.1-mini)',
      'openai · gpt-4.1-mini',
      'anthropic · claude-sonnet-5',
    ]);

    await user.selectOptions(select, 'anthropic:claude-sonnet-5');
    await vi.waitFor(() =>
      expect(writes()).toEqual([
        { method: 'PUT', url: '/api/master-mode/steps/row-2', body: { model: 'anthropic:claude-sonnet-5' } },
      ]),
    );
    await vi.waitFor(() => expect(select.disabled).toBe(false));
    await user.selectOptions(select, '');
    await vi.waitFor(() =>
      expect(writes().at(-1)).toEqual({
        method: 'PUT',
        url: '/api/master-mode/steps/row-2',
        body: { model: null },
      }),
    );
  });

  it('says so when an ai row names a model this server does not offer', async () => {
    fetchMock.mockImplementation(async () =>
      json({ ...session, steps: [session.steps[0], { ...session.steps[1], model: 'ollama:qwen3' }] }),
    );
    renderScreen();
    expect((await screen.findByTestId('master-row-model-unavailable')).textContent).toBe(
      'Server này không có model ollama:qwen3: step chạy bằng model mặc định (openai:gpt-4.1-mini).',
    );
    expect((within(row(2)).getByLabelText('Model') as HTMLSelectElement).value).toBe('ollama:qwen3');
  });

  it('leaving a cell unchanged saves nothing', async () => {
    const user = userEvent.setup();
    renderScreen();
    await screen.findByTestId('master-row-2');

    await user.click(cell(1, masterMode.columns.input));
    await user.click(cell(2, masterMode.columns.input));

    expect(writes()).toEqual([]);
  });

  it('deletes the selected row only once the question is answered yes', async () => {
    const user = userEvent.setup();
    renderScreen();
    await screen.findByTestId('master-row-2');
    await user.click(within(row(2)).getByTestId('master-row-select'));

    await user.click(screen.getByTestId('master-delete-step'));
    const question = await screen.findByRole('alertdialog');
    expect(within(question).getByText(masterMode.deleteConfirm)).toBeTruthy();
    await user.click(within(question).getByRole('button', { name: confirmations.cancel }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(writes()).toEqual([]);

    await user.click(screen.getByTestId('master-delete-step'));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: confirmations.confirm }),
    );
    await vi.waitFor(() =>
      expect(writes()).toEqual([{ method: 'DELETE', url: '/api/master-mode/steps/row-2', body: null }]),
    );
  });

  it('Execute All is answered at once and follows the pushed events: Stop shows until it has ended', async () => {
    const user = userEvent.setup();
    let answer: (response: Response) => void = () => {};
    fetchMock.mockImplementationOnce(async () => json(session));
    renderScreen();
    await screen.findByTestId('master-row-2');
    fetchMock.mockImplementation(async (_input, init) => {
      if (init?.method === 'POST') return new Promise<Response>((resolve) => (answer = resolve));
      return json(session);
    });

    await user.click(screen.getByTestId('master-execute-all'));
    expect(await screen.findByTestId('master-stop')).toBeTruthy();
    // Its rows may all have run before its answer arrives: the end pushed first still ends it.
    await vi.waitFor(() => expect(socket.push).not.toBeNull());
    pushEnded('all-1', 'failed', 'Dòng 002 "Bài viết": Phép tính kết thúc quá sớm');
    expect(screen.getByTestId('master-stop')).toBeTruthy();
    answer(json({ runAllId: 'all-1', version: 5 }, 202));
    await vi.waitFor(() => expect(screen.queryByTestId('master-stop')).toBeNull());
    expect(await screen.findByText(masterMode.executeAllFailed)).toBeTruthy();
    expect(screen.getByText('Dòng 002 "Bài viết": Phép tính kết thúc quá sớm')).toBeTruthy();
    expect(writes()).toEqual([{ method: 'POST', url: '/api/master-mode/execute-all/session-1', body: null }]);

    // Another run, whose end comes after its answer; an end of someone else's run changes nothing.
    await user.click(screen.getByTestId('master-execute-all'));
    answer(json({ runAllId: 'all-2', version: 12 }, 202));
    await vi.waitFor(() => expect(writes()).toHaveLength(2));
    pushEnded('all-other', 'completed');
    expect(screen.getByTestId('master-stop')).toBeTruthy();
    pushEnded('all-2', 'completed');
    await vi.waitFor(() => expect(screen.queryByTestId('master-stop')).toBeNull());
    expect(await screen.findByText(masterMode.executeAllDone)).toBeTruthy();
  });

  it('shows Stop for an Execute All running on the server when the page opens', async () => {
    fetchMock.mockImplementation(async () =>
      json({ ...session, executeAll: { runAllId: 'all-9', startedAt: AT, stopRequested: false } }),
    );
    renderScreen();
    expect(await screen.findByTestId('master-stop')).toBeTruthy();
    expect((screen.getByTestId('master-execute-all') as HTMLButtonElement).disabled).toBe(true);
  });
});
