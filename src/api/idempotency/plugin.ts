import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { conflict } from '../../domain/errors';
import { IdempotencyKeyReused } from '../http/errors';
import { commandIdOf } from '../http/request-schemas';
import { LOOK_AGAIN_MS } from '../runtime/server-instance';
import {
  IdempotentRequestsRepository,
  KEPT_FOR_MS,
  type StoredAnswer,
} from './idempotent-requests-repository';
import { isFinalAnswer, STILL_BEING_ANSWERED, takesIdempotencyKey } from './keyed-writes';
import { requestFingerprint } from './request-fingerprint';

declare module 'fastify' {
  interface FastifyInstance {
    /** The keyed requests of every user and their first answers. */
    idempotentRequests: IdempotentRequestsRepository;
  }

  interface FastifyRequest {
    /** The Idempotency-Key this request holds while it runs, or null. */
    heldKey: HeldKey | null;
    /** What makes this write this request (`requestFingerprint`), or null for a request that takes no key. */
    keyFingerprint: string | null;
  }
}

interface HeldKey {
  userId: string;
  key: string;
  claimId: string;
  /** Its answer was recorded or its claim given up: nothing more to do. */
  settled: boolean;
}

/**
 * How long a request sent again waits for the first with its key to be answered before it answers 409
 * retryable: long enough for the writes of the API, which answer within moments; a step run waiting for
 * the model takes longer, and its repeat is told to come back.
 */
export const WAIT_FOR_FIRST_MS = 5_000;

/** Set on an answer replayed from the first request with the same key. */
export const REPLAYED_HEADER = 'idempotent-replayed';

/**
 * The headers of a first answer that are part of what it says, kept with it and given again by a replay: the
 * new version's `ETag` of a write, the `Location` of what it made, and the `Preference-Applied` that tells the
 * body's shape (`return=minimal`). The rest (dates, rate-limit counts, security headers) belong to the
 * answer's moment and are set afresh.
 */
export const REPLAYED_HEADERS = ['etag', 'location', 'preference-applied'] as const;

/**
 * Idempotency-Key on every write of the API (`takesIdempotencyKey`), for the signed-in user who sends it. The
 * first request with a key claims it (a row of `idempotent_requests`) before its route runs, and its answer
 * is recorded as it is sent. The same request again (same method, path and body) answers that first answer
 * and does nothing, on any instance; sent while the first is still under way, it waits for its answer (up
 * to WAIT_FOR_FIRST_MS, then 409 retryable). The key sent with another request answers 422.
 *
 * An answer that may pass when sent again (5xx, 408, 429, a problem marked retryable) is not kept: the claim
 * is given up, so the retry runs as new. A client that goes away does not give the claim up: its route
 * runs to its end and records its answer for the retry. A claim left unanswered by a process that died is
 * taken over by the next request with the key and fingerprint: once that process is found gone (its
 * instance lock free), or once the claim is older than the longest a request may run. Event-sourced
 * commands also record their key with their events, in the append's transaction: a process that died
 * between the append and recording the answer leaves the command's outcome there, and the retry that takes
 * the claim over answers it.
 */
