/**
 * The offline verifier of an audit bundle, on the command line:
 *
 *   node audit-verify.js <bundle.json> [--key <key file>] [--checkpoint <checkpoint file>]
 *
 * Built into one file (dist/audit-verify.js) that runs with plain node anywhere, away from the project. Prints
 * the outcome on stdout and warnings on stderr; exits 0 when verified, 1 on anything else (a failed check, bad
 * arguments, a file it cannot read).
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { shown } from './messages';
import { verifyBundle } from './verify-bundle';

const USAGE = `Usage: node audit-verify.js <bundle.json> [--key <key file>] [--checkpoint <checkpoint file>]

Checks an audit bundle (workbench-audit-bundle/v1) offline: its signed checkpoint, that every event it
carries is in the log at that checkpoint, and that no event the log holds for its streams is missing.

  --key <file>         the log's public key (a C2SP verifier key: <name>+<key ID>+<base64>), got from
                       elsewhere than the bundle; without it the bundle's own key is used, with a warning
  --checkpoint <file>  another checkpoint of the log, earlier or later: a signed note, or the JSON of
                       GET /api/audit/proofs/consistency; the log must extend the earlier one
  -h, --help           this text

Exit status: 0 verified, 1 not verified or not checked.`;

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 1) {
    return usageError(positionals.length === 0 ? 'no bundle file given' : 'give one bundle file');
  }
  const [bundlePath] = positionals as [string];
  const read = async (path: string, what: string) => {
    try {
      return await readFile(path, 'utf8');
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new Error(`cannot read the ${what} file ${path}: ${reason}`);
    }
  };
  let bundle: string;
  let key: string | undefined;
  let checkpoint: string | undefined;
  try {
    bundle = await read(bundlePath, 'bundle');
    key = values.key === undefined ? undefined : await read(values.key, 'key');
    checkpoint = values.checkpoint === undefined ? undefined : await read(values.checkpoint, 'checkpoint');
  } catch (error) {
    return usageError((error as Error).message);
  }
  const result = verifyBundle(bundle, {
    ...(key === undefined ? {} : { key }),
    ...(checkpoint === undefined ? {} : { checkpoint }),
  });
  if (result.ok) for (const warning of result.warnings) process.stderr.write(`warning: ${warning}\n`);
  process.stdout.write(`${result.ok ? result.message : `not verified: ${result.message}`}\n`);
  return result.ok ? 0 : 1;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      key: { type: 'string' },
      checkpoint: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
}

function usageError(message: string): number {
  process.stderr.write(`audit-verify: ${message}\n\n${USAGE}\n`);
  return 1;
}

// Whatever goes wrong is a line and exit status 1, never a stack trace: the checks themselves never throw.
process.exitCode = await main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`audit-verify: the bundle could not be checked: ${shown(String(error))}\n`);
  return 1;
});
