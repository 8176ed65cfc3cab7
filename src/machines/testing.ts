/** A request a machine made that waits until the test answers it. */
export interface Pending<T, I = unknown> {
  input: I;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

/** A promise actor's body for tests: each call is put in `calls` and waits there to be answered. */
export const waitIn =
  <T, I>(calls: Pending<T, I>[]) =>
  ({ input }: { input: I }) =>
    new Promise<T>((resolve, reject) => calls.push({ input, resolve, reject }));

/** Lets the machine take in an answer given to one of its requests. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