async function idempotency(app: FastifyInstance) {
  const { config, serverInstance: instance } = app;
  const requests = new IdempotentRequestsRepository(app.sql, {
    keptForMs: KEPT_FOR_MS,
    // Receiving the request, then the longest work a request waits for (a model call), and a minute's slack.
    abandonedAfterMs: config.requestTimeoutMs + config.modelTimeoutMs + 60_000,
  });
  app.decorate('idempotentRequests', requests);
  app.decorateRequest('heldKey', null);
  app.decorateRequest('keyFingerprint', null);
  requests.startSweeping((error) => app.log.warn({ err: error }, 'idempotent request sweep failed'));
  app.addHook('onClose', async () => requests.stopSweeping());

  // Only the writes that take a key carry these hooks: a read, a poll above all, pays for none of them.
  app.addHook('onRoute', (route) => {
    if (!takesIdempotencyKey(route.method, route.url)) return;
    route.preValidation = [...hooksOf(route.preValidation), fingerprint];
    route.preHandler = [...hooksOf(route.preHandler), claim];
    route.onSend = [...hooksOf(route.onSend), recordAnswer];
    route.onResponse = [...hooksOf(route.onResponse), giveUpUnanswered];
  });

  // The body as it was sent, before its schema trims it or fills in defaults.
  async function fingerprint(request: FastifyRequest) {
    if (!request.userId || request.headers['idempotency-key'] === undefined) return;
    request.keyFingerprint = requestFingerprint(
      request.method,
      request.url,
      request.body,
      request.apiToken?.id,
    );
  }

  // After validation: a malformed request is refused the same way each time, and never holds a key.
  async function claim(request: FastifyRequest, reply: FastifyReply) {
    if (!request.userId || !request.keyFingerprint) return;
    const key = commandIdOf(request);
    if (!key) return;
    const keyed = { userId: request.userId, key, fingerprint: request.keyFingerprint };
    const hold = (claimId: string) => {
      request.heldKey = { userId: keyed.userId, key, claimId, settled: false };
    };
    const since = Date.now();
    for (let attempt = 0; ; attempt++) {
      const claim = await requests.claim(keyed, instance.id);
      switch (claim.kind) {
        case 'claimed':
          return hold(claim.claimId);
        case 'answered':
          return replay(reply, claim.answer);
        case 'reused':
          throw new IdempotencyKeyReused();
        case 'under_way': {
          if (await holderIsGone(claim.instanceId)) {
            const taken = await requests.takeOver(keyed.userId, key, claim.claimId, instance.id);
            if (taken) return hold(taken);
            continue;
          }
          if (Date.now() - since >= WAIT_FOR_FIRST_MS) throw conflict(STILL_BEING_ANSWERED, true);
          await pause(attempt);
        }
      }
    }
  }

  /**
   * Whether the process holding a claim is gone: its lock free now, and still free when looked at again after
   * LOOK_AGAIN_MS (a live process whose connection was lost takes its lock back within that), as the crash
   * sweep judges it.
   */
  async function holderIsGone(instanceId: number | null): Promise<boolean> {
    if (instanceId === null || instanceId === instance.id) return false;
    if ((await instance.gone([instanceId])).length === 0) return false;
    await new Promise((resolve) => setTimeout(resolve, LOOK_AGAIN_MS));
    return (await instance.gone([instanceId])).length > 0;
  }

  // Every answer passes here as it is sent, the error handler's too, even to a client gone meanwhile.
  async function recordAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const held = request.heldKey;
    if (!held || held.settled) return payload;
    held.settled = true;
    const body = textOf(payload);
    try {
      if (body !== undefined && isFinalAnswer(reply.statusCode, body)) {
        const type = reply.getHeader('content-type');
        await requests.answer(held.userId, held.key, held.claimId, {
          status: reply.statusCode,
          contentType: typeof type === 'string' ? type : null,
          body,
          headers: keptHeadersOf(reply),
        });
      } else {
        await requests.release(held.userId, held.key, held.claimId);
      }
    } catch (error) {
      // The answer still goes out; the claim is taken over once abandoned.
      request.log.warn({ err: error }, 'recording the answer of a keyed request failed');
    }
    return payload;
  }

  // A request that ended without its answer passing onSend (a reply taken over by its route) gives its
  // claim up.
  async function giveUpUnanswered(request: FastifyRequest) {
    const held = request.heldKey;
    if (!held || held.settled) return;
    held.settled = true;
    await requests.release(held.userId, held.key, held.claimId).catch((error) => {
      request.log.warn({ err: error }, 'giving up the claim of a keyed request failed');
    });
  }
}

/** A route's hooks of one kind as a list: none, one, or several. */
function hooksOf<Hook>(hooks: Hook | Hook[] | undefined): Hook[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}

/** The answer's headers a replay gives again, or null when it has none of them. */
function keptHeadersOf(reply: FastifyReply): Record<string, string> | null {
  const kept: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) kept[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return Object.keys(kept).length > 0 ? kept : null;
}

function replay(reply: FastifyReply, answer: StoredAnswer) {
  reply.status(answer.status).header(REPLAYED_HEADER, 'true');
  for (const [name, value] of Object.entries(answer.headers ?? {})) {
    if ((REPLAYED_HEADERS as readonly string[]).includes(name)) reply.header(name, value);
  }
  if (answer.contentType) reply.type(answer.contentType);
  return reply.send(answer.body ?? undefined);
}

/** The answer's text, '' for none; undefined for a stream, which cannot be kept. */
function textOf(payload: unknown): string | undefined {
  if (payload === null || payload === undefined) return '';
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  return undefined;
}

/** A wait that grows with the attempts, up to a quarter second: the first request's answer is polled for. */
const pause = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.min(250, 10 * 2 ** attempt)));

export default fp(idempotency, {
  name: 'idempotency',
  fastify: '5.x',
  dependencies: ['auth', 'server-instance'],
  decorators: { fastify: ['config', 'sql', 'serverInstance'] },
});
