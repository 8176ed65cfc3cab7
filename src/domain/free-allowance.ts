/**
 * The free allowance: a user without an own active key may make a fixed number of step runs on the
 * default key (or the offline model); with an own active key there is no limit. A run may start while the
 * runs counted and those under way leave room under the allowance: decided in PostgreSQL, one user's runs
 * at a time (`reserve_free_run`, migration 014), so that requests sent together cannot all pass.
 */

/** `remainingSteps` of a user whose runs are unlimited. */
export const UNLIMITED_STEPS = -1;

/** Above this many remaining steps the usage is shown as plenty; at or below, as running out. */
export const FEW_STEPS_LEFT = 5;

export interface UsageStanding {
  /** The user has an active own key. */
  hasOwnKey: boolean;
  /** Successful runs made without an own key. */
  usedSteps: number;
  /** FREE_STEP_ALLOWANCE. */
  allowance: number;
}

export function remainingSteps({ hasOwnKey, usedSteps, allowance }: UsageStanding): number {
  if (hasOwnKey) return UNLIMITED_STEPS;
  return Math.max(0, allowance - usedSteps);
}

export type UsageLevel = 'unlimited' | 'plenty' | 'low';

/** How the usage is shown: green when unlimited, yellow with more than 5 left, red otherwise. */
export function usageLevel(remaining: number): UsageLevel {
  if (remaining === UNLIMITED_STEPS) return 'unlimited';
  return remaining > FEW_STEPS_LEFT ? 'plenty' : 'low';
}

/** The refusal of a run past the allowance, in the product's two languages. */
export function allowanceUsedUpMessage(allowance: number): string {
  return (
    `Bạn đã dùng hết ${allowance} steps miễn phí. Thêm API key của riêng bạn ở trang API Keys (/api-keys) ` +
    `để tiếp tục không giới hạn. (The free allowance of ${allowance} steps is used up: add your own API ` +
    'key on the API keys page.)'
  );
}
