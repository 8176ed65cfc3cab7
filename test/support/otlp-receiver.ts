import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An attribute value as OTLP/JSON writes it. */
type AnyValue =
  | { stringValue: string }
  | { intValue: string | number }
  | { doubleValue: number }
  | { boolValue: boolean }
  | { arrayValue: { values?: AnyValue[] } };

interface KeyValue {
  key: string;
  value: AnyValue;
}

/** A span as the receiver decoded it: its attributes and its events' attributes as plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  links: { traceId: string; spanId: string }[];
  status: { code?: number };
  /** The service's name of the resource that sent it. */
  service: unknown;
}

export interface OtlpReceiver {
  /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT (the exporter adds /v1/traces). */
  url: string;
  spans: ReceivedSpan[];
  /** Every export's body as it came: what a test searches for texts that must not be there. */
  bodies: string[];
  close(): Promise<void>;
}

function plainValue(value: AnyValue | undefined): unknown {
  if (!value) return undefined;
  if ('stringValue' in value) return value.stringValue;
  if ('intValue' in value) return Number(value.intValue);
  if ('doubleValue' in value) return value.doubleValue;
  if ('boolValue' in value) return value.boolValue;
  if ('arrayValue' in value) return (value.arrayValue.values ?? []).map(plainValue);
  return undefined;
}

const attributesOf = (list: KeyValue[] | undefined) =>
  Object.fromEntries((list ?? []).map(({ key, value }) => [key, plainValue(value)]));

/**
 * A trace collector in this process: takes OTLP/HTTP exports in JSON (OTEL_EXPORTER_OTLP_PROTOCOL=http/json)
 * at POST /v1/traces, and keeps their spans decoded.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      bodies.push(body);
      const decoded = JSON.parse(body) as {
        resourceSpans?: {
          resource?: { attributes?: KeyValue[] };
          scopeSpans?: { spans?: Record<string, unknown>[] }[];
        }[];
      };
      for (const resourceSpans of decoded.resourceSpans ?? []) {
        const service = attributesOf(resourceSpans.resource?.attributes)['service.name'];
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({
              traceId: span.traceId as string,
              spanId: span.spanId as string,
              parentSpanId: (span.parentSpanId as string | undefined) ?? '',
              name: span.name as string,
              kind: span.kind as number,
              attributes: attributesOf(span.attributes as KeyValue[]),
              events: ((span.events as { name: string; attributes?: KeyValue[] }[] | undefined) ?? []).map(
                (event) => ({ name: event.name, attributes: attributesOf(event.attributes) }),
              ),
              links: (span.links as { traceId: string; spanId: string }[] | undefined) ?? [],
              status: (span.status as { code?: number } | undefined) ?? {},
              service,
            });
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    bodies,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
