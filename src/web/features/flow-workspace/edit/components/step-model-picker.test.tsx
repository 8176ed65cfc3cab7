// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { modelsQueryOptions } from '@/features/models';
import { twoModels } from '@/features/models/testing';
import type { Step } from '@/lib/steps-query';
import { aFlowStep } from '../../../../../domain/execution/testing';
import { StepModelPicker } from './step-model-picker';

const step = aFlowStep(1, { id: '11111111-1111-4111-8111-111111111111', flowId: 'flow-1', name: 'Draft' });

const models = twoModels;

const fetchMock = vi.fn<typeof fetch>();
const toRequest = (input: Parameters<typeof fetch>[0], init?: RequestInit) =>
  input instanceof Request ? input : new Request(new URL(String(input), 'http://app'), init);

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (input, init) => {
    const request = toRequest(input, init);
    const body = request.url.endsWith('/api/models') ? models : step;
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/json', etag: '"4"' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderWith(shown: Step) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(modelsQueryOptions().queryKey, models);
  return render(
    <QueryClientProvider client={client}>
      <StepModelPicker step={shown} onChanged={() => {}} />
    </QueryClientProvider>,
  );
}

/** The models saved so far, in order. */
async function savedModels() {
  const sent: unknown[] = [];
  for (const [input, init] of fetchMock.mock.calls) {
    const request = toRequest(input, init);
    if (request.method === 'PUT') sent.push(((await request.json()) as { model: unknown }).model);
  }
  return sent;
}

describe("a step's model in edit mode", () => {
  it("offers the server's default and its models, and saves the one picked, or null for the default", async () => {
    renderWith(step);
    const select = screen.getByLabelText('Model') as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual([
      'Mặc định của server (openai:gpt-4.1-mini)',
      'openai · gpt-4.1-mini',
      'anthropic · claude-sonnet-5',
    ]);
    await userEvent.selectOptions(select, 'anthropic:claude-sonnet-5');
    await vi.waitFor(async () => expect(await savedModels()).toEqual(['anthropic:claude-sonnet-5']));
  });

  it('says so when the step names a model this server does not offer', async () => {
    renderWith({ ...step, model: 'ollama:qwen3' });
    expect(screen.getByTestId('step-model-unavailable').textContent).toBe(
      'Server này không có model ollama:qwen3: step chạy bằng model mặc định (openai:gpt-4.1-mini).',
    );
    const select = screen.getByLabelText('Model') as HTMLSelectElement;
    expect(select.value).toBe('ollama:qwen3');
    await userEvent.selectOptions(select, '');
    await vi.waitFor(async () => expect(await savedModels()).toEqual([null]));
  });
});
