import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Contender, measureCommands } from './commands';
import { createFlows, median, type Row, round, signUp } from './load';
import { serverEnv, startProcess } from './server-process';

// Step runs with traces against the same without: two servers, one exporting every span (OTLP over HTTP,
// protobuf, the SDK's defaults) to a receiver in the bench process, the other with tracing off; 32 clients,
// the two taking turns over three rounds (which goes first alternating); the figure is the median of the
// rounds' step runs/s ratios. `BENCH_ONLY=tracing npm run bench` runs only this row.

const CLIENTS = 32;

/** An OTLP/HTTP receiver that takes every export and counts its bytes. */
async function startReceiver() {
  let bytes = 0;
  let exports = 0;
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    request.on('end', () => {
      exports++;
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => ({ bytes, exports }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The built telemetry module's source, loaded first as `npm start` loads dist/server/telemetry.js. */
const REGISTER = 'src/api/telemetry/register.ts';

export async function benchTracing(databaseUrls: [string, string], seconds: number) {
  const receiver = await startReceiver();
  const traced = startProcess(
    ['--import', `./${REGISTER}`, 'src/api/server.ts'],
    { ...serverEnv(databaseUrls[0]), OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
    { cpuUsage: true },
  );
  const plain = startProcess(['src/api/server.ts'], serverEnv(databaseUrls[1]), { cpuUsage: true });
  try {
    const sides: Contender[] = [];
    for (const server of [traced, plain]) {
      const base = await server.url;
      const cookie = await signUp(base);
      sides.push({
        target: { base, cookie, prefix: '/api' as const },
        flows: await createFlows(base, cookie, CLIENTS),
        cpu: server.cpuMs,
      });
    }
    const [withTraces, without] = await measureCommands(sides, seconds);
    const ratios = withTraces!.stepRuns.rounds.map(
      (round, n) => round.perSecond / without!.stepRuns.rounds[n]!.perSecond,
    );
    const ratio = round(median(ratios), 2);
    const sent = receiver.received();
    const rows: Row[] = [
      {
        figure: `step runs/s, ${CLIENTS} clients, traces exported to a local OTLP receiver vs tracing off (median of 3 rounds)`,
        value: `${ratio}x (rounds ${ratios.map((r) => round(r, 2)).join(' / ')}; all rounds ${Math.round(withTraces!.stepRuns.perSecond)} / ${Math.round(without!.stepRuns.perSecond)}; server CPU ${withTraces!.stepRuns.cpuMs} / ${without!.stepRuns.cpuMs} ms a run; ${sent.exports} exports, ${Math.round(sent.bytes / 1024)} kB)`,
        target: '>= 0.9x',
        met: ratio >= 0.9,
      },
    ];
    return { rows, results: { ratio, rounds: ratios, withTraces, without, exported: sent } };
  } finally {
    await traced.stop();
    await plain.stop();
    await receiver.close();
  }
}
