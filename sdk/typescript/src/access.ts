/** The calls every handle of one game makes, with its credential (if any) and retry policy. */
import { create } from "@bufbuild/protobuf";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { Client as RpcClient } from "@connectrpc/connect";

import { toDeckmateError } from "./errors.js";
import {
  type ActResponse,
  ActionSchema,
  type GameService,
  GameStatus,
  type GetHistoryResponse,
  type ObserveResponse,
} from "./gen/deckmate/v1/game_service_pb.js";
import type { ActOptions } from "./options.js";
import { newRequestId } from "./request-id.js";
import { RetryPolicy } from "./retry.js";
import { resumingWatch } from "./watch.js";

/** The generated client of the GameService. */
export type GameServiceClient = RpcClient<typeof GameService>;

/** An action message or the fields to build one. */
export type ActionInit = MessageInitShape<typeof ActionSchema>;

/**
 * The result of `call`, or its failure as a {@link DeckmateError} carrying `requestId`, the
 * request id the call was sent with.
 */
export async function withRequestId<T>(call: Promise<T>, requestId: string): Promise<T> {
  try {
    return await call;
  } catch (reason) {
    const error = toDeckmateError(reason);
    error.requestId = requestId;
    throw error;
  }
}

/** One game as one caller (a seat token, or none for a spectator) reaches it. */
export class GameAccess {
  readonly #rpc: GameServiceClient;
  readonly #retry: RetryPolicy;
  readonly #token: string | undefined;
  readonly #timeoutMs: number | undefined;
  /** The game's id. */
  readonly gameId: string;

  /**
   * Access to `gameId` through `rpc`, as the holder of `token` (or as a spectator); every call
   * but `watch` is bounded by `timeoutMs` when given.
   */
  constructor(
    rpc: GameServiceClient,
    retry: RetryPolicy,
    gameId: string,
    token: string | undefined,
    timeoutMs?: number,
  ) {
    this.#rpc = rpc;
    this.#retry = retry;
    this.gameId = gameId;
    this.#token = token;
    this.#timeoutMs = timeoutMs;
  }

  /** The seat token, `""` for a spectator. */
  get token(): string {
    return this.#token ?? "";
  }

  /** The retry policy of every call. */
  get retry(): RetryPolicy {
    return this.#retry;
  }

  /** The call options carrying the seat token, if any. */
  callOptions(signal?: AbortSignal): { headers: Record<string, string>; signal?: AbortSignal } {
    const headers: Record<string, string> = {};
    if (this.#token !== undefined) {
      headers["authorization"] = `Bearer ${this.#token}`;
    }
    return signal === undefined ? { headers } : { headers, signal };
  }

  /** The call options of a unary call: the seat token, and the client's timeout if any. */
  unaryOptions(): { headers: Record<string, string>; timeoutMs?: number } {
    const options = this.callOptions();
    return this.#timeoutMs === undefined ? options : { ...options, timeoutMs: this.#timeoutMs };
  }

  /** The game as the caller sees it now. */
  observe(): Promise<ObserveResponse> {
    return this.#retry.run(() => this.#rpc.observe({ gameId: this.gameId }, this.unaryOptions()));
  }

  /**
   * The whole event log as the caller may know it: every page of GetHistory joined, with the
   * last page's other fields (version, status, seed).
   */
  async history(): Promise<GetHistoryResponse> {
    for (;;) {
      const first = await this.historyPage();
      const pages = [first];
      let last = first;
      while (last.nextPageToken !== "") {
        last = await this.historyPage(0n, 0, last.nextPageToken);
        pages.push(last);
      }
      // A game that finished while its pages were read: the first pages were projected and had
      // no actions. Finished is final, so reading again is consistent.
      if (first.status !== GameStatus.FINISHED && last.status === GameStatus.FINISHED) {
        continue;
      }
      if (pages.length > 1) {
        last.events = pages.flatMap((page) => page.events);
        last.actions = pages.flatMap((page) => page.actions);
      }
      return last;
    }
  }

  /**
   * One page of GetHistory: `pageSize` versions (0 for the server's default of 1000, its most)
   * from `fromVersion`, or from where `pageToken` (the previous page's `nextPageToken`) says.
   */
  historyPage(fromVersion: bigint | number = 0n, pageSize = 0, pageToken = ""): Promise<GetHistoryResponse> {
    const request = { gameId: this.gameId, fromVersion: BigInt(fromVersion), pageSize, pageToken };
    return this.#retry.run(() => this.#rpc.getHistory(request, this.unaryOptions()));
  }

  /**
   * Sends one action. With a generated request id the call is retried after temporary
   * failures (resending the same id); with the caller's id it is sent once. The error thrown
   * carries the request id sent, as `requestId`.
   */
  act(action: ActionInit, options: ActOptions | undefined): Promise<ActResponse> {
    // An empty id is no idempotency key (the proto's `request_id`): it counts as unset.
    const callerId = options?.requestId || undefined;
    const request = {
      gameId: this.gameId,
      action: create(ActionSchema, action),
      expectedVersion: options?.expectedVersion,
      requestId: callerId ?? newRequestId(),
    };
    const call = () => this.#rpc.act(request, this.unaryOptions());
    return withRequestId(callerId === undefined ? this.#retry.run(call) : call(), request.requestId);
  }

  /** Opens one Watch call starting after `fromVersion`; no retries. */
  openWatch(fromVersion: bigint, signal: AbortSignal): AsyncIterable<ObserveResponse> {
    return this.#rpc.watch({ gameId: this.gameId, fromVersion }, this.callOptions(signal));
  }

  /** Every version after `fromVersion`, resumed after temporary failures. */
  watch(fromVersion: bigint | number): AsyncGenerator<ObserveResponse, void, undefined> {
    return resumingWatch(this, BigInt(fromVersion));
  }
}
