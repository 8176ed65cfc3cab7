import { randomUUID } from 'node:crypto';
import type { DatasetCommand } from '../../domain/dataset/commands';
import { itemsFromCsv } from '../../domain/dataset/csv-items';
import { TOO_MANY_DATASETS } from '../../domain/dataset/decider';
import { datasetStreamId, type NewDatasetItem } from '../../domain/dataset/events';
import { datasetView } from '../../domain/dataset/view';
import { notFound, ruleViolated } from '../../domain/errors';
import type { EventStore } from '../../eventstore';
import { toDatasetEvent } from '../../projections/project-dataset-events';
import type { CommandHandler } from '../commands/command-handler';
import { executionAggregate } from '../executions';
import type { FlowsRepository } from '../flows';
import type { Page } from '../http/pages';
import { heldBy } from './dataset-aggregate';
import {
  type DatasetItemRow,
  type DatasetRow,
  type DatasetsRepository,
  isPastDatasetsLimit,
} from './datasets-repository';

/** An item as a client sends it: its texts by step id, and its tags. */
export interface ItemInput {
  inputs: Record<string, string>;
  expected?: Record<string, string> | undefined;
  tags?: string[] | undefined;
}

/** What adding items answers: the version they made, their ids, and the names that are no step of the flow. */
export interface AddedItems {
  datasetId: string;
  version: number;
  itemIds: string[];
  /** Input and expected names (and CSV columns) that name no step of the flow now: kept as given. */
  unknownKeys: string[];
}

/** A dataset with its items, at its current version or an older one. */
export type DatasetWithItems = DatasetRow & { items: DatasetItemRow[] };

export const versionNotFound = (version: number, current: number) =>
  `Dataset chưa có phiên bản ${version} (phiên bản hiện tại: ${current})`;
export const OTHER_FLOW = 'Execution này là run của một flow khác; dataset chỉ nhận run của flow của nó';
export const NOTHING_TO_CAPTURE =
  'Execution này chưa có user input nào hay kết quả nào đã được duyệt để lưu thành item';

/**
 * Every change of a dataset, as a command on its stream (`dataset-<id>`) through the one command handler,
 * allowed by the access rule on the dataset's flow as it is now; and the dataset as of any of its versions.
 */
export class DatasetCommands {
  /** What "now" is for the commands: the clock, unless a test moves it. */
  now: () => Date = () => new Date();

  constructor(
    private readonly commands: CommandHandler,
    private readonly datasets: DatasetsRepository,
    private readonly flows: FlowsRepository,
    private readonly store: EventStore,
  ) {}

  /** A new dataset of the flow, by whoever may change the flow. */
  async create(userId: string, input: { name: string; flowId: string }, commandId?: string) {
    const flow = await this.flows.owned(input.flowId, userId, 'change');
    const datasetId = randomUUID();
    const datasetsOfFlow = await this.datasets.countOf(flow.id);
    const { state } = await this.commands
      .handle(
        heldBy({ ownerId: flow.userId, workspaceId: flow.workspaceId }),
        datasetId,
        userId,
        {
          type: 'CreateDataset',
          data: {
            datasetId,
            flowId: flow.id,
            workspaceId: flow.workspaceId,
            name: input.name,
            datasetsOfFlow,
          },
        },
        {
          context: this.contextFor(userId),
          startsStream: true,
          commandId,
          // The count above holds for one dataset at a time; those made at once are counted again as stored.
          withEvents: (tx) => this.datasets.withinLimit(tx, flow.id),
        },
      )
      .catch((error: unknown) => {
        throw isPastDatasetsLimit(error) ? ruleViolated(TOO_MANY_DATASETS) : error;
      });
    return this.datasets.readable(state.datasetId!, userId);
  }

  /** The flow's datasets, newest first; another user's flow is missing. */
  async list(flowId: string, userId: string, page: Page | null) {
    await this.flows.owned(flowId, userId);
    return this.datasets.list(flowId, userId, page);
  }

  async rename(datasetId: string, userId: string, name: string, commandId?: string) {
    await this.handle(datasetId, userId, { type: 'RenameDataset', data: { name } }, commandId);
    return this.datasets.readable(datasetId, userId);
  }

  /** Items typed in or sent as JSON. */
  async addItems(datasetId: string, userId: string, items: ItemInput[], commandId?: string) {
    const made = items.map(
      (item): NewDatasetItem => ({
        itemId: randomUUID(),
        inputs: item.inputs,
        expected: item.expected ?? {},
        tags: item.tags ?? [],
        source: 'manual',
      }),
    );
    const steps = await this.stepsOf(datasetId, userId);
    return this.add(datasetId, userId, made, commandId, (added) =>
      unknownKeysOf(added, new Set(steps.map((step) => step.id))),
    );
  }

  /** The items of a CSV file (see itemsFromCsv), its columns naming the flow's steps as they are now. */
  async addCsv(datasetId: string, userId: string, csv: string, commandId?: string) {
    const steps = await this.stepsOf(datasetId, userId);
    const { items, unknownColumns } = itemsFromCsv(csv, steps, randomUUID);
    return this.add(datasetId, userId, items, commandId, () => unknownColumns);
  }

