import { describe, expect, it } from 'vitest';
import { aStep } from './execution/testing';
import { inputSourceOptions, loopIterationsFrom } from './step-configuration';

describe('loopIterationsFrom', () => {
  it.each([
    ['3', 3],
    ['1', 1],
    ['100', 100],
    [' 7 ', 7],
  ])('reads %j as %i', (input, expected) => expect(loopIterationsFrom(input)).toBe(expected));

  it.each(['', 'abc', '0', '-4', '2.5', 'NaN', '101', '250'])('falls back to 1 on %j', (input) =>
    expect(loopIterationsFrom(input)).toBe(1),
  );
});

describe('inputSourceOptions', () => {
  const steps = [aStep(3), aStep(1), aStep(2), aStep(4)];

  it('offers only the steps before the step, in order', () => {
    expect(inputSourceOptions(steps, aStep(3)).map((s) => s.order)).toEqual([1, 2]);
  });

  it('offers nothing to the first step', () => {
    expect(inputSourceOptions(steps, aStep(1))).toEqual([]);
  });
});
