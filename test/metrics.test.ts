import type { AddressInfo } from 'node:net';
import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { ModelProvider } from '../src/ai';
import { OFFLINE_PROVIDER_NAME } from '../src/api/telemetry/gen-ai';
import { type Mailbox, mailbox } from './support/mailbox';
import { anotherInstance, createTestApp, type TestApp } from './support/test-app';
import { receiver } from './support/webhook-receiver';
import { ok, type Person, type ReviewTeam, reviewTeam } from './support/workspace-people';

/**
 * The Prometheus metrics at GET /metrics: refused without METRICS_TOKEN, Prometheus text a parser reads, every
 * metric with its type, counters and histograms that move as a flow's steps run, a review waits and is decided
 * or expires, a webhook is delivered, a mail is sent and a rate limit refuses; no series labelled with an id;
 * off, a 404; with METRICS_PORT, on its own port and not on the app's.
 */

const TOKEN = 'metrics-scrape-token-for-tests';
const WAIT = { timeout: 25_000, interval: 250 };
/** Text of a step's prompt: it must never reach a label. */
const PROMPT = 'Plan the tea party for Mai';
const MODEL = 'metered-model';

/** A model that answers at once and tells its tokens, as a provider's API does. */
const meteredModel: ModelProvider = {
  kind: 'offline',
  model: MODEL,
  stream() {
    const text = 'A plan.';
    return Object.assign(
      (async function* () {
        yield text;
      })(),
      { final: Promise.resolve({ text, usage: { inputTokens: 120, outputTokens: 30 } }) },
    );
  },
};

let t: TestApp;
let box: Mailbox;
let hooks: Awaited<ReturnType<typeof receiver>>;

beforeAll(async () => {
  box = await mailbox();
  hooks = await receiver(() => '', { failFirst: false });
  t = await createTestApp(
    {
      smtpUrl: box.url,
      webhookHosts: [hooks.host],
      queuePollSeconds: 0.5,
      freeStepAllowance: 1_000,
      modelCallsPerMinute: 3,
      metrics: { serve: 'app-port', token: TOKEN },
    },
    { resolveModel: () => ({ provider: meteredModel, keySource: 'offline' }) },
  );
}, 60_000);
afterAll(async () => {
  await t?.close();
  await box?.close();
  await hooks?.close();
});

/** One series of a scrape, as its line gives it: its name (with a histogram's suffix), labels and value. */
interface Series {
  name: string;
  labels: Record<string, string>;
  value: number;
}

interface Scrape {
  /** The families as the Prometheus text parser reads them: names, HELP and TYPE. */
  families: Map<string, PrometheusFamily>;
  /**
   * Every series line. The parser folds a histogram's labelled series into one, so counts by label are read
   * from the lines themselves.
   */
  series: Series[];
}

const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;

function seriesOf(text: string): Series[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
      expect(match, line).not.toBeNull();
      const [, name, labels = '', value] = match!;
      return {
        name: name!,
        labels: Object.fromEntries([...labels.matchAll(LABEL)].map(([, key, text]) => [key!, text!])),
        value: Number(value),
      };
    });
}

async function scrape(): Promise<Scrape> {
  const response = await t.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return {
    families: new Map(parsePrometheusTextFormat(response.body).map((family) => [family.name, family])),
    series: seriesOf(response.body),
  };
}

const matches = (labels: Record<string, string>, wanted: Record<string, string>) =>
  Object.entries(wanted).every(([name, value]) => labels[name] === value);

/**
 * The sum over the series of `name` matching `labels`: their values, or for a histogram their counts (or with
 * `part: 'sum'`, their sums).
 */
function total(
  scraped: Scrape,
  name: string,
  labels: Record<string, string> = {},
  part: 'count' | 'sum' = 'count',
): number {
  const family = scraped.families.get(name);
  expect(family, `${name} is scraped`).toBeDefined();
  const line = family!.type === 'HISTOGRAM' ? `${name}_${part}` : name;
  return scraped.series
    .filter((series) => series.name === line && matches(series.labels, labels))
    .reduce((sum, series) => sum + series.value, 0);
}

