import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { anotherAddress, as, type Client, signUp } from './test-app';

/** A signed-up person: their client, id and mail address. */
export interface Person {
  client: Client;
  id: string;
  email: string;
}

export async function person(app: FastifyInstance, firstName: string): Promise<Person> {
  const { cookie, user, email } = await signUp(app, firstName, { remoteAddress: anotherAddress() });
  return { client: as(app, cookie), id: user.id, email };
}

/** The answer's body, once its status is the one expected. */
export const ok = (response: LightMyRequestResponse, status = 200) => {
  expect(response.statusCode, response.body).toBe(status);
  return response.json();
};

export async function newWorkspace(owner: Person, name = 'Team') {
  return ok(await owner.client.post('/api/workspaces', { name }), 201) as { id: string };
}

/** `member` joins the workspace in `role`, invited by `owner`. */
export async function join(owner: Person, workspaceId: string, member: Person, role: string) {
  const invited = ok(
    await owner.client.post(`/api/workspaces/${workspaceId}/invitations`, { email: member.email, role }),
    201,
  );
  const token = invited.acceptUrl.split('/').at(-1);
  ok(await member.client.post(`/api/invitations/${token}/accept`));
}

/** A workspace's people for reviews: its owner, a runner (editor) and two reviewers, Ana and Bao. */
export interface ReviewTeam {
  owner: Person;
  runner: Person;
  ana: Person;
  bao: Person;
  workspaceId: string;
}

/** A workspace named `name` with its owner, a runner (editor) and two reviewers; `name` ends each first name. */
export async function reviewTeam(app: FastifyInstance, name = 'Team'): Promise<ReviewTeam> {
  const [owner, runner, ana, bao] = await Promise.all(
    ['Owner', 'Runner', 'Ana', 'Bao'].map((first) => person(app, `${first} ${name}`)),
  );
  const { id: workspaceId } = await newWorkspace(owner!, name);
  await join(owner!, workspaceId, runner!, 'editor');
  await join(owner!, workspaceId, ana!, 'reviewer');
  await join(owner!, workspaceId, bao!, 'reviewer');
  return { owner: owner!, runner: runner!, ana: ana!, bao: bao!, workspaceId };
}
