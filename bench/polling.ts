import autocannon from 'autocannon';
import { type CpuClock, inTurn, ROUNDS } from './commands';
import { median, round } from './load';

const CONNECTIONS = 64;
/**
 * Each target is loaded this long before the rounds, uncounted, as the commands and appends are: the bench
 * polls a server that has never answered a poll, and V8 compiles the poll's path while it first does. Polled
 * from cold in rounds of 0.67 s, a poll cost 65-93 µs of server CPU in the first round and 36-45 µs in the
 * ones after.
 */
const WARM_UP_SECONDS = 1;

/** A GET load, 64 connections, and the CPU its server spent on each request. */
interface Polled {
  url: string;
  headers?: Record<string, string>;
  cpu: CpuClock;
}

/** Requests, time, errors, each round's requests/s and p99, and CPU of one URL over the rounds. */
class PollTally {
  requests = 0;
  seconds = 0;
  errors = 0;
  cpuMs: number | null = null;
  readonly rounds: { requestsPerSecond: number; p99: number }[] = [];

  figures() {
    return {
      requestsPerSecond: round(this.requests / this.seconds),
      /** The median of the rounds' p99s. */
      p99: median(this.rounds.map((r) => r.p99)),
      errors: this.errors,
      cpuMicrosecondsPerRequest: this.cpuMs === null ? null : round((this.cpuMs * 1000) / this.requests),
      rounds: this.rounds,
    };
  }
}

/**
 * Polling `GET /api/executions/:id` against an empty Fastify route: each loaded in turn, for `seconds` in all
 * over three rounds (which goes first alternating), so a change in the machine's speed during the run weighs
 * on both alike; after a warm-up. The ratio and the p99 are the medians of the rounds'.
 */
export async function measurePolling(poll: Polled, empty: Polled, seconds: number) {
  for (const target of [poll, empty]) {
    const warm = await autocannon({
      url: target.url,
      connections: CONNECTIONS,
      duration: WARM_UP_SECONDS,
      headers: target.headers ?? {},
    });
    if (warm.non2xx + warm.errors > 0) throw new Error(`${target.url} failed while warming up`);
  }
  const tallies = [new PollTally(), new PollTally()] as const;
  for (let n = 0; n < ROUNDS; n++) {
    for (const [i, target] of inTurn([poll, empty], n)) {
      const before = target.cpu ? await target.cpu() : null;
      const load = await autocannon({
        url: target.url,
        connections: CONNECTIONS,
        duration: seconds / ROUNDS,
        headers: target.headers ?? {},
      });
      const tally = tallies[i]!;
      if (before !== null && target.cpu) tally.cpuMs = (tally.cpuMs ?? 0) + (await target.cpu()) - before;
      tally.requests += load.requests.total;
      tally.seconds += load.duration;
      tally.errors += load.non2xx + load.errors;
      tally.rounds.push({
        requestsPerSecond: round(load.requests.total / load.duration),
        p99: load.latency.p99,
      });
    }
  }
  const [polled, emptied] = tallies.map((tally) => tally.figures());
  return {
    ...polled!,
    emptyRouteRequestsPerSecond: emptied!.requestsPerSecond,
    emptyRouteCpuMicrosecondsPerRequest: emptied!.cpuMicrosecondsPerRequest,
    /** The median of the rounds' ratios of requests/s (a round: the poll and the empty route in turn). */
    ratio: round(
      median(polled!.rounds.map((r, n) => r.requestsPerSecond / emptied!.rounds[n]!.requestsPerSecond)),
      2,
    ),
    emptyRouteRounds: emptied!.rounds,
  };
}