async function twoStepFlow(team: ReviewTeam) {
  const flow = ok(
    await team.owner.client.post('/api/flows', {
      name: 'Tea party',
      description: 'Plan',
      workspaceId: team.workspaceId,
    }),
    201,
  );
  const steps: string[] = [];
  for (const [order, systemPrompt] of [
    [1, PROMPT],
    [2, 'Polish [[step-1]].'],
  ] as const) {
    const step = ok(
      await team.owner.client.post('/api/steps', {
        flowId: flow.id,
        name: `Step ${order}`,
        order,
        systemPrompt,
      }),
      201,
    );
    steps.push(step.id);
  }
  const execution = ok(await team.runner.client.post(`/api/flows/${flow.id}/execute`), 201);
  return { executionId: execution.id as string, steps };
}

const runStep = (person: Person, executionId: string, stepId: string) =>
  person.client.post(`/api/executions/${executionId}/steps/${stepId}/execute`, { userInput: 'go' });

describe('GET /metrics on the app port, behind METRICS_TOKEN', () => {
  it('is refused without the token, with another one, or with another scheme (401, naming the scheme)', async () => {
    for (const authorization of [undefined, 'Bearer not-the-token-at-all', `Basic ${TOKEN}`, 'Bearer']) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(response.statusCode, authorization).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(response.body).not.toContain('workbench_');
    }
  });

  it('answers Prometheus text with every metric, its type, and its unit in its name', async () => {
    const scraped = await scrape();
    const expected: [string, PrometheusFamily['type']][] = [
      ['gen_ai_client_token_usage', 'HISTOGRAM'],
      ['gen_ai_client_operation_duration_seconds', 'HISTOGRAM'],
      ['workbench_model_calls_total', 'COUNTER'],
      ['workbench_step_runs_total', 'COUNTER'],
      ['workbench_event_append_duration_seconds', 'HISTOGRAM'],
      ['workbench_commands_retried_total', 'COUNTER'],
      ['workbench_projection_lag_events', 'GAUGE'],
      ['workbench_websocket_connections', 'GAUGE'],
      ['workbench_websocket_messages_sent_total', 'COUNTER'],
      ['workbench_reviews_pending', 'GAUGE'],
      ['workbench_review_wait_seconds', 'HISTOGRAM'],
      ['workbench_reviews_expired_total', 'COUNTER'],
      ['workbench_webhook_deliveries_total', 'COUNTER'],
      ['workbench_mails_total', 'COUNTER'],
      ['workbench_job_queue_depth', 'GAUGE'],
      ['workbench_rate_limit_refusals_total', 'COUNTER'],
      ['workbench_ready', 'GAUGE'],
      ['workbench_not_ready_reason', 'GAUGE'],
      // Node's process metrics.
      ['process_cpu_seconds_total', 'COUNTER'],
      ['process_resident_memory_bytes', 'GAUGE'],
      ['nodejs_eventloop_lag_seconds', 'GAUGE'],
    ];
    for (const [name, type] of expected) expect(scraped.families.get(name)?.type, name).toBe(type);
    // Every queue of the job queue has its depth, 0 when nothing waits.
    const queues = scraped.series.filter((series) => series.name === 'workbench_job_queue_depth');
    expect(queues.map((series) => series.labels.queue)).toEqual(
      expect.arrayContaining(['review-due', 'review-mail']),
    );
    expect(total(scraped, 'workbench_ready')).toBe(1);
    expect(total(scraped, 'workbench_not_ready_reason')).toBe(0);
    expect(scraped.families.get('workbench_not_ready_reason')!.metrics.map((s) => s.labels?.reason)).toEqual([
      'database',
      'migrations',
      'live updates',
      'clock',
      'draining',
    ]);
    expect(total(scraped, 'workbench_projection_lag_events')).toBeGreaterThanOrEqual(0);
  });

  it("moves as a flow's two steps run, a review waits and is approved, a webhook is delivered and mails are sent", async () => {
    const team = await reviewTeam(t.app, 'Metrics');
    ok(
      await team.owner.client.post(`/api/workspaces/${team.workspaceId}/webhooks`, {
        url: `http://${hooks.host}/hook`,
        events: ['*'],
      }),
      201,
    );
    const { executionId, steps } = await twoStepFlow(team);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/ws`, {
      headers: { cookie: team.runner.client.cookie },
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const before = await scrape();
    expect(total(before, 'workbench_websocket_connections')).toBe(1);
    socket.send(JSON.stringify({ type: 'subscribe', executionId }));

    for (const stepId of steps) ok(await runStep(team.runner, executionId, stepId));
    const review = ok(
      await team.runner.client.post(`/api/executions/${executionId}/steps/${steps[1]}/review-requests`, {
        userIds: [team.ana.id],
      }),
      201,
    );
    const waiting = await scrape();
    expect(total(waiting, 'workbench_reviews_pending')).toBe(total(before, 'workbench_reviews_pending') + 1);
    ok(await team.ana.client.post(`/api/reviews/${review.id}/approve`, {}));

    const delta = (after: Scrape, name: string, labels: Record<string, string> = {}) =>
      total(after, name, labels) - total(before, name, labels);
    const after = await scrape();
    expect(delta(after, 'workbench_step_runs_total', { outcome: 'succeeded' })).toBe(2);
    expect(
      delta(after, 'workbench_model_calls_total', {
        provider: 'offline',
        model: MODEL,
        outcome: 'succeeded',
      }),
    ).toBe(2);
    const chat = {
      gen_ai_operation_name: 'chat',
      // As the chat spans name it.
      gen_ai_provider_name: OFFLINE_PROVIDER_NAME,
      gen_ai_request_model: MODEL,
    };
    expect(delta(after, 'gen_ai_client_operation_duration_seconds', chat)).toBe(2);
    const failedCalls = after.series.filter(
      (series) =>
        series.name.startsWith('gen_ai_client_operation_duration_seconds') && 'error_type' in series.labels,
    );
    expect(failedCalls).toEqual([]);
    expect(delta(after, 'gen_ai_client_token_usage', { ...chat, gen_ai_token_type: 'input' })).toBe(2);
    expect(delta(after, 'gen_ai_client_token_usage', { ...chat, gen_ai_token_type: 'output' })).toBe(2);
    const output = { ...chat, gen_ai_token_type: 'output' };
    expect(
      total(after, 'gen_ai_client_token_usage', output, 'sum') -
        total(before, 'gen_ai_client_token_usage', output, 'sum'),
    ).toBe(60);
    expect(delta(after, 'workbench_event_append_duration_seconds')).toBeGreaterThanOrEqual(4);
    expect(delta(after, 'workbench_review_wait_seconds', { outcome: 'approved' })).toBe(1);
    expect(total(after, 'workbench_reviews_pending')).toBe(total(before, 'workbench_reviews_pending'));
    expect(delta(after, 'workbench_websocket_messages_sent_total')).toBeGreaterThan(0);
    // The convention's bucket boundaries.
    const bounds = (name: string) => [
      ...new Set(after.series.filter((series) => series.name === `${name}_bucket`).map((s) => s.labels.le)),
    ];
    expect(bounds('gen_ai_client_token_usage')).toEqual(
      [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864]
        .map(String)
        .concat('+Inf'),
    );
    expect(bounds('gen_ai_client_operation_duration_seconds')).toEqual(
      [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92]
        .map(String)
        .concat('+Inf'),
    );

    // Webhook deliveries and mails are worked by the job queue, soon after.
    await vi.waitFor(async () => {
      const later = await scrape();
      expect(delta(later, 'workbench_webhook_deliveries_total', { outcome: 'delivered' })).toBeGreaterThan(0);
      expect(delta(later, 'workbench_mails_total', { outcome: 'sent' })).toBeGreaterThan(0);
    }, WAIT);
    socket.close();
    await vi.waitFor(
      async () => expect(total(await scrape(), 'workbench_websocket_connections')).toBe(0),
      WAIT,
    );
  });

  it('counts a review that expired at its due time, with its wait', async () => {
    const team = await reviewTeam(t.app, 'Expiry');
    const { executionId, steps } = await twoStepFlow(team);
    ok(await runStep(team.runner, executionId, steps[0]!));
    const before = await scrape();
    ok(
      await team.runner.client.post(`/api/executions/${executionId}/steps/${steps[0]}/review-requests`, {
        role: 'reviewer',
        dueAt: new Date(Date.now() + 3_000).toISOString(),
        onDue: 'fail',
      }),
      201,
    );
    await vi.waitFor(async () => {
      const after = await scrape();
      expect(
        total(after, 'workbench_reviews_expired_total') - total(before, 'workbench_reviews_expired_total'),
      ).toBe(1);
      expect(
        total(after, 'workbench_review_wait_seconds', { outcome: 'expired' }) -
          total(before, 'workbench_review_wait_seconds', { outcome: 'expired' }),
      ).toBe(1);
    }, WAIT);
  });

  it('counts the model calls that are not runs too (a workflow generated from a description)', async () => {
    const team = await reviewTeam(t.app, 'Generate');
    const before = await scrape();
    const generated = await team.owner.client.post('/api/ai/generate-workflow', {
      description: 'A plan for a tea party',
    });
    // The model here answers plain text, which is no workflow (502): the call was made all the same.
    expect(generated.statusCode, generated.body).toBe(502);
    const after = await scrape();
    const calls = (scraped: Scrape) => total(scraped, 'workbench_model_calls_total', { model: MODEL });
    expect(calls(after) - calls(before)).toBeGreaterThanOrEqual(1);
    const chat = { gen_ai_operation_name: 'chat', gen_ai_request_model: MODEL };
    expect(
      total(after, 'gen_ai_client_operation_duration_seconds', chat) -
        total(before, 'gen_ai_client_operation_duration_seconds', chat),
    ).toBe(calls(after) - calls(before));
  });

  it("counts a rate limit's refusals by the route's template", async () => {
    const team = await reviewTeam(t.app, 'Limit');
    const { executionId, steps } = await twoStepFlow(team);
    const route = '/api/executions/:id/steps/:stepId/execute';
    const before = total(await scrape(), 'workbench_rate_limit_refusals_total', { route });
    let refused = 0;
    // MODEL_CALLS_PER_MINUTE is 3 here: the fourth call within the minute is refused.
    for (let i = 0; i < 4; i++) {
      if ((await runStep(team.runner, executionId, steps[0]!)).statusCode === 429) refused++;
    }
    expect(refused).toBeGreaterThan(0);
    expect(total(await scrape(), 'workbench_rate_limit_refusals_total', { route }) - before).toBe(refused);
  });

  it('labels no series with an id, a person, a record or a raw URL', async () => {
    const scraped = await scrape();
    const forbiddenNames = /^(user|workspace|flow|execution|review|session|step|run)(_?id)?$|_id$/;
    const idLike = [
      /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i,
      /wb_pat_/,
      /whsec_/,
      /@/,
      /\?/,
    ];
    const series = scraped.series;
    for (const { name: metric, labels } of series) {
      for (const [name, value] of Object.entries(labels)) {
        expect(name, metric).not.toMatch(forbiddenNames);
        for (const pattern of idLike) expect(value, `${metric}{${name}}`).not.toMatch(pattern);
        expect(value).not.toContain(PROMPT);
        // A route is its template: its parameters by name, never a value.
        if (name === 'route') expect(value).toMatch(/^(\/[a-z-]*|\/:[A-Za-z]+)+$|^unmatched$/);
      }
    }
    expect(series.length).toBeGreaterThan(50);
  });
});

describe('GET /metrics when metrics are off, or on their own port', () => {
  it('is 404 on the app port when METRICS is off', async () => {
    const off = await anotherInstance(t.db.url, { metrics: { serve: 'off' } });
    try {
      const response = await off.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.statusCode).toBe(404);
      expect(off.app.metricsAddress).toBeNull();
    } finally {
      await off.close();
    }
  });

  it("with METRICS_PORT serves them on their own port (with the token when set), not on the app's", async () => {
    const own = await anotherInstance(t.db.url, {
      metrics: { serve: 'own-port', host: '127.0.0.1', port: 0, token: TOKEN },
    });
    try {
      const onApp = await own.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(onApp.statusCode).toBe(404);
      const base = `http://127.0.0.1:${own.app.metricsAddress!.port}`;
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      expect(
        (await fetch(`${base}/api/flows`, { headers: { authorization: `Bearer ${TOKEN}` } })).status,
      ).toBe(404);
      const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(response.status).toBe(200);
      const families = parsePrometheusTextFormat(await response.text());
      expect(families.find((f) => f.name === 'workbench_step_runs_total')?.type).toBe('COUNTER');
      expect(families.find((f) => f.name === 'workbench_ready')?.metrics[0]?.value).toBe('1');
    } finally {
      await own.close();
    }
  });
});
