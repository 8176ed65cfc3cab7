import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cancellations } from './cancellations';
import { splitIntoChunks, tokens } from './fake-openai';

/** The parts of a Messages request body the tests look at. */
export interface AnthropicRequestBody {
  model?: string;
  max_tokens?: number;
  system?: string | Array<{ type: string; text: string }>;
  messages?: Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>;
  stream?: boolean;
  [field: string]: unknown;
}

export interface FakeAnthropicRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The key from the `x-api-key` header or an `Authorization: Bearer` one. */
  apiKey: string | null;
  body: AnthropicRequestBody;
}

/**
 * An answer, streamed a few words a delta; or a failure with Anthropic's error body.
 * - `stopReason`: of the message_delta ('end_turn' unless told; 'refusal' when the model declines).
 * - `stallAfter`: send that many deltas, then nothing more until the client goes away (to stop or time out).
 * - `streamError`: after the deltas, an `error` event inside the stream (e.g. overloaded_error).
 * - `usage`: the token counts it reports (else about four characters a token).
 */
export type FakeAnthropicReply =
  | {
      text: string;
      stopReason?: 'end_turn' | 'max_tokens' | 'refusal';
      stallAfter?: number;
      streamError?: { type: string; message: string };
      usage?: { input: number; output: number };
    }
  | { status: number; message: string; type?: string };

export type FakeAnthropicResponder = (
  body: AnthropicRequestBody,
  request: FakeAnthropicRequest,
) => FakeAnthropicReply | Promise<FakeAnthropicReply>;

export interface FakeAnthropicOptions {
  respond?: FakeAnthropicResponder;
  /** Keys the API refuses with 401; any other is taken. */
  rejectedKeys?: string[];
  /** The models GET /v1/models lists. */
  models?: string[];
}

export interface FakeAnthropic {
  /** Without the version path: give it to the SDK as `baseURL`. */
  url: string;
  /** Every request received (the models list too), in order. */
  requests: FakeAnthropicRequest[];
  /** The calls whose client went away before the answer had been sent whole. */
  cancelled: FakeAnthropicRequest[];
  /** Settles once `count` calls (all told, the earlier ones too) have been cancelled. */
  untilCancelled(count?: number): Promise<void>;
  respondWith(respond: FakeAnthropicResponder): void;
  close(): Promise<void>;
}

const textOf = (content: string | Array<{ type: string; text?: string }> | undefined) =>
  typeof content === 'string' ? content : (content ?? []).map((block) => block.text ?? '').join('');

export function promptOf(body: AnthropicRequestBody): string {
  return (body.messages ?? [])
    .filter((message) => message.role === 'user')
    .map((message) => textOf(message.content))
    .join('\n');
}

export function systemOf(body: AnthropicRequestBody): string {
  return textOf(body.system);
}

/** The default answer: it names the prompt, so a test can tell which call it came from. */
export const echoPrompt: FakeAnthropicResponder = (body) => ({
  text: `Fake Anthropic answer to: ${promptOf(body).slice(0, 40)}`,
});

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

function sendError(res: ServerResponse, status: number, message: string, type?: string) {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_fake' });
  res.end(
    JSON.stringify({
      type: 'error',
      error: { type: type ?? ERROR_TYPES[status] ?? 'api_error', message },
      request_id: 'req_fake',
    }),
  );
}

async function readBody(req: IncomingMessage): Promise<AnthropicRequestBody> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const raw = Buffer.concat(parts).toString('utf8');
  return raw === '' ? {} : (JSON.parse(raw) as AnthropicRequestBody);
}

function keyOf(headers: IncomingHttpHeaders): string | null {
  const header = headers['x-api-key'];
  const key = Array.isArray(header) ? header[0] : header;
  return key ?? /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1] ?? null;
}

/** A local stand-in for the Anthropic Messages API, streamed as the real SDK asks for it. */
export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  let respond = options.respond ?? echoPrompt;
  const requests: FakeAnthropicRequest[] = [];
  const calls = cancellations<FakeAnthropicRequest>();
  const models = options.models ?? ['claude-sonnet-5'];

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake-anthropic');
    if (req.method === 'GET' && url.pathname === '/v1/models') {
      const apiKey = keyOf(req.headers);
      requests.push({ method: req.method, path: url.pathname, headers: req.headers, apiKey, body: {} });
      if (!apiKey || options.rejectedKeys?.includes(apiKey)) return sendError(res, 401, 'invalid x-api-key');
      const data = models.map((id) => ({
        type: 'model',
        id,
        display_name: id,
        created_at: '2026-01-01T00:00:00Z',
      }));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          data,
          has_more: false,
          first_id: models[0] ?? null,
          last_id: models.at(-1) ?? null,
        }),
      );
      return;
    }
    if (req.method !== 'POST' || url.pathname !== '/v1/messages') {
      return sendError(res, 404, `Not found: ${req.method} ${url.pathname}`);
    }
    let body: AnthropicRequestBody;
    try {
      body = await readBody(req);
    } catch {
      return sendError(res, 400, 'The request body is not valid JSON.');
    }
    const apiKey = keyOf(req.headers);
    const request: FakeAnthropicRequest = {
      method: req.method,
      path: url.pathname,
      headers: req.headers,
      apiKey,
      body,
    };
    requests.push(request);
    if (!apiKey || options.rejectedKeys?.includes(apiKey)) return sendError(res, 401, 'invalid x-api-key');

    calls.watch(res, request);

    let reply: FakeAnthropicReply;
    try {
      reply = await respond(body, request);
    } catch (error) {
      return sendError(res, 500, error instanceof Error ? error.message : String(error));
    }
    if ('status' in reply) return sendError(res, reply.status, reply.message, reply.type);

    // The real API streams named server-sent events, each with its type repeated in the data.
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (event: { type: string; [field: string]: unknown }) =>
      res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    const inputTokens = reply.usage?.input ?? tokens(`${systemOf(body)}\n${promptOf(body)}`);

    send({
      type: 'message_start',
      message: {
        id: 'msg_fake',
        type: 'message',
        role: 'assistant',
        model: body.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: inputTokens, output_tokens: 1 },
      },
    });
    send({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    send({ type: 'ping' });
    for (const [index, chunk] of splitIntoChunks(reply.text).entries()) {
      if (reply.stallAfter !== undefined && index >= reply.stallAfter) {
        // Hold the stream open until the client gives up on it.
        if (!res.destroyed) await once(res, 'close');
        return;
      }
      if (res.destroyed) return;
      send({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: chunk } });
    }
    if (reply.streamError) {
      send({ type: 'error', error: reply.streamError });
      res.end();
      return;
    }
    send({ type: 'content_block_stop', index: 0 });
    send({
      type: 'message_delta',
      delta: { stop_reason: reply.stopReason ?? 'end_turn', stop_sequence: null },
      usage: { output_tokens: reply.usage?.output ?? tokens(reply.text) },
    });
    send({ type: 'message_stop' });
    res.end();
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    cancelled: calls.cancelled,
    untilCancelled: calls.untilCancelled,
    respondWith(next) {
      respond = next;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // The SDK's fetch keeps connections alive; they would hold close() open.
        server.closeAllConnections();
      }),
  };
}
