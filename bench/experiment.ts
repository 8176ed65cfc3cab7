import WebSocket from 'ws';
import { inTurn, ROUNDS } from './commands';
import { call, median, type Row, round, STEP_RUN_HEADERS, signUp } from './load';
import { serverEnv, startProcess } from './server-process';

// An experiment against the same executions made through the HTTP API: ITEMS dataset items over a flow of
// three steps, every step's review mode `auto`, CONCURRENCY runs at a time on both sides. Each run of the
// experiment starts an execution of the flow version, runs each step with the item's input and approves its
// result (the runner's `auto` mode); through the API a client does the same with POST .../execute, POST
// .../steps/:stepId/execute and PUT /api/step-results/:id {approved: true}. Three rounds taking turns (which
// goes first alternating) after one small uncounted pass of each; the figure is the median of the rounds'
// runs/s ratios. `BENCH_ONLY=experiment npm run bench` runs only this row.

const ITEMS = 200;
const CONCURRENCY = 8;
/** The uncounted first pass of each side: the server compiles and plans the paths of both. */
const WARM_UP_ITEMS = 16;

type Flow = { flowId: string; steps: string[]; version: number };
type Item = { inputs: Record<string, string> };

async function threeStepFlow(base: string, cookie: string): Promise<Flow> {
  const flow = await call(base, cookie, 'POST', '/api/flows', {
    name: 'Bench experiment',
    description: 'bench',
  });
  const steps: string[] = [];
  for (const [order, [name, systemPrompt, extra]] of [
    ['Ideas', 'Ideas about the topic.', { requiresUserInput: true }],
    ['Outline', 'An outline from [[step-1]].', {}],
    ['Post', 'A post from [[step-2]].', {}],
  ].entries()) {
    const step = await call(base, cookie, 'POST', '/api/steps', {
      flowId: flow.id,
      name,
      order: order + 1,
      systemPrompt,
      ...(extra as object),
    });
    steps.push(step.id);
  }
  const read = await fetch(`${base}/api/flows/${flow.id}`, { headers: { cookie } });
  if (!read.ok) throw new Error(`GET flow: ${read.status}`);
  const version = Number(String(read.headers.get('etag')).replace(/\D/g, ''));
  return { flowId: flow.id, steps, version };
}

/** A dataset of `count` items, each with a topic as the first step's input. */
async function dataset(base: string, cookie: string, flow: Flow, count: number) {
  const made = await call(base, cookie, 'POST', '/api/datasets', {
    name: `Bench ${count}`,
    flowId: flow.flowId,
  });
  const items: Item[] = Array.from({ length: count }, (_, i) => ({
    inputs: { [flow.steps[0]!]: `topic ${i + 1} of the benchmark` },
  }));
  for (let at = 0; at < items.length; at += 500)
    await call(base, cookie, 'POST', `/api/datasets/${made.id}/items`, { items: items.slice(at, at + 500) });
  return { datasetId: made.id as string, items };
}

