import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DatasetCommands } from './dataset-commands';
import { DatasetsRepository } from './datasets-repository';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every change of a dataset, as a command on its stream, and the dataset as of any version. */
    datasetCommands: DatasetCommands;
  }
}

export default fp(
  async (app: FastifyInstance) => {
    const datasets = new DatasetsRepository(app.sql);
    app.decorate('datasetCommands', new DatasetCommands(app.commands, datasets, app.flows, app.store));
  },
  {
    name: 'datasets',
    fastify: '5.x',
    dependencies: ['commands', 'flows'],
    decorators: { fastify: ['sql', 'store'] },
  },
);
