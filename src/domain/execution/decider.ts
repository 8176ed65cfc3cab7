import type { Decider } from '../decider';
import { decide } from './decide';
import { evolve, initialState } from './evolve';
import type { DecideContext, ExecutionCommand, ExecutionEvent, ExecutionState } from './types';

/** An execution's rules: the state its history folds to, and what each command adds to the history. */
export const decider: Decider<ExecutionState, ExecutionCommand, ExecutionEvent, DecideContext> = {
  initialState,
  evolve,
  decide,
};