/** An experiment of the dataset, every step `auto`: seconds from its POST to its ExperimentCompleted event. */
async function runExperiment(base: string, cookie: string, flow: Flow, datasetId: string, count: number) {
  const socket = new WebSocket(`${base.replace('http', 'ws')}/api/ws`, {
    headers: { cookie },
    perMessageDeflate: false,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const started = performance.now();
    const experiment = await call(base, cookie, 'POST', '/api/experiments', {
      flowId: flow.flowId,
      flowVersion: flow.version,
      datasetId,
      review: Object.fromEntries(flow.steps.map((id) => [id, 'auto'])),
      concurrency: CONCURRENCY,
    });
    await new Promise<void>((resolve, reject) => {
      socket.on('message', (raw) => {
        const message = JSON.parse(String(raw));
        if (message.type === 'error') reject(new Error(`experiment socket: ${message.message}`));
        if (message.type !== 'event') return;
        if (message.event?.type === 'ExperimentCompleted') resolve();
        if (message.event?.type === 'ExperimentStopped') reject(new Error('the experiment stopped'));
      });
      socket.once('close', () => reject(new Error('the experiment socket closed')));
      socket.send(JSON.stringify({ type: 'subscribe', experimentId: experiment.id, after: 0 }));
    });
    const seconds = (performance.now() - started) / 1000;
    const view = await call(base, cookie, 'GET', `/api/experiments/${experiment.id}`);
    if (view.counts.completed !== count)
      throw new Error(`the experiment completed ${view.counts.completed} of ${count} runs`);
    // How many runs were under way on average, from the first run's start to the last one's end (at most
    // the concurrency): what the runner leaves of the concurrency unused while it starts and ends runs.
    const runs = view.runs as { startedAt: string; finishedAt: string }[];
    const from = Math.min(...runs.map((run) => Date.parse(run.startedAt)));
    const to = Math.max(...runs.map((run) => Date.parse(run.finishedAt)));
    const busy = runs.reduce((sum, run) => sum + Date.parse(run.finishedAt) - Date.parse(run.startedAt), 0);
    return { seconds, runsInFlight: round(busy / (to - from), 1), experimentId: experiment.id as string };
  } finally {
    socket.terminate();
  }
}

/**
 * The same executions through the API, CONCURRENCY clients: each starts an execution, then runs every step
 * with the item's input and approves the step's results, as an experiment's `auto` run does. Seconds in all.
 */
async function runThroughApi(base: string, cookie: string, flow: Flow, items: Item[]) {
  let next = 0;
  let last = '';
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) {
        const item = items[next++]!;
        const execution = await call(base, cookie, 'POST', `/api/flows/${flow.flowId}/execute`);
        last = execution.id;
        for (const stepId of flow.steps) {
          const ran = await call(
            base,
            cookie,
            'POST',
            `/api/executions/${execution.id}/steps/${stepId}/execute`,
            { userInput: item.inputs[stepId] ?? '' },
            STEP_RUN_HEADERS,
          );
          for (const result of ran.results as { id: string; approved: boolean }[])
            if (!result.approved)
              await call(base, cookie, 'PUT', `/api/step-results/${result.id}`, { approved: true });
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  // Its results approved, the last execution made has completed, as each of the experiment's runs has.
  const { status } = await call(base, cookie, 'GET', `/api/executions/${last}`);
  if (status !== 'completed') throw new Error(`an execution through the API ended ${status}`);
  return seconds;
}

/** The experiment row: runs/s of an experiment against the same executions through the API. */
export async function benchExperiment(databaseUrl: string) {
  const server = startProcess(['src/api/server.ts'], serverEnv(databaseUrl), { cpuUsage: true });
  try {
    const base = await server.url;
    const cookie = await signUp(base);
    const flow = await threeStepFlow(base, cookie);
    const warm = await dataset(base, cookie, flow, WARM_UP_ITEMS);
    const full = await dataset(base, cookie, flow, ITEMS);

    const sides = {
      experiment: (d: typeof full) => runExperiment(base, cookie, flow, d.datasetId, d.items.length),
      api: async (d: typeof full) => ({
        seconds: await runThroughApi(base, cookie, flow, d.items),
        experimentId: undefined,
      }),
    };
    await sides.experiment(warm);
    await sides.api(warm);

    type Figures = { runsPerSecond: number; cpuMsPerRun: number; runsInFlight?: number };
    const experimentIds: string[] = [];
    const rounds: { experiment: Figures; api: Figures; ratio: number }[] = [];
    for (let n = 0; n < ROUNDS; n++) {
      const figures: Partial<Record<'experiment' | 'api', Figures>> = {};
      for (const [, side] of inTurn(['experiment', 'api'] as const, n)) {
        const cpuBefore = await server.cpuMs();
        const { seconds, experimentId, ...more } = await sides[side](full);
        if (experimentId) experimentIds.push(experimentId);
        const cpuMs = (await server.cpuMs()) - cpuBefore;
        figures[side] = {
          runsPerSecond: round(ITEMS / seconds, 1),
          cpuMsPerRun: round(cpuMs / ITEMS, 2),
          ...more,
        };
      }
      const { experiment, api } = figures as Record<'experiment' | 'api', Figures>;
      rounds.push({ experiment, api, ratio: round(experiment.runsPerSecond / api.runsPerSecond, 2) });
    }
    const ratio = median(rounds.map((r) => r.ratio));
    const each = (pick: (r: (typeof rounds)[number]) => number) => rounds.map(pick).join(' / ');
    const rows: Row[] = [
      {
        figure: `experiment vs the same executions through the API: ${ITEMS} items x 3 steps, auto, concurrency ${CONCURRENCY}, runs/s (median of 3 rounds)`,
        value:
          `${ratio}x (rounds ${each((r) => r.ratio)}; experiment ${each((r) => r.experiment.runsPerSecond)} runs/s, ` +
          `API ${each((r) => r.api.runsPerSecond)}); server CPU a run: experiment ${each((r) => r.experiment.cpuMsPerRun)} ms, ` +
          `API ${each((r) => r.api.cpuMsPerRun)}; the experiment's runs in flight ${each((r) => r.experiment.runsInFlight!)} of ${CONCURRENCY}`,
        target: '>= 0.8x',
        met: ratio >= 0.8,
      },
    ];
    const compare = await comparePages(base, cookie, experimentIds.slice(-2));
    rows.push({
      figure: `experiments' comparison, two of ${ITEMS} items x 3 steps: its first page, then the median of the pages after it (50 rows a page)`,
      value: `first ${compare.firstMs} ms, then ${compare.laterMs} ms a page (${compare.pages} pages)`,
      target: 'report',
      met: null,
    });
    return {
      rows,
      results: { items: ITEMS, steps: 3, concurrency: CONCURRENCY, ratio, rounds, compare },
    };
  } finally {
    await server.stop();
  }
}

/** Every page of two experiments' comparison, one after another: the first page's time and the later ones'. */
async function comparePages(base: string, cookie: string, ids: string[]) {
  const times: number[] = [];
  let cursor: string | null = null;
  do {
    const started = performance.now();
    const query = `ids=${ids.join(',')}&limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = await call(base, cookie, 'GET', `/api/experiments/compare?${query}`);
    times.push(performance.now() - started);
    cursor = page.nextCursor ?? null;
  } while (cursor);
  return { pages: times.length, firstMs: round(times[0]!, 1), laterMs: round(median(times.slice(1)), 1) };
}
