/**
 * The Watch stream as the client hands it out: every version after a starting one, in order and
 * each exactly once, resumed from the last delivered version after a temporary failure.
 */
import { toDeckmateError } from "./errors.js";
import type { ObserveResponse } from "./gen/deckmate/v1/game_service_pb.js";
import type { RetryPolicy } from "./retry.js";
import { sleep } from "./retry.js";

/** What a resuming watch needs from the game access. */
export interface WatchSource {
  /** The retry policy that bounds the failures between two delivered versions. */
  readonly retry: RetryPolicy;
  /** Opens one Watch call delivering the versions after `fromVersion`. */
  openWatch(fromVersion: bigint, signal: AbortSignal): AsyncIterable<ObserveResponse>;
}

/**
 * Every version after `fromVersion`. Ends when the server ends the call (after the game's final
 * version); throws the error that retries did not cure. Failures count from the last delivered
 * version, so a long game survives any number of separate interruptions.
 */
export async function* resumingWatch(
  source: WatchSource,
  fromVersion: bigint,
): AsyncGenerator<ObserveResponse, void, undefined> {
  let lastVersion = fromVersion;
  let failures = 0;
  for (;;) {
    const abort = new AbortController();
    try {
      for await (const observation of source.openWatch(lastVersion, abort.signal)) {
        if (observation.version <= lastVersion) {
          continue;
        }
        lastVersion = observation.version;
        failures = 0;
        yield observation;
      }
      return;
    } catch (reason) {
      const error = toDeckmateError(reason);
      failures += 1;
      if (!source.retry.allowsRetry(failures, error)) {
        throw error;
      }
      await sleep(source.retry.pauseMs(failures, error));
    } finally {
      abort.abort();
    }
  }
}
