import { describe, expect, it } from 'vitest';
import { EVENTS_USAGE, parseEventsArguments, UsageError } from './events-arguments';

const EXECUTION_ID = '0b6f0d6e-4a7e-4c43-9d1b-2f0e3a9b8c71';
const FLOW_ID = '5c0d7a3e-1b2f-4e6a-8c9d-0a1b2c3d4e5f';

function refusal(argv: string[]): string {
  try {
    parseEventsArguments(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${argv.join(' ')}`);
}

describe('parseEventsArguments', () => {
  it('reads tail, show and command, with or without --json anywhere', () => {
    expect(parseEventsArguments(['tail'])).toEqual({ command: 'tail', json: false, as: null });
    expect(parseEventsArguments(['--json', 'tail'])).toEqual({ command: 'tail', json: true, as: null });
    expect(parseEventsArguments(['show', EXECUTION_ID, '--json'])).toEqual({
      command: 'show',
      id: EXECUTION_ID,
      json: true,
      as: null,
    });
    expect(parseEventsArguments(['command', 'my-key-1'])).toEqual({
      command: 'command',
      commandId: 'my-key-1',
      json: false,
      as: null,
    });
  });

  it('reads verify with an execution or flow id, a stream id, --all, or nothing (every stream)', () => {
    expect(parseEventsArguments(['verify', EXECUTION_ID])).toEqual({
      command: 'verify',
      target: { id: EXECUTION_ID },
      json: false,
      as: null,
    });
    expect(parseEventsArguments(['verify', `flow-${FLOW_ID}`, '--json'])).toEqual({
      command: 'verify',
      target: { streamId: `flow-${FLOW_ID}` },
      json: true,
      as: null,
    });
    for (const argv of [['verify', '--all'], ['verify']]) {
      expect(parseEventsArguments(argv)).toEqual({ command: 'verify', target: null, json: false, as: null });
    }
    expect(refusal(['verify', EXECUTION_ID, '--all'])).toMatch(/^verify takes an id or --all, not both/);
    expect(refusal(['verify', 'nonsense'])).toMatch(/^Malformed execution, flow or stream id 'nonsense'/);
    expect(refusal(['show', EXECUTION_ID, '--all'])).toMatch(/^--all is for 'verify' only/);
  });

  it('answers help for nothing, help, --help and -h', () => {
    for (const argv of [[], ['help'], ['--help'], ['show', '-h']]) {
      expect(parseEventsArguments(argv)).toEqual({ command: 'help' });
    }
    expect(EVENTS_USAGE).toMatch(/tail[\s\S]*show <id>[\s\S]*command <commandId>[\s\S]*--json/);
    expect(EVENTS_USAGE).toMatch(/show <id> +every event of one execution or flow/);
  });

  it("reads the id of show as an execution's or a flow's: the tool looks up both streams", () => {
    expect(parseEventsArguments(['show', FLOW_ID])).toEqual({
      command: 'show',
      id: FLOW_ID,
      json: false,
      as: null,
    });
    expect(parseEventsArguments(['--json', 'show', FLOW_ID])).toEqual({
      command: 'show',
      id: FLOW_ID,
      json: true,
      as: null,
    });
  });

  it('reads --as as the user whose eyes the tool reads with, and refuses what is no user id', () => {
    expect(parseEventsArguments(['show', FLOW_ID, '--as', EXECUTION_ID])).toEqual({
      command: 'show',
      id: FLOW_ID,
      json: false,
      as: EXECUTION_ID,
    });
    expect(parseEventsArguments(['tail', `--as=${FLOW_ID}`])).toMatchObject({ command: 'tail', as: FLOW_ID });
    expect(refusal(['tail', '--as', 'alice'])).toMatch(
      /^Malformed user id of --as 'alice': a user id is a uuid/,
    );
    expect(EVENTS_USAGE).toMatch(/--as <userId> +only the streams that user may read/);
  });

  it('refuses an unknown command or option with the usage', () => {
    expect(refusal(['follow'])).toMatch(/^Unknown command 'follow'\.\n\nUsage:/);
    expect(refusal(['tail', '--yaml'])).toMatch(/^Unknown option '--yaml'\.\n\nUsage:/);
  });

  it('refuses a missing or malformed id, and extra words', () => {
    expect(refusal(['show'])).toMatch(/^Missing execution or flow id\./);
    expect(refusal(['show', 'execution-1'])).toBe(
      "Malformed execution or flow id 'execution-1': an execution or flow id is a uuid, as in " +
        'execution-<uuid> and flow-<uuid> streams.',
    );
    expect(refusal(['show', `flow-${FLOW_ID}`])).toMatch(/^Malformed execution or flow id 'flow-/);
    expect(refusal(['command'])).toMatch(/^Missing command id\./);
    expect(refusal(['command', 'x'.repeat(201)])).toMatch(
      /^Malformed command id 'x+': a command id has at most 200/,
    );
    expect(refusal(['show', EXECUTION_ID, 'more'])).toMatch(/^Too many arguments for 'show'/);
    expect(refusal(['tail', 'now'])).toMatch(/^Too many arguments for 'tail'/);
  });
});
