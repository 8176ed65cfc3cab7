import { isDatabaseAway } from '../http/errors';

/**
 * How long a write the server must not lose is tried again while the database is away: a run's outcome, or
 * finding out whether a run's start was stored. A run whose outcome is not recorded stays `running`, and its
 * step cannot run again until the crash sweep finds it abandoned (minutes, its process being alive): its
 * request waits through an outage of up to this long instead. Past it, the request answers 503 and the run
 * is left to the sweep.
 */
export const THROUGH_OUTAGE_MS = 60_000;
const AGAIN_AFTER_MS = 250;

/** `attempt`, tried again while it fails only because the database is away, for up to THROUGH_OUTAGE_MS. */
export async function throughOutage<T>(attempt: () => Promise<T>): Promise<T> {
  const until = Date.now() + THROUGH_OUTAGE_MS;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (!isDatabaseAway(error) || Date.now() >= until) throw error;
      await new Promise((resolve) => setTimeout(resolve, AGAIN_AFTER_MS));
    }
  }
}
