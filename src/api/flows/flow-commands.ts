import { randomUUID } from 'node:crypto';
import type { TransactionSql } from 'postgres';
import { conflict, notFound } from '../../domain/errors';
import type { CreateFlowInput, CreateStepInput, Flow, Step, UpdateStepInput } from '../../domain/flow';
import type { FlowCommand, FlowContext } from '../../domain/flow/commands';
import { FLOW_NOT_FOUND, decider as flowDecider, versionNotFound } from '../../domain/flow/decider';
import { type FlowOrigin, type FlowState, flowStreamId, type VersionedStep } from '../../domain/flow/events';
import type { ReviewMember } from '../../domain/step-review';
import { inputSourceIds, type WorkflowJson } from '../../domain/workflow-json';
import type { EventStore, Statement } from '../../eventstore';
import { toFlowEvent } from '../../projections/project-flow-events';
import { requireOwnerTakesBack, requireOwnRecords } from '../access';
import type { CommandHandler, Loaded } from '../commands/command-handler';
import { requireVersion, type VersionCondition } from '../http/entity-tags';
import { flowAggregate } from './flow-aggregate';
import type { FlowsRepository } from './flows-repository';

/** A flow as one of its versions has it: the flow's fields and its steps, in order. */
export interface FlowVersion {
  version: number;
  flow: Flow;
  steps: Step[];
}

/** The flow's fields as the API answers them, from its state. */
export const flowOf = (state: FlowState): Flow => ({
  id: state.flowId!,
  userId: state.userId!,
  workspaceId: state.workspaceId,
  ...state.details,
  createdAt: state.createdAt!,
  updatedAt: state.updatedAt!,
});

const stepOf = (flowId: string, step: VersionedStep): Step => ({ ...step, flowId });

export const flowVersionOf = (state: FlowState, version: number): FlowVersion => ({
  version,
  flow: flowOf(state),
  steps: state.steps.map((step) => stepOf(state.flowId!, step)),
});

/**
 * Every change of a flow and its steps, as a command on the flow's stream (`flow-<id>`) through the one
 * command handler: each change is a version, and `flows`/`steps` are projected in the same transaction.
 */
export class FlowCommands {
  constructor(
    private readonly commands: CommandHandler,
    private readonly store: EventStore,
    private readonly flows: FlowsRepository,
    private readonly workspaces: WorkspaceMembers,
  ) {}

  /** A new flow without steps, made by hand: the user's own, or in a workspace where they may edit flows. */
  async create(userId: string, input: CreateFlowInput, commandId?: string): Promise<Flow> {
    const details = { name: input.name, description: input.description, status: input.status ?? 'draft' };
    const workspaceId = input.workspaceId ?? null;
    if (workspaceId !== null) await this.commands.requireIn(workspaceId, userId, 'change', 'flow');
    else requireOwnRecords(userId);
    const { state } = await this.createFlow(userId, 'manual', { ...details, isTemplate: false }, [], {
      commandId,
      workspaceId,
    });
    return flowOf(state);
  }

  /**
   * Moves the flow into a workspace, to another, or back to its owner's own flows (null): who may change it
   * where it is, into a workspace where they may edit flows; back to the owner's own flows, its owner only.
   */
  async move(
    flowId: string,
    userId: string,
    workspaceId: string | null,
    options: { commandId?: string | undefined; expected?: VersionCondition | undefined } = {},
  ): Promise<{ flow: Flow; version: number }> {
    const current = await this.flows.current({ flowId }, userId);
    if (workspaceId === null) requireOwnerTakesBack(userId, current.state.userId!);
    else await this.commands.requireIn(workspaceId, userId, 'change', 'flow');
    const command: FlowCommand = { type: 'MoveFlow', data: { workspaceId } };
    const { state, version } = await this.handle(flowId, userId, command, { ...options, current });
    return { flow: flowOf(state), version };
  }

