import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_LIMITS, type Limits, MAX_TEXT_CEILING } from '../../domain/limits';
import { modelIdSchema } from '../../domain/model-choice';
import { SNAPSHOT_EVERY } from '../../domain/snapshot';
import { DEFAULT_POOL_SIZE } from '../database/connection';

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/** proxy-addr's names for address ranges, which Fastify accepts among trusted proxies. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An entry of TRUST_PROXY's list: an IP address, a CIDR range, or one of PROXY_RANGE_NAMES. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...more] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || more.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

const proxyList = (value: string) =>
  value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');

/** A comma-separated list of `host` or `host:port` entries, lower case: hosts the server may call. */
const hostList = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter((host) => host !== ''),
  )
  .pipe(
    z.array(
      z
        .string()
        .regex(
          /^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/,
          'must be a comma-separated list of host or host:port entries',
        ),
    ),
  );

const environmentSchema = z.object({
  DATABASE_URL: optionalText.pipe(
    z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' }).optional(),
  ),
  // The instance lock holds one connection for the process's life: at least two more to work with.
  DATABASE_POOL_SIZE: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(3)
    .max(1_000)
    .default(DEFAULT_POOL_SIZE),
  PORT: z.coerce.number({ error: 'must be a number' }).int().min(0).max(65_535).default(5000),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  APP_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  AUDIT_SIGNING_KEY: optionalText,
  CHECKPOINT_DIR: optionalText,
  CHECKPOINT_EVERY_SECONDS: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(1)
    .max(86_400)
    .default(60),
  GEMINI_API_KEY: optionalText,
  GEMINI_MODEL: z.string().trim().min(1).default('gemini-2.5-flash'),
  GOOGLE_GEMINI_BASE_URL: optionalText.pipe(z.url({ error: 'must be a URL' }).optional()),
  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: optionalText.pipe(
    z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  ),
  ANTHROPIC_API_KEY: optionalText,
  ANTHROPIC_BASE_URL: optionalText.pipe(
    z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  ),
  OLLAMA_BASE_URL: optionalText.pipe(
    z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  ),
  MODELS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((id) => id.trim())
        .filter((id) => id !== ''),
    )
    .pipe(z.array(modelIdSchema).max(200)),
  DEFAULT_MODEL: optionalText.pipe(modelIdSchema.optional()),
  FREE_STEP_ALLOWANCE: z.coerce.number({ error: 'must be a number' }).int().min(0).default(15),
  MODEL_CALLS_PER_MINUTE: z.coerce.number({ error: 'must be a number' }).int().min(0).default(120),
  SNAPSHOT_EVERY: z.coerce.number({ error: 'must be a number' }).int().min(0).default(SNAPSHOT_EVERY),
  MODEL_TIMEOUT_MS: z.coerce.number({ error: 'must be a number' }).int().min(1000).default(120_000),
  MAX_PROMPT_CHARS: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(1_000)
    .max(10_000_000)
    .default(DEFAULT_LIMITS.maxPromptChars),
  MAX_TEXT_CHARS: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(1_000)
    .max(MAX_TEXT_CEILING)
    .default(DEFAULT_LIMITS.maxTextChars),
  // A hop count is refused: Fastify no longer honours one, as it cannot tell the proxy from a direct client.
  TRUST_PROXY: z
    .string()
    .trim()
    .toLowerCase()
    .default('false')
    .transform((value) => value || 'false')
    .refine(
      (value) =>
        value === 'true' ||
        value === 'false' ||
        (proxyList(value).length > 0 && proxyList(value).every(isProxyAddress)),
      "must be true, false, or a comma-separated list of the proxies' addresses (IP or CIDR, or loopback, " +
        'linklocal, uniquelocal)',
    )
    .transform((value) => (value === 'true' ? true : value === 'false' ? false : proxyList(value))),
  REDIS_URL: optionalText.pipe(
    z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
  ),
  REQUEST_TIMEOUT_MS: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(1_000)
    .max(600_000)
    .default(30_000),
  CONNECTIONS_PER_CLIENT: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(0)
    .max(100_000)
    .default(256),
  SHUTDOWN_GRACE_MS: z.coerce.number({ error: 'must be a number' }).int().min(0).max(600_000).default(20_000),
  ALLOW_KEY_MISMATCH: z
    .enum(['', '0', '1'], { error: 'must be 1 (or unset)' })
    .default('')
    .transform((value) => value === '1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  MASTER_MODE_API_HOSTS: hostList,
  WEBHOOK_HOSTS: hostList,
  MODEL_ENDPOINT_HOSTS: hostList,
  SMTP_URL: optionalText.pipe(
    z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  ),
  MAIL_FROM: optionalText.pipe(z.string().min(3).max(320).optional()),
  PUBLIC_URL: optionalText.pipe(
    z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .max(2000)
      .optional(),
  ),
  QUEUE_POLL_SECONDS: z.coerce.number({ error: 'must be a number' }).min(0.5).max(60).default(2),
  WEBHOOK_RETRY_DELAY_SECONDS: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(1)
    .max(3600)
    .default(30),
  METRICS: z
    .enum(['', 'true', 'false'], { error: 'must be true or false' })
    .default('')
    .transform((value) => value === 'true'),
  METRICS_TOKEN: optionalText.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  METRICS_PORT: optionalText.pipe(
    z
      .string()
      .regex(/^\d+$/, 'must be a number')
      .transform(Number)
      .pipe(z.number().int().min(0).max(65_535))
      .optional(),
  ),
  METRICS_HOST: z.string().trim().min(1).default('127.0.0.1'),
});

