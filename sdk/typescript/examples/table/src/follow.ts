/**
 * Following a game: observe once, then watch from that version. A dropped stream resumes from
 * the last version received (no reload, nothing seen twice); the loop ends with the game.
 */
import { BadApiKey, BadToken, GameNotFound, GameStatus, InvalidRequest, type ObserveResponse, type SeatHandle, type Spectator } from "@deckmate/client/web";

/** Anything that can observe and watch a game. */
export type Viewer = SeatHandle | Spectator;

/** Callbacks of {@link follow}. */
export interface FollowHooks {
  /** Each new version, in order. */
  readonly onView: (view: ObserveResponse) => void;
  /** The stream broke; it resumes from `version` after a pause. */
  readonly onDrop?: (error: unknown, version: bigint) => void;
  /** Whether the page stopped caring (the loop then ends at the next version). */
  readonly stopped?: () => boolean;
}

const sleep = (ms: number) => new Promise<void>((wake) => setTimeout(wake, ms));

/** Follows `viewer` until the game finishes or `stopped()` says so. */
export async function follow(viewer: Viewer, hooks: FollowHooks): Promise<void> {
  let version: bigint | undefined;
  let pause = 250;
  for (;;) {
    try {
      if (version === undefined) {
        const first = await viewer.observe();
        version = first.version;
        hooks.onView(first);
        if (first.status === GameStatus.FINISHED) return;
      }
      for await (const view of viewer.watch(version)) {
        if (hooks.stopped?.() === true) return;
        version = view.version;
        pause = 250;
        hooks.onView(view);
      }
      return;
    } catch (error) {
      if (hooks.stopped?.() === true) return;
      // These do not heal by waiting: the caller shows them.
      if (error instanceof BadToken || error instanceof GameNotFound || error instanceof InvalidRequest || error instanceof BadApiKey) throw error;
      hooks.onDrop?.(error, version ?? 0n);
      await sleep(pause);
      pause = Math.min(pause * 2, 5000);
    }
  }
}
