import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { WorkspacesRepository } from '../workspaces';
import { FlowCommands } from './flow-commands';
import { FlowsRepository } from './flows-repository';

declare module 'fastify' {
  interface FastifyInstance {
    /** Reads of flows and steps (read models), and the rule that another user's flow is missing. */
    flows: FlowsRepository;
    /** Every change of a flow or its steps: a command on the flow's stream. */
    flowCommands: FlowCommands;
  }
}

export default fp(
  async (app: FastifyInstance) => {
    const flows = new FlowsRepository(app.sql);
    app.decorate('flows', flows);
    app.decorate(
      'flowCommands',
      new FlowCommands(app.commands, app.store, flows, new WorkspacesRepository(app.sql)),
    );
  },
  { name: 'flows', fastify: '5.x', dependencies: ['commands'], decorators: { fastify: ['sql', 'store'] } },
);