export interface Config {
  databaseUrl: string | undefined;
  /**
   * The most connections the server's pool opens (DATABASE_POOL_SIZE), one of them held for the process's
   * life by its instance lock. Besides it an instance opens one LISTEN connection and the job queue's pool.
   */
  databasePoolSize: number;
  /** The job queue's own pool (pg-boss): a fifth of the server's, between 2 and 4. */
  jobQueuePoolSize: number;
  port: number;
  host: string;
  dataDir: string;
  appSecret: string;
  geminiApiKey: string | undefined;
  geminiModel: string;
  geminiBaseUrl: string | undefined;
  /** An OpenAI-compatible endpoint (OpenAI's own by default): its key and address. */
  openaiApiKey: string | undefined;
  openaiBaseUrl: string | undefined;
  /** Anthropic's Messages API: its key and address (Anthropic's own by default). */
  anthropicApiKey: string | undefined;
  anthropicBaseUrl: string | undefined;
  /** A local Ollama's OpenAI-compatible address, for `ollama:` models. */
  ollamaBaseUrl: string | undefined;
  /** The models users may pick (`provider:name`), besides what an OpenAI-compatible endpoint lists. */
  models: string[];
  /** The model of a step that names none; unset: the first of `models`, the endpoint's, Gemini's or offline. */
  defaultModel: string | undefined;
  freeStepAllowance: number;
  /** A snapshot of an aggregate's state every this many events of its stream; 0: none. */
  snapshotEvery: number;
  modelTimeoutMs: number;
  /** Model-calling requests one user may make per minute (step runs, generation, suggestions, ...); 0: no limit. */
  modelCallsPerMinute: number;
  logLevel: string;
  /** Where the rate limits count, shared by every instance: Redis when set, else PostgreSQL. */
  redisUrl: string | undefined;
  /**
   * On SIGTERM, how long model calls under way may go on before they are failed as interrupted: the server
   * stops taking requests at once and exits once those calls have ended.
   */
  shutdownGraceMs: number;
  /**
   * The audit log's signing key: a file holding an Ed25519 signer key (C2SP note format). AUDIT_SIGNING_KEY,
   * else DATA_DIR/audit-key, generated there (mode 0600) at the first start.
   */
  auditSigningKeyFile: string;
  /** A folder every signed checkpoint is also written to (CHECKPOINT_DIR), so a copy lives outside the database. */
  checkpointDir: string | undefined;
  /** How often a checkpoint is signed, in seconds, when the log grew. */
  checkpointEverySeconds: number;
  /** Start even when APP_SECRET is not the key this database's records were made with (their check fails). */
  allowKeyMismatch: boolean;
  /**
   * How long a client may take to send a request's headers and body: past it the request is answered 408
   * and its connection closed (the time to answer a request, a model call, is not counted).
   */
  requestTimeoutMs: number;
  /** Open connections one client address may hold (a trusted proxy's are not counted); 0: no bound. */
  connectionsPerClient: number;
  /**
   * Which peers are the reverse proxy whose X-Forwarded-For/-Proto/-Host are believed (request.ip, protocol,
   * host): none (false), any (true), or these addresses and ranges. Rate limits key on request.ip, and the
   * session cookie is Secure when request.protocol is https.
   */
  trustProxy: boolean | string[];
  /** Hosts (`host` or `host:port`) master mode api rows may call; empty: api rows are refused. */
  masterModeApiHosts: string[];
  /** Hosts (`host` or `host:port`) webhooks may be sent to, by the same rule; empty: no webhook can be made. */
  webhookHosts: string[];
  /** Hosts (`host` or `host:port`) a user's own OpenAI-compatible key may name, by the same rule; empty: none. */
  modelEndpointHosts: string[];
  /** The SMTP server mails are sent through (smtp:// or smtps://, with its user and password); none: no mail. */
  smtpUrl: string | undefined;
  /** The From address of mails. */
  mailFrom: string;
  /**
   * Where users reach the web app (no trailing slash): the links of mails sent by the server on its own
   * (a review's reminder), where no request tells it. PUBLIC_URL, or http://localhost:PORT.
   */
  publicUrl: string;
  /**
   * Whether PUBLIC_URL was set: then an invitation's link leads there too, whatever address (or forwarded
   * host) its request came with.
   */
  publicUrlSet: boolean;
  /** How often an idle job worker asks the queue for work, in seconds. */
  queuePollSeconds: number;
  /** Seconds before a failed webhook delivery is tried again, doubled at each try after. */
  webhookRetryDelaySeconds: number;
  /** How large a prompt (MAX_PROMPT_CHARS) and one text (MAX_TEXT_CHARS) may be. */
  limits: Limits;
  /** Where the Prometheus metrics are served, if anywhere (METRICS, METRICS_PORT, METRICS_TOKEN). */
  metrics: MetricsServing;
}

