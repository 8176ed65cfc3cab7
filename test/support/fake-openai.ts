import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cancellations } from './cancellations';

/** The parts of a Chat Completions request body the tests look at. */
export interface OpenAIRequestBody {
  model?: string;
  messages?: Array<{ role: string; content: string }>;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  response_format?: { type: string; json_schema?: { name: string; schema?: object; strict?: boolean } };
  [field: string]: unknown;
}

export interface FakeOpenAIRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The key from the `Authorization: Bearer` header. */
  apiKey: string | null;
  body: OpenAIRequestBody;
}

/**
 * An answer, streamed a few words a chunk; or a failure with OpenAI's error body.
 * - `refusal`: the model declines; the text goes out as `delta.refusal` instead of `delta.content`.
 * - `finishReason`: of the last chunk ('stop' unless told).
 * - `stallAfter`: send that many chunks, then nothing more until the client goes away (to stop or time out).
 * - `streamError`: after the chunks, an error event inside the stream, as the API sends one mid-answer.
 * - `usage`: the token counts of the final usage chunk (else about four characters a token).
 */
export type FakeOpenAIReply =
  | {
      text: string;
      refusal?: string;
      finishReason?: 'stop' | 'length' | 'content_filter';
      stallAfter?: number;
      streamError?: { message: string; type: string; code?: string };
      usage?: { input: number; output: number };
    }
  | { status: number; message: string; type?: string; code?: string };

export type FakeOpenAIResponder = (
  body: OpenAIRequestBody,
  request: FakeOpenAIRequest,
) => FakeOpenAIReply | Promise<FakeOpenAIReply>;

export interface FakeOpenAIOptions {
  respond?: FakeOpenAIResponder;
  /** Keys the API refuses with 401; any other is taken. */
  rejectedKeys?: string[];
  /** The models GET /v1/models lists. */
  models?: string[];
  /**
   * What the endpoint does with response_format's JSON schema (`enforced` unless told): `enforced` holds a
   * schema whose properties are each one enum value (the probe's) to it, before the responder is asked;
   * `ignored` takes the parameter and leaves the answer to the responder; `refused` answers it with a 400.
   */
  schema?: SchemaHandling;
}

export type SchemaHandling = 'enforced' | 'ignored' | 'refused';

export interface FakeOpenAI {
  /** With the version path: give it to the SDK as `baseURL`. */
  url: string;
  /** Every request received (the models list too), in order. */
  requests: FakeOpenAIRequest[];
  /** The chat calls whose client went away before the answer had been sent whole. */
  cancelled: FakeOpenAIRequest[];
  /** Settles once `count` chat calls (all told, the earlier ones too) have been cancelled. */
  untilCancelled(count?: number): Promise<void>;
  respondWith(respond: FakeOpenAIResponder): void;
  /** Changes what the endpoint does with a JSON schema from now on. */
  handleSchema(handling: SchemaHandling): void;
  close(): Promise<void>;
}

export function promptOf(body: OpenAIRequestBody): string {
  return (body.messages ?? [])
    .filter((message) => message.role === 'user')
    .map((message) => message.content)
    .join('\n');
}

/** The default answer: it names the prompt, so a test can tell which call it came from. */
export const echoPrompt: FakeOpenAIResponder = (body) => ({
  text: `Fake OpenAI answer to: ${promptOf(body).slice(0, 40)}`,
});

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_request_error',
  403: 'invalid_request_error',
  404: 'invalid_request_error',
  429: 'requests',
  500: 'server_error',
  503: 'server_error',
};

function sendError(res: ServerResponse, status: number, message: string, type?: string, code?: string) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      error: {
        message,
        type: type ?? ERROR_TYPES[status] ?? 'server_error',
        param: null,
        code: code ?? null,
      },
    }),
  );
}

/** A few words per chunk, so even a short answer arrives in several pieces. */
export function splitIntoChunks(text: string): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [''];
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += 3) chunks.push(words.slice(i, i + 3).join(''));
  return chunks;
}

export const tokens = (text: string) => Math.ceil(text.length / 4);

/** Whether the request is the schema probe the app sends once per model (its schema's one property). */
export const isProbe = (body: OpenAIRequestBody) => {
  const schema = body.response_format?.json_schema?.schema as { properties?: object } | undefined;
  const instructed = (body.messages ?? []).some((m) => m.role === 'system' && m.content.includes('"probe"'));
  return (schema?.properties !== undefined && 'probe' in schema.properties) || instructed;
};

/**
 * The one answer a schema allows when each of its properties is held to one enum value (as the probe's is),
 * as an endpoint that enforces schemas would give it; null for any other schema.
 */
