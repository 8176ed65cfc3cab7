// @vitest-environment jsdom
import { useQuery } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { flowQueryOptions } from '@/lib/flow-query';
import { editMode } from '../strings';
import { useCreateStep } from './create-step';
import { useUpdateFlow } from './update-flow';
import { useUpdateStep } from './update-step';

const FLOW = {
  id: 'f1',
  userId: 'u1',
  name: 'Tea',
  description: 'Tea flow',
  status: 'draft',
  isTemplate: false,
};
const STEP = { id: 's1', flowId: 'f1', name: 'Ideas' };

/**
 * The API as far as these writes need it: the flow is at `version`; a write whose If-Match names another
 * version is refused with 412, as the server does, and any other moves the flow to the next version.
 */
function fakeApi() {
  const server = {
    version: 4,
    requests: [] as { method: string; path: string; ifMatch?: string }[],
    /** While set, reads of the flow wait for it: a read on its way. */
    readsHeld: null as Promise<void> | null,
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const ifMatch = new Headers(init.headers).get('If-Match') ?? undefined;
      server.requests.push({ method, path, ...(ifMatch ? { ifMatch } : {}) });
      const tagged = (body: unknown) =>
        new Response(JSON.stringify(body), { status: 200, headers: { etag: `"${server.version}"` } });
      if (method === 'GET') {
        await server.readsHeld;
        return tagged(FLOW);
      }
      if (ifMatch !== undefined && ifMatch !== `"${server.version}"`) {
        return new Response(
          JSON.stringify({
            status: 412,
            code: 'version_mismatch',
            message: 'Changed',
            currentVersion: server.version,
          }),
          { status: 412, headers: { 'content-type': 'application/problem+json' } },
        );
      }
      server.version++;
      if (method === 'POST') return tagged({ ...STEP, id: 's2' });
      return tagged(path.startsWith('/api/steps/') ? { ...STEP, name: 'Mine' } : FLOW);
    }),
  );
  return server;
}

/** The header's Save in miniature: the flow as the tab read it, a step edit and a flow save. */
function Editor() {
  const flow = useQuery(flowQueryOptions('f1'));
  const updateStep = useUpdateStep('f1', { messageOr: 'Step failed' });
  const updateFlow = useUpdateFlow();
  const createStep = useCreateStep('f1');
  if (!flow.data) return null;
  return (
    <>
      <p>Version {flow.data.version}</p>
      <button type="button" onClick={() => updateStep.mutate({ stepId: 's1', changes: { name: 'Mine' } })}>
        Save step
      </button>
      <button type="button" onClick={() => updateFlow.mutate({ ...flow.data, name: 'Oolong' })}>
        Save flow
      </button>
      <button type="button" onClick={() => createStep.mutate()}>
        Add step
      </button>
    </>
  );
}

const writes = (server: ReturnType<typeof fakeApi>) => server.requests.filter((r) => r.method !== 'GET');
const reads = (server: ReturnType<typeof fakeApi>) => server.requests.filter((r) => r.method === 'GET');

let server: ReturnType<typeof fakeApi>;
beforeEach(() => {
  server = fakeApi();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('writes on the flow the editor last read', { timeout: 20_000 }, () => {
  it('send If-Match with the version read, then with the version each answer named', async () => {
    const user = userEvent.setup();
    render(
      <AppProvider>
        <Editor />
      </AppProvider>,
    );
    await user.click(await screen.findByRole('button', { name: 'Save step' }));
    await waitFor(() => expect(writes(server)).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Save flow' }));
    await waitFor(() => expect(writes(server)).toHaveLength(2));
    expect(writes(server)).toEqual([
      { method: 'PUT', path: '/api/steps/s1', ifMatch: '"4"' },
      { method: 'PUT', path: '/api/flows/f1', ifMatch: '"5"' },
    ]);
  });

  it('on a change made elsewhere (412) say so, read the flow again, and the next write goes on it', async () => {
    const user = userEvent.setup();
    render(
      <AppProvider>
        <Editor />
      </AppProvider>,
    );
    const saveStep = await screen.findByRole('button', { name: 'Save step' });
    // Another tab saved meanwhile.
    server.version = 6;
    await user.click(saveStep);

    expect(await screen.findByText(editMode.versionMismatch)).toBeTruthy();
    expect(screen.getByText(editMode.versionMismatchTitle)).toBeTruthy();
    expect(screen.queryByText('Step failed')).toBeNull();
    await waitFor(() => expect(reads(server)).toHaveLength(2));

    // The flow read again is at version 6: the same edit now goes through on it.
    await screen.findByText('Version 6');
    await user.click(screen.getByRole('button', { name: 'Save step' }));
    await waitFor(() => expect(server.version).toBe(7));
    expect(writes(server)).toEqual([
      { method: 'PUT', path: '/api/steps/s1', ifMatch: '"4"' },
      { method: 'PUT', path: '/api/steps/s1', ifMatch: '"6"' },
    ]);
  });

  it('after adding a step, wait for the flow read again and make the next change on the version it names', async () => {
    const user = userEvent.setup();
    render(
      <AppProvider>
        <Editor />
      </AppProvider>,
    );
    await screen.findByText('Version 4');
    let releaseReads = () => {};
    server.readsHeld = new Promise((resolve) => {
      releaseReads = resolve;
    });
    await user.click(screen.getByRole('button', { name: 'Add step' }));
    // The step is added (version 5) and the flow is being read again.
    await waitFor(() => expect(reads(server)).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: 'Save step' }));
    expect(writes(server)).toEqual([{ method: 'POST', path: '/api/steps' }]);

    releaseReads();
    await waitFor(() => expect(writes(server)).toHaveLength(2));
    expect(writes(server)[1]).toEqual({ method: 'PUT', path: '/api/steps/s1', ifMatch: '"5"' });
    expect(server.version).toBe(6);
  });
});