/**
 * Where `GET /metrics` answers: nowhere (METRICS unset or false); on a port of its own (METRICS_PORT, bound
 * to METRICS_HOST), asking for METRICS_TOKEN too when it is set; or on the app's port, only with
 * `Authorization: Bearer <METRICS_TOKEN>`. Never open on the app's port.
 */
export type MetricsServing =
  | { serve: 'off' }
  | { serve: 'own-port'; host: string; port: number; token: string | undefined }
  | { serve: 'app-port'; token: string };

/** What METRICS=true without a place to serve them says. */
export const METRICS_NEED_A_PLACE =
  'METRICS=true needs METRICS_PORT (a port of their own, bound to METRICS_HOST) or METRICS_TOKEN ' +
  "(/metrics on the app's port, with Authorization: Bearer <token>)";

/** The metrics' serving from the parsed variables; a place is required, so they are never open with the app. */
function metricsServing(e: {
  METRICS: boolean;
  METRICS_TOKEN?: string | undefined;
  METRICS_PORT?: number | undefined;
  METRICS_HOST: string;
  PORT: number;
}): MetricsServing {
  if (!e.METRICS) return { serve: 'off' };
  if (e.METRICS_PORT !== undefined) {
    if (e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT)
      throw new ConfigError(`Invalid configuration:\n  METRICS_PORT: must differ from PORT (${e.PORT})`);
    return { serve: 'own-port', host: e.METRICS_HOST, port: e.METRICS_PORT, token: e.METRICS_TOKEN };
  }
  if (e.METRICS_TOKEN !== undefined) return { serve: 'app-port', token: e.METRICS_TOKEN };
  throw new ConfigError(`Invalid configuration:\n  METRICS: ${METRICS_NEED_A_PLACE}`);
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Validates the environment; every problem is named with its variable so start-up fails clearly. */
export function parseEnvironment(env: NodeJS.ProcessEnv): Omit<Config, 'appSecret'> & { appSecret?: string } {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    jobQueuePoolSize: jobQueuePoolSize(e.DATABASE_POOL_SIZE),
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    appSecret: e.APP_SECRET,
    auditSigningKeyFile: path.resolve(e.AUDIT_SIGNING_KEY ?? path.join(e.DATA_DIR, 'audit-key')),
    checkpointDir: e.CHECKPOINT_DIR === undefined ? undefined : path.resolve(e.CHECKPOINT_DIR),
    checkpointEverySeconds: e.CHECKPOINT_EVERY_SECONDS,
    geminiApiKey: e.GEMINI_API_KEY,
    geminiModel: e.GEMINI_MODEL,
    geminiBaseUrl: e.GOOGLE_GEMINI_BASE_URL,
    openaiApiKey: e.OPENAI_API_KEY,
    openaiBaseUrl: e.OPENAI_BASE_URL,
    anthropicApiKey: e.ANTHROPIC_API_KEY,
    anthropicBaseUrl: e.ANTHROPIC_BASE_URL,
    ollamaBaseUrl: e.OLLAMA_BASE_URL,
    models: e.MODELS,
    defaultModel: e.DEFAULT_MODEL,
    freeStepAllowance: e.FREE_STEP_ALLOWANCE,
    snapshotEvery: e.SNAPSHOT_EVERY,
    modelTimeoutMs: e.MODEL_TIMEOUT_MS,
    modelCallsPerMinute: e.MODEL_CALLS_PER_MINUTE,
    logLevel: e.LOG_LEVEL,
    redisUrl: e.REDIS_URL,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    allowKeyMismatch: e.ALLOW_KEY_MISMATCH,
    trustProxy: e.TRUST_PROXY,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    connectionsPerClient: e.CONNECTIONS_PER_CLIENT,
    masterModeApiHosts: e.MASTER_MODE_API_HOSTS,
    webhookHosts: e.WEBHOOK_HOSTS,
    modelEndpointHosts: e.MODEL_ENDPOINT_HOSTS,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? 'Prompt-flow workbench <no-reply@localhost>',
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    publicUrlSet: e.PUBLIC_URL !== undefined,
    queuePollSeconds: e.QUEUE_POLL_SECONDS,
    webhookRetryDelaySeconds: e.WEBHOOK_RETRY_DELAY_SECONDS,
    limits: { maxPromptChars: e.MAX_PROMPT_CHARS, maxTextChars: e.MAX_TEXT_CHARS },
    metrics: metricsServing(e),
  };
}

