import type { MutateOptions, UseMutationResult } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';

/**
 * The mutation's `mutate`, but a call while one is on its way is dropped: a second click would create
 * the flow (the session, the key) twice. `isPending` only changes on the next render, so two clicks in
 * one frame both see it false; this knows at once.
 */
export function useOneAtATime<TData, TError, TVariables, TContext>(
  mutation: UseMutationResult<TData, TError, TVariables, TContext>,
) {
  const onTheWay = useRef(false);
  const { mutateAsync } = mutation;
  return useCallback(
    (variables: TVariables, options?: MutateOptions<TData, TError, TVariables, TContext>) => {
      if (onTheWay.current) return;
      onTheWay.current = true;
      mutateAsync(variables, options)
        // The mutation cache's toast tells the failure.
        .catch(() => undefined)
        .finally(() => {
          onTheWay.current = false;
        });
    },
    [mutateAsync],
  );
}
