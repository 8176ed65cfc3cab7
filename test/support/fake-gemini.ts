import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The parts of a generateContent request body the tests look at. */
export interface GeminiRequestBody {
  contents?: Array<{ role?: string; parts?: Array<{ text?: string }> }>;
  systemInstruction?: { role?: string; parts?: Array<{ text?: string }> };
  generationConfig?: Record<string, unknown>;
  [field: string]: unknown;
}

export interface FakeGeminiRequest {
  path: string;
  model: string;
  streaming: boolean;
  /** The key the SDK sent, from the `x-goog-api-key` header or the `key` query parameter. */
  apiKey: string | null;
  body: GeminiRequestBody;
}

/** An answer (streamed in several chunks) or a failure in Google's error shape. */
export type FakeGeminiReply = { text: string; chunkDelayMs?: number } | { status: number; message: string };

export type FakeGeminiResponder = (
  body: GeminiRequestBody,
  request: FakeGeminiRequest,
) => FakeGeminiReply | Promise<FakeGeminiReply>;

export interface FakeGeminiOptions {
  respond?: FakeGeminiResponder;
  /** Keys the API refuses (400 API_KEY_INVALID, as Gemini answers an unknown key); any other is taken. */
  rejectedKeys?: string[];
  /** Keys the models list answers 503 for, as when Gemini is down: the server cannot check them. */
  unavailableKeys?: string[];
  /** A pause between streamed chunks, so a test can stop a call halfway. */
  chunkDelayMs?: number;
}

export interface FakeGemini {
  /** Give it to the SDK as `httpOptions.baseUrl` or GOOGLE_GEMINI_BASE_URL. */
  url: string;
  /** Every model call received, in order. */
  requests: FakeGeminiRequest[];
  /** The calls whose client went away (an abort, a killed server) before the answer had been sent whole. */
  cancelled: FakeGeminiRequest[];
  /** The keys the models list was asked with (how a key is checked), in order. */
  keyChecks: string[];
  respondWith(respond: FakeGeminiResponder): void;
  close(): Promise<void>;
}

export function promptOf(body: GeminiRequestBody): string {
  return (body.contents ?? [])
    .flatMap((content) => content.parts ?? [])
    .map((part) => part.text ?? '')
    .join('\n');
}

/** The default answer: it names the prompt, so a test can tell which call it came from. */
export const echoPrompt: FakeGeminiResponder = (body) => ({
  text: `Fake Gemini answer to: ${promptOf(body).slice(0, 40)}`,
});

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

const ROUTE = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

function sendError(res: ServerResponse, status: number, message: string) {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify({ error: { code: status, message, status: STATUS_NAMES[status] ?? 'UNKNOWN' } }));
}

/** A few words per chunk, so even a short answer arrives in several pieces. */
function splitIntoChunks(text: string): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [''];
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += 3) chunks.push(words.slice(i, i + 3).join(''));
  return chunks;
}

const tokens = (text: string) => Math.ceil(text.length / 4);

function candidate(text: string, done: boolean) {
  return {
    content: { role: 'model', parts: [{ text }] },
    ...(done ? { finishReason: 'STOP' } : {}),
    index: 0,
  };
}

function usage(prompt: string, answered: string) {
  const promptTokenCount = tokens(prompt);
  const candidatesTokenCount = tokens(answered);
  return { promptTokenCount, candidatesTokenCount, totalTokenCount: promptTokenCount + candidatesTokenCount };
}

async function readBody(req: IncomingMessage): Promise<GeminiRequestBody> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const raw = Buffer.concat(parts).toString('utf8');
  return raw === '' ? {} : (JSON.parse(raw) as GeminiRequestBody);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A local stand-in for the Gemini REST API, enough for the real SDK's generateContent and its stream. */
export async function startFakeGemini(options: FakeGeminiOptions = {}): Promise<FakeGemini> {
  let respond = options.respond ?? echoPrompt;
  const requests: FakeGeminiRequest[] = [];
  const cancelled: FakeGeminiRequest[] = [];

  const keyChecks: string[] = [];

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake-gemini');
    const header = req.headers['x-goog-api-key'];
    const apiKey = (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get('key');
    // The models list, as the key check asks for it.
    if (req.method === 'GET' && url.pathname === '/v1beta/models') {
      keyChecks.push(apiKey ?? '');
      if (!apiKey || options.rejectedKeys?.includes(apiKey)) {
        return sendError(res, 400, 'API key not valid. Please pass a valid API key. (API_KEY_INVALID)');
      }
      if (options.unavailableKeys?.includes(apiKey))
        return sendError(res, 503, 'The service is currently unavailable.');
      res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(
        JSON.stringify({ models: [{ name: 'models/gemini-2.5-flash', displayName: 'Gemini 2.5 Flash' }] }),
      );
      return;
    }
    const route = ROUTE.exec(url.pathname);
    if (req.method !== 'POST' || !route)
      return sendError(res, 404, `No route for ${req.method} ${url.pathname}`);
    let body: GeminiRequestBody;
    try {
      body = await readBody(req);
    } catch {
      return sendError(res, 400, 'Invalid JSON payload received.');
    }
    const streaming = route[2] === 'streamGenerateContent';
    const request: FakeGeminiRequest = {
      path: url.pathname,
      model: decodeURIComponent(route[1]!),
      streaming,
      apiKey,
      body,
    };
    requests.push(request);
    res.once('close', () => {
      if (!res.writableFinished) cancelled.push(request);
    });

    let reply: FakeGeminiReply;
    try {
      reply = await respond(body, request);
    } catch (error) {
      return sendError(res, 500, error instanceof Error ? error.message : String(error));
    }
    if ('status' in reply) return sendError(res, reply.status, reply.message);

    const prompt = promptOf(body);
    if (!streaming) {
      res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(
        JSON.stringify({
          candidates: [candidate(reply.text, true)],
          usageMetadata: usage(prompt, reply.text),
          modelVersion: request.model,
        }),
      );
      return;
    }

    // The real API streams server-sent events, each a whole GenerateContentResponse with the counts so far.
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunks = splitIntoChunks(reply.text);
    const delay = reply.chunkDelayMs ?? options.chunkDelayMs ?? 0;
    let sent = '';
    for (const [index, chunk] of chunks.entries()) {
      if (index > 0 && delay > 0) await pause(delay);
      if (res.destroyed) return;
      sent += chunk;
      const done = index === chunks.length - 1;
      const event = {
        candidates: [candidate(chunk, done)],
        usageMetadata: usage(prompt, sent),
        modelVersion: request.model,
      };
      res.write(`data: ${JSON.stringify(event)}\r\n\r\n`);
    }
    res.end();
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    cancelled,
    keyChecks,
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