/**
 * The job queue's pool, from the server's: its workers take one job at a time and wait on the models, not on
 * the database, so a few connections serve them; a small server pool asks for a small queue pool too.
 */
export function jobQueuePoolSize(databasePoolSize: number): number {
  return Math.min(4, Math.max(2, Math.ceil(databasePoolSize / 5)));
}

/** APP_SECRET, or one generated once into DATA_DIR (mode 0600) so sessions and stored keys survive restarts. */
async function appSecretFrom(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'app-secret');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    await mkdir(dataDir, { recursive: true });
    const secret = randomBytes(48).toString('base64url');
    await writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' }).catch(async () => {});
    await chmod(file, 0o600);
    return (await readFile(file, 'utf8')).trim();
  }
}

/**
 * APP_SECRET, or the one saved in DATA_DIR; undefined when there is neither (nothing is generated: for tools
 * that read a database the server made).
 */
export async function savedAppSecret(config: Pick<Config, 'dataDir'> & { appSecret?: string | undefined }) {
  if (config.appSecret) return config.appSecret;
  try {
    return (await readFile(path.join(config.dataDir, 'app-secret'), 'utf8')).trim() || undefined;
  } catch {
    return undefined;
  }
}

export async function loadConfig(env: NodeJS.ProcessEnv = process.env): Promise<Config> {
  const config = parseEnvironment(env);
  return { ...config, appSecret: config.appSecret ?? (await appSecretFrom(config.dataDir)) };
}
