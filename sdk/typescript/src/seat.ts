/** {@link SeatHandle}: everything one seat does in one game. */
import { create } from "@bufbuild/protobuf";

import type { ActionInit, GameAccess } from "./access.js";
import {
  type Action,
  ActionSchema,
  type ActResponse,
  type GetHistoryResponse,
  MetaActionKind,
  type ObserveResponse,
} from "./gen/deckmate/v1/game_service_pb.js";
import type { ActOptions } from "./options.js";
import { INSPECT } from "./redact.js";

/** The envelope action for a meta action (resign, draw offers). */
export function metaAction(kind: MetaActionKind): Action {
  return create(ActionSchema, { kind: { case: "meta", value: { kind } } });
}

/**
 * One seat of one game: its index and its secret token, sent on every call as
 * `authorization: Bearer <token>`. Printing the handle never shows the token.
 */
export class SeatHandle {
  readonly #access: GameAccess;
  /** The seat index, 0-based. */
  readonly seat: number;

  /** A handle for seat `seat` through `access`, which holds the seat's token. */
  constructor(seat: number, access: GameAccess) {
    this.seat = seat;
    this.#access = access;
  }

  /** The game's id. */
  get gameId(): string {
    return this.#access.gameId;
  }

  /**
   * The secret seat token, to store and reconnect later with `Client.seat`. Anyone holding it
   * can play this seat: never log it or show it to other players.
   */
  get token(): string {
    return this.#access.token;
  }

  /** The game as this seat sees it now, with its legal actions. */
  observe(): Promise<ObserveResponse> {
    return this.#access.observe();
  }

  /** The game actions this seat may take now (observes; meta actions are not included). */
  async legalActions(): Promise<Action[]> {
    return (await this.#access.observe()).legalActions;
  }

  /** Sends one action (normally one of the observed legal or meta actions), no version check. */
  act(action: ActionInit): Promise<ActResponse> {
    return this.#access.act(action, undefined);
  }

  /**
   * Sends one action with options: a version the game must still be at, and a chosen request
   * id (a repeat of an earlier id returns that call's response and applies nothing).
   */
  actWith(action: ActionInit, options: ActOptions): Promise<ActResponse> {
    return this.#access.act(action, options);
  }

  /** Gives up; in a two-player game the opponent wins. */
  resign(): Promise<ActResponse> {
    return this.act(metaAction(MetaActionKind.RESIGN));
  }

  /** Offers the opponent a draw. */
  offerDraw(): Promise<ActResponse> {
    return this.act(metaAction(MetaActionKind.OFFER_DRAW));
  }

  /** Accepts the opponent's pending draw offer; the game ends drawn. */
  acceptDraw(): Promise<ActResponse> {
    return this.act(metaAction(MetaActionKind.ACCEPT_DRAW));
  }

  /** Declines the opponent's pending draw offer. */
  declineDraw(): Promise<ActResponse> {
    return this.act(metaAction(MetaActionKind.DECLINE_DRAW));
  }

  /**
   * Every version after `fromVersion` as this seat sees it, in order and each exactly once;
   * ends after the game's final version and resumes by itself after temporary failures.
   */
  watch(fromVersion: bigint | number = 0n): AsyncGenerator<ObserveResponse, void, undefined> {
    return this.#access.watch(fromVersion);
  }

  /** The event log as this seat may know it; complete (actions, seed) once the game is over. */
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

  /** Describes the handle without its token. */
  toString(): string {
    return `SeatHandle(gameId=${this.gameId}, seat=${this.seat}, token=<redacted>)`;
  }

  /** The JSON form, without the token. */
  toJSON(): { gameId: string; seat: number } {
    return { gameId: this.gameId, seat: this.seat };
  }

  /** What Node's `util.inspect` shows: no token. */
  [INSPECT](): string {
    return this.toString();
  }
}