  /**
   * A new flow with all its steps, created whole or not at all, with the caller's own writes when it has
   * some. Steps keep their orders; their 'step-N' input sources become the new steps' ids. A missing
   * description becomes the name.
   */
  async createWithSteps(
    userId: string,
    workflow: WorkflowJson,
    origin: FlowOrigin,
    withEvents?: (tx: TransactionSql) => Statement,
    workspaceId: string | null = null,
  ): Promise<Flow & { steps: Step[] }> {
    if (workspaceId !== null) await this.commands.requireIn(workspaceId, userId, 'change', 'flow');
    else requireOwnRecords(userId);
    const idOfOrder = new Map(workflow.steps.map((step) => [step.order, randomUUID()]));
    const createdAt = new Date().toISOString();
    const steps: VersionedStep[] = workflow.steps.map((step) => ({
      id: idOfOrder.get(step.order)!,
      order: step.order,
      name: step.name,
      systemPrompt: step.systemPrompt,
      outputMode: step.outputMode,
      inputSources: inputSourceIds(step, idOfOrder),
      choices: step.choices,
      loopTargetStepId: null,
      maxLoopIterations: step.maxLoopIterations,
      currentLoopIteration: 0,
      requiresUserInput: step.requiresUserInput,
      ...(step.review ? { review: step.review } : {}),
      ...(step.model ? { model: step.model } : {}),
      createdAt,
    }));
    const details = {
      name: workflow.name,
      description: workflow.description || workflow.name,
      status: 'draft',
      isTemplate: false,
    };
    const { state } = await this.createFlow(userId, origin, details, steps, { withEvents, workspaceId });
    return { ...flowOf(state), steps: state.steps.map((step) => stepOf(state.flowId!, step)) };
  }

  /**
   * Name, description and status as one save: one version. With `expected` (the client's If-Match) the save
   * is made only on that version of the flow, as are the other changes below.
   */
  async revise(
    flowId: string,
    userId: string,
    changes: Partial<CreateFlowInput>,
    expected?: VersionCondition,
  ): Promise<{ flow: Flow; version: number }> {
    const command: FlowCommand = { type: 'ReviseFlow', data: changes };
    const { state, version } = await this.handle(flowId, userId, command, { expected });
    return { flow: flowOf(state), version };
  }

  async delete(flowId: string, userId: string, expected?: VersionCondition): Promise<void> {
    await this.handle(flowId, userId, { type: 'DeleteFlow', data: {} }, { expected });
  }

  async addStep(userId: string, input: CreateStepInput): Promise<Step> {
    const { flowId, ...fields } = input;
    const id = randomUUID();
    const { state } = await this.handle(flowId, userId, {
      type: 'AddStep',
      data: { step: { ...fields, id } },
    });
    return this.stepIn(state, id);
  }

  /** A step's version is its flow's: `expected` is checked against the flow's version. */
  async editStep(
    stepId: string,
    userId: string,
    changes: UpdateStepInput,
    expected?: VersionCondition,
  ): Promise<{ step: Step; version: number }> {
    const current = await this.flows.current({ stepId }, userId);
    const command: FlowCommand = { type: 'EditStep', data: { stepId, changes } };
    const { state, version } = await this.handle(current.state.flowId!, userId, command, {
      current,
      expected,
    });
    return { step: this.stepIn(state, stepId), version };
  }

  /** Removes the step; answers the flow's version that records it. */
  async removeStep(stepId: string, userId: string, expected?: VersionCondition): Promise<number> {
    const current = await this.flows.current({ stepId }, userId);
    const command: FlowCommand = { type: 'RemoveStep', data: { stepId } };
    return (await this.handle(current.state.flowId!, userId, command, { current, expected })).version;
  }

  /** The flow as it stood at `version` made its newest version; nothing earlier is rewritten. */
  async restore(flowId: string, userId: string, version: number, commandId?: string): Promise<FlowVersion> {
    const past = await this.versionState(flowId, userId, version);
    const restored = await this.handle(
      flowId,
      userId,
      { type: 'RestoreVersion', data: { version, past: past.state } },
      { commandId },
    );
    return flowVersionOf(restored.state, restored.version);
  }

