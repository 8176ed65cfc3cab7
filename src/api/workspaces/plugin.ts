import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { WorkspaceCommands } from './workspace-commands';
import { WorkspacesRepository } from './workspaces-repository';

declare module 'fastify' {
  interface FastifyInstance {
    /** Reads of workspaces, their members and invitations (read models). */
    workspaces: WorkspacesRepository;
    /** Every change of a workspace, its members or invitations: a command on the workspace's stream. */
    workspaceCommands: WorkspaceCommands;
  }
}

export default fp(
  async (app: FastifyInstance) => {
    const workspaces = new WorkspacesRepository(app.sql);
    app.decorate('workspaces', workspaces);
    app.decorate('workspaceCommands', new WorkspaceCommands(app.commands, workspaces, app.notifications));
  },
  {
    name: 'workspaces',
    fastify: '5.x',
    dependencies: ['commands', 'notifications'],
    decorators: { fastify: ['sql'] },
  },
);
