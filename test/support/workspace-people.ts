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
