import { describe, expect, it } from 'vitest';
import { capturesMessageContent, tracingCostWarning, tracingWanted, withGenAiOptIn } from './settings';

describe('whether a process traces', () => {
  it('is off unless an OTLP endpoint or a traces exporter is named', () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(
      true,
    );
    expect(tracingWanted({ OTEL_TRACES_EXPORTER: 'console' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).toBe(false);
  });

  it('is off when the SDK is disabled or the traces exporter is none', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(tracingWanted({ ...endpoint, OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracingWanted({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
    expect(tracingWanted({ ...endpoint, OTEL_SDK_DISABLED: 'false' })).toBe(true);
  });
});

describe('content capture', () => {
  it('is on only when OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT is true', () => {
    expect(capturesMessageContent({})).toBe(false);
    expect(capturesMessageContent({ OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'false' })).toBe(
      false,
    );
    expect(capturesMessageContent({ OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'TRUE' })).toBe(true);
  });
});

describe('OTEL_SEMCONV_STABILITY_OPT_IN', () => {
  it('gets gen_ai_latest_experimental, keeping what it had', () => {
    expect(withGenAiOptIn(undefined)).toBe('gen_ai_latest_experimental');
    expect(withGenAiOptIn('http, database')).toBe('http,database,gen_ai_latest_experimental');
    expect(withGenAiOptIn('gen_ai_latest_experimental')).toBe('gen_ai_latest_experimental');
  });
});

describe('what tracing costs, by Node line', () => {
  it('is said at start on Node 20, where the context rides on async hooks, and not from Node 22 on', () => {
    expect(tracingCostWarning('v20.20.2')).toMatch(/^tracing on Node v20\.20\.2: .+Node 24 or later/);
    expect(tracingCostWarning('v24.21.0')).toBeNull();
    expect(tracingCostWarning('v26.10.0')).toBeNull();
  });
});