  /**
   * A run of the dataset's flow as an item: the user input each step ran on (its latest run's), and the
   * approved result of each step (its latest approved one) as what the step should answer.
   */
  async addFromExecution(
    datasetId: string,
    userId: string,
    input: { executionId: string; tags?: string[] | undefined },
    commandId?: string,
  ) {
    // Whoever may not change the dataset hears of nothing else first: another's dataset is 404 whatever the run.
    const { flowId } = await this.datasets.readable(datasetId, userId, 'change');
    const { state: execution } = await this.commands.load(executionAggregate, input.executionId, userId);
    if (execution.flowId !== flowId) throw ruleViolated(OTHER_FLOW);
    const inputs: Record<string, string> = {};
    for (const run of execution.runs) {
      if (run.userInput !== undefined && run.userInput.trim() !== '') inputs[run.stepId] = run.userInput;
    }
    const expected: Record<string, string> = {};
    for (const result of execution.results) if (result.approved) expected[result.stepId] = result.result;
    if (Object.keys(inputs).length === 0 && Object.keys(expected).length === 0)
      throw ruleViolated(NOTHING_TO_CAPTURE);
    const item: NewDatasetItem = {
      itemId: randomUUID(),
      inputs,
      expected,
      tags: input.tags ?? [],
      source: 'execution',
      sourceExecutionId: execution.id,
    };
    return this.add(datasetId, userId, [item], commandId, () => []);
  }

  async archive(datasetId: string, userId: string, itemId: string, commandId?: string) {
    return this.setArchived(datasetId, userId, itemId, true, commandId);
  }

  async restore(datasetId: string, userId: string, itemId: string, commandId?: string) {
    return this.setArchived(datasetId, userId, itemId, false, commandId);
  }

  /**
   * The dataset with its items: as the read models hold it now, or as its stream's events up to `version`
   * made it (what an experiment pins). A version it has not reached is missing.
   */
  async read(datasetId: string, userId: string, version?: number): Promise<DatasetWithItems> {
    const current = await this.datasets.readable(datasetId, userId);
    if (version === undefined || version === current.version) {
      // The items as of the row's version: the row is read again with them, in one snapshot of the database.
      return this.datasets.withItems(datasetId);
    }
    if (version > current.version) throw notFound(versionNotFound(version, current.version));
    const { events } = await this.store.readStream(datasetStreamId(datasetId), { limit: version });
    const view = datasetView(
      events.map((recorded) => ({ event: toDatasetEvent(recorded), position: recorded.streamPosition })),
      version,
    );
    if (!view) throw notFound(versionNotFound(version, current.version));
    return {
      id: view.datasetId,
      flowId: view.flowId,
      name: view.name,
      version: view.version,
      createdBy: view.createdBy,
      createdAt: new Date(view.createdAt),
      updatedAt: new Date(view.updatedAt),
      itemCount: view.items.length,
      archivedCount: view.items.filter((item) => item.archived).length,
      items: view.items.map((item) => ({
        id: item.itemId,
        inputs: item.inputs,
        expected: item.expected,
        tags: item.tags,
        source: item.source,
        sourceExecutionId: item.sourceExecutionId ?? null,
        archived: item.archived,
        addedBy: item.addedBy,
        addedAt: new Date(item.addedAt),
        addedInVersion: item.addedInVersion,
      })),
    };
  }

  private async add(
    datasetId: string,
    userId: string,
    items: NewDatasetItem[],
    commandId: string | undefined,
    unknownOf: (added: NewDatasetItem[]) => string[],
  ): Promise<AddedItems> {
    const { events, version } = await this.handle(
      datasetId,
      userId,
      { type: 'AddDatasetItems', data: { items } },
      commandId,
    );
    // The items recorded: this request's, or the first one's when its Idempotency-Key was seen before.
    const added = events.flatMap((event) => (event.type === 'DatasetItemsAdded' ? event.data.items : []));
    return { datasetId, version, itemIds: added.map((item) => item.itemId), unknownKeys: unknownOf(added) };
  }

  private async setArchived(
    datasetId: string,
    userId: string,
    itemId: string,
    archived: boolean,
    commandId: string | undefined,
  ) {
    const { state, version } = await this.handle(
      datasetId,
      userId,
      archived
        ? { type: 'ArchiveDatasetItem', data: { itemId } }
        : { type: 'RestoreDatasetItem', data: { itemId } },
      commandId,
    );
    const item = state.items.find((each) => each.itemId === itemId);
    return { datasetId, itemId, archived: item?.archived ?? archived, version };
  }

  /** The steps of the dataset's flow as they are now, to whoever may read it. */
  private async stepsOf(datasetId: string, userId: string) {
    const dataset = await this.datasets.readable(datasetId, userId);
    return this.flows.stepSnapshots(dataset.flowId, userId);
  }

  /** A command on the dataset, decided only where the access rule on its flow lets the user give it. */
  private async handle(datasetId: string, userId: string, command: DatasetCommand, commandId?: string) {
    const { holder } = await this.datasets.flowOf(datasetId);
    return this.commands.handle(heldBy(holder), datasetId, userId, command, {
      context: this.contextFor(userId),
      commandId,
    });
  }

  private contextFor(userId: string) {
    return (_state: unknown, version: number) => ({ now: this.now().toISOString(), userId, version });
  }
}

/** The input and expected names of the items that are no step id of the flow, each once. */
export function unknownKeysOf(items: NewDatasetItem[], stepIds: ReadonlySet<string>): string[] {
  const keys = items.flatMap((item) => [...Object.keys(item.inputs), ...Object.keys(item.expected)]);
  return [...new Set(keys.filter((key) => !stepIds.has(key)))];
}
