import type { UseMutationResult } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { useOneAtATime } from './use-one-at-a-time';

type Mutation = UseMutationResult<unknown, Error, string, unknown>;

let guarded: (variables: string) => void = () => undefined;

function Form({ mutation }: { mutation: Mutation }) {
  guarded = useOneAtATime(mutation);
  return null;
}

/** The guarded mutate of a mutation whose calls each wait for `settle`. */
function guardedMutate() {
  const calls: string[] = [];
  let settle: (ok: boolean) => void = () => undefined;
  const mutation = {
    mutateAsync: (variables: string) => {
      calls.push(variables);
      return new Promise((resolve, reject) => {
        settle = (ok) => (ok ? resolve(variables) : reject(new Error('500: boom')));
      });
    },
  } as unknown as Mutation;
  renderToStaticMarkup(createElement(Form, { mutation }));
  return { calls, mutate: guarded, settle: (ok: boolean) => settle(ok) };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('useOneAtATime', () => {
  it('drops a second call while the first is on its way, and takes the next one after it ended', async () => {
    const form = guardedMutate();
    form.mutate('first');
    form.mutate('twice');
    expect(form.calls).toEqual(['first']);
    form.settle(false);
    await settled();
    form.mutate('again');
    expect(form.calls).toEqual(['first', 'again']);
    form.settle(true);
    await settled();
    form.mutate('more');
    expect(form.calls).toEqual(['first', 'again', 'more']);
  });
});