function onlyAnswerOf(schema: unknown): string | null {
  const { type, properties } = (schema ?? {}) as {
    type?: string;
    properties?: Record<string, { enum?: unknown[] }>;
  };
  if (type !== 'object' || !properties) return null;
  const entries = Object.entries(properties);
  if (entries.length === 0 || entries.some(([, property]) => property.enum?.length !== 1)) return null;
  return JSON.stringify(Object.fromEntries(entries.map(([name, property]) => [name, property.enum![0]])));
}

async function readBody(req: IncomingMessage): Promise<OpenAIRequestBody> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const raw = Buffer.concat(parts).toString('utf8');
  return raw === '' ? {} : (JSON.parse(raw) as OpenAIRequestBody);
}

/** A local stand-in for the OpenAI REST API: streamed Chat Completions and the models list. */
export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  let respond = options.respond ?? echoPrompt;
  const requests: FakeOpenAIRequest[] = [];
  const calls = cancellations<FakeOpenAIRequest>();
  const models = options.models ?? ['gpt-4.1-mini', 'gpt-4.1'];
  let schemaHandling = options.schema ?? 'enforced';

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake-openai');
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    const apiKey = bearer?.[1] ?? null;
    let body: OpenAIRequestBody = {};
    try {
      body = await readBody(req);
    } catch {
      return sendError(res, 400, 'We could not parse the JSON body of your request.');
    }
    const request: FakeOpenAIRequest = {
      method: req.method ?? '',
      path: url.pathname,
      headers: req.headers,
      apiKey,
      body,
    };
    const known = req.method === 'GET' && url.pathname === '/v1/models';
    const chat = req.method === 'POST' && url.pathname === '/v1/chat/completions';
    if (!known && !chat) return sendError(res, 404, `Invalid URL (${req.method} ${url.pathname})`);
    requests.push(request);
    if (!apiKey || options.rejectedKeys?.includes(apiKey)) {
      return sendError(
        res,
        401,
        `Incorrect API key provided: ${apiKey ?? '(none)'}.`,
        undefined,
        'invalid_api_key',
      );
    }
    if (known) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          data: models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'fake' })),
        }),
      );
      return;
    }

    calls.watch(res, request);

    let reply: FakeOpenAIReply;
    const schema = body.response_format?.json_schema?.schema;
    const only = schemaHandling === 'enforced' ? onlyAnswerOf(schema) : null;
    try {
      if (schemaHandling === 'refused' && body.response_format)
        reply = {
          status: 400,
          message: "Invalid parameter: 'response_format' is not supported by this model.",
        };
      else reply = only !== null ? { text: only } : await respond(body, request);
    } catch (error) {
      return sendError(res, 500, error instanceof Error ? error.message : String(error));
    }
    if ('status' in reply) return sendError(res, reply.status, reply.message, reply.type, reply.code);

    // The real API streams server-sent events, each a chat.completion.chunk, then `data: [DONE]`.
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const base = {
      id: 'chatcmpl-fake',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: body.model,
    };
    const send = (event: object) => res.write(`data: ${JSON.stringify(event)}\n\n`);
    const delta = (fields: object, finish: string | null) =>
      send({ ...base, choices: [{ index: 0, delta: fields, logprobs: null, finish_reason: finish }] });

    delta({ role: 'assistant', content: '' }, null);
    const answer = reply.refusal ?? reply.text;
    const field = reply.refusal === undefined ? 'content' : 'refusal';
    for (const [index, chunk] of splitIntoChunks(answer).entries()) {
      if (reply.stallAfter !== undefined && index >= reply.stallAfter) {
        // Hold the stream open until the client gives up on it.
        if (!res.destroyed) await once(res, 'close');
        return;
      }
      if (res.destroyed) return;
      delta({ [field]: chunk }, null);
    }
    if (reply.streamError) {
      send({ error: { ...reply.streamError, param: null, code: reply.streamError.code ?? null } });
      res.end();
      return;
    }
    delta({}, reply.finishReason ?? 'stop');
    if (body.stream_options?.include_usage) {
      const prompt = (body.messages ?? []).map((message) => message.content).join('\n');
      const usage = {
        prompt_tokens: reply.usage?.input ?? tokens(prompt),
        completion_tokens: reply.usage?.output ?? tokens(answer),
      };
      send({
        ...base,
        choices: [],
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
      });
    }
    res.write('data: [DONE]\n\n');
    res.end();
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    cancelled: calls.cancelled,
    untilCancelled: calls.untilCancelled,
    respondWith(next) {
      respond = next;
    },
    handleSchema(handling) {
      schemaHandling = handling;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // The SDK's fetch keeps connections alive; they would hold close() open.
        server.closeAllConnections();
      }),
  };
}