  /** The flow's stream folded up to `version`; another user's flow, a deleted one or a version to come is missing. */
  async versionState(
    flowId: string,
    userId: string,
    version: number,
  ): Promise<{ state: FlowState; version: number }> {
    // Who may read the flow now may read each of its versions, wherever the flow was then.
    await this.flows.owned(flowId, userId);
    const { events } = await this.store.readStream(flowStreamId(flowId), { limit: version });
    const state = events.map(toFlowEvent).reduce(flowDecider.evolve, flowDecider.initialState());
    if (flowAggregate.holderOf(state) === undefined) throw notFound(FLOW_NOT_FOUND);
    const reached = events.at(-1)?.streamPosition ?? 0;
    if (reached < version) throw notFound(versionNotFound(version));
    return { state, version: reached };
  }

  private async createFlow(
    userId: string,
    origin: FlowOrigin,
    details: FlowState['details'],
    steps: VersionedStep[],
    options: {
      commandId?: string | undefined;
      withEvents?: ((tx: TransactionSql) => Statement) | undefined;
      workspaceId?: string | null;
    },
  ) {
    const flowId = randomUUID();
    const { workspaceId = null, ...handling } = options;
    const people = await this.peopleOf(workspaceId, userId);
    return this.commands.handle(
      flowAggregate,
      flowId,
      userId,
      { type: 'CreateFlow', data: { flowId, origin, workspaceId, details, steps } },
      { context: contextFor(userId, people), startsStream: true, ...handling },
    );
  }

  /**
   * A command on the flow, decided first on `current` (its read models, read here when not given), and only
   * on a version `expected` accepts, when given.
   */
  private async handle(
    flowId: string,
    userId: string,
    command: FlowCommand,
    options: {
      commandId?: string | undefined;
      current?: Loaded<FlowState>;
      expected?: VersionCondition | undefined;
    } = {},
  ) {
    const { commandId, current, expected } = options;
    const loaded = current ?? (await this.flows.current({ flowId }, userId));
    const people = await this.peopleOf(loaded.state.workspaceId, userId);
    return this.commands.handle(flowAggregate, flowId, userId, command, {
      context: contextFor(userId, people),
      commandId,
      loaded,
      guard: expected && ((_state, version) => requireVersion(expected, version)),
    });
  }

  /** The workspace's members, for the rules of a step's review there; none for a flow of its owner's own. */
  private async peopleOf(workspaceId: string | null, userId: string): Promise<WorkspacePeople | null> {
    if (workspaceId === null) return null;
    const members = await this.workspaces.members(workspaceId, userId);
    return { workspaceId, members: members.map(({ userId, role }) => ({ userId, role })) };
  }

  private stepIn(state: FlowState, stepId: string): Step {
    return stepOf(state.flowId!, state.steps.find((step) => step.id === stepId)!);
  }
}

/** Where the flow commands read a workspace's members (the read model's `members`). */
export interface WorkspaceMembers {
  members(workspaceId: string, userId: string): Promise<ReviewMember[]>;
}

/** A workspace's members, read for a command on a flow in it. */
interface WorkspacePeople {
  workspaceId: string;
  members: ReviewMember[];
}

export const FLOW_MOVED_MEANWHILE = 'Flow vừa được chuyển sang workspace khác: vui lòng thử lại';

/**
 * What the flow decider decides with: the time, the actor, the version, and in a workspace the actor's role
 * and its members, read for the workspace the flow is in (or is made in). A flow moved since they were read
 * is not decided on with another workspace's people.
 */
const contextFor =
  (userId: string, people: WorkspacePeople | null) =>
  (state: FlowState, version: number): FlowContext => {
    const workspaceId = state.flowId === null ? (people?.workspaceId ?? null) : state.workspaceId;
    if (workspaceId !== (people?.workspaceId ?? null)) throw conflict(FLOW_MOVED_MEANWHILE, true);
    const context = { now: new Date().toISOString(), userId, version };
    if (people === null) return context;
    const role = people.members.find((member) => member.userId === userId)?.role ?? null;
    return { ...context, role, members: people.members };
  };
