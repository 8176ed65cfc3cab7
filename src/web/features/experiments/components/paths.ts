/** Where a flow's experiments are listed, and the form that starts one. */
export const experimentsPath = (flowId: string) => `/flows/${flowId}/experiments`;

/**
 * The experiments page with its form set to run `newer`, compared with an experiment of `older` (the latest
 * ended one on the dataset chosen, or else a run of `older` first).
 */
export const runBothPath = (flowId: string, older: number, newer: number) =>
  `${experimentsPath(flowId)}?${new URLSearchParams({ version: String(newer), against: String(older) })}#run`;

/** Where one experiment is shown. */
export const experimentPath = (id: string) => `/experiments/${id}`;

/** Where experiments are compared, the first the baseline. */
export const comparePath = (ids: readonly string[]) =>
  `/experiments/compare?${new URLSearchParams({ ids: ids.join(',') })}`;

/** A whole number of the address's query, or nothing. */
export function numberParam(search: string, name: string): number | undefined {
  const value = Number(new URLSearchParams(search).get(name));
  return Number.isInteger(value) && value > 0 ? value : undefined;
}
