/** {@link Spectator}: following a game without a seat token. */
import type { GameAccess } from "./access.js";
import type { GetHistoryResponse, ObserveResponse } from "./gen/deckmate/v1/game_service_pb.js";

/** Observes, watches and reads the history of a game as a spectator (public information only). */
export class Spectator {
  readonly #access: GameAccess;

  /** A spectator of the game `access` points at (without a token). */
  constructor(access: GameAccess) {
    this.#access = access;
  }

  /** The game's id. */
  get gameId(): string {
    return this.#access.gameId;
  }

  /** The game as spectators see it now. */
  observe(): Promise<ObserveResponse> {
    return this.#access.observe();
  }

  /**
   * Every version after `fromVersion` as spectators see it, in order and each exactly once;
   * ends after the game's final version and resumes by itself after temporary failures.
   */
  watch(fromVersion: bigint | number = 0n): AsyncGenerator<ObserveResponse, void, undefined> {
    return this.#access.watch(fromVersion);
  }

  /** The event log as spectators may know it; complete once the game has finished. */
  history(): Promise<GetHistoryResponse> {
    return this.#access.history();
  }

  /**
   * One page of GetHistory: `pageSize` versions (0 for the server's default of 1000, its most)
   * from `fromVersion`, or from where `pageToken` (the previous page's `nextPageToken`) says.
   * The last page has an empty `nextPageToken`; {@link history} reads them all.
   */
  historyPage(fromVersion: bigint | number = 0n, pageSize = 0, pageToken = ""): Promise<GetHistoryResponse> {
    return this.#access.historyPage(fromVersion, pageSize, pageToken);
  }

  /** Describes the spectator. */
  toString(): string {
    return `Spectator(gameId=${this.gameId})`;
  }
}
