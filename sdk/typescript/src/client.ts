/** The transport-independent client: what `@deckmate/client` and `@deckmate/client/web` share. */
import { create } from "@bufbuild/protobuf";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { createClient, type Interceptor, type Transport } from "@connectrpc/connect";

import { GameAccess, type GameServiceClient, withRequestId } from "./access.js";
import { Game } from "./game.js";
import {
  GameConfigSchema,
  GameService,
  type GetServerInfoResponse,
  type Variant,
} from "./gen/deckmate/v1/game_service_pb.js";
import type { CreateOptions } from "./options.js";
import { INSPECT } from "./redact.js";
import { newRequestId } from "./request-id.js";
import { RetryPolicy } from "./retry.js";
import { SeatHandle } from "./seat.js";
import { Spectator } from "./spectator.js";

/** A game config message or the fields to build one. */
export type GameConfigInit = MessageInitShape<typeof GameConfigSchema>;

/** Options shared by every way of making a client. */
export interface ClientOptions {
  /** The API key, sent as `x-api-key` on every call. */
  apiKey?: string;
  /** The retry policy of every call made through the client; default `new RetryPolicy()`. */
  retry?: RetryPolicy;
  /**
   * Bounds each attempt of every call but `watch`, in milliseconds: past it the attempt fails
   * with DEADLINE_EXCEEDED. Unset, calls wait as long as the connection lives.
   */
  timeoutMs?: number;
}

/** An interceptor that sends `apiKey` as `x-api-key` metadata on every call. */
export function apiKeyInterceptor(apiKey: string): Interceptor {
  return (next) => (request) => {
    request.header.set("x-api-key", apiKey);
    return next(request);
  };
}

/**
 * A connection to a Deckmate server over any connect `Transport`. The entry points make one
 * with `Client.connect(address, options)`; `new Client(transport, options)` takes a transport
 * built by hand (the transport must carry the API key itself, see {@link apiKeyInterceptor}).
 */
export class Client {
  readonly #rpc: GameServiceClient;
  readonly #retry: RetryPolicy;
  readonly #timeoutMs: number | undefined;
  /** The address the client was connected to, when known. */
  readonly address: string;

  /** A client over `transport`. */
  constructor(
    transport: Transport,
    options: { retry?: RetryPolicy; timeoutMs?: number; address?: string } = {},
  ) {
    this.#rpc = createClient(GameService, transport);
    this.#retry = options.retry ?? new RetryPolicy();
    this.#timeoutMs = options.timeoutMs;
    this.address = options.address ?? "";
  }

  /** The call options of this client's own unary calls. */
  #unaryOptions(): { timeoutMs?: number } {
    return this.#timeoutMs === undefined ? {} : { timeoutMs: this.#timeoutMs };
  }

  /** The retry policy of every call made through this client. */
  get retry(): RetryPolicy {
    return this.#retry;
  }

  /** The generated GameService client on the same transport, for calls this client does not wrap. */
  get raw(): GameServiceClient {
    return this.#rpc;
  }

  /** The hosted games: seat counts, config defaults and rule summaries. */
  async listVariants(): Promise<Variant[]> {
    const response = await this.#retry.run(() => this.#rpc.listVariants({}, this.#unaryOptions()));
    return response.variants;
  }

  /**
   * What the server says about itself: its release, the API revision it speaks, which optional
   * features are on (client seeds, API keys, bots, clocks, store kind) and the limits a client
   * must respect. Needs no API key or token; retried like every read. A server older than this
   * call answers UNIMPLEMENTED (a plain `DeckmateError`).
   */
  async serverInfo(): Promise<GetServerInfoResponse> {
    return this.#retry.run(() => this.#rpc.getServerInfo({}, this.#unaryOptions()));
  }

  /**
   * Creates a game of the kind `config` names with `seats` seats (0: the game's smallest seat
   * count). Without a caller-chosen request id, a retry after a temporary failure reuses the
   * generated id, so at most one game is created. The error thrown carries the request id
   * sent, as `requestId`, to send the call again with `{ requestId: error.requestId }`.
   */
  async createGame(config: GameConfigInit, seats = 0, options: CreateOptions = {}): Promise<Game> {
    // An empty id is no idempotency key (the proto's `request_id`): it counts as unset.
    const callerId = options.requestId || undefined;
    const request = {
      config: create(GameConfigSchema, config),
      seats,
      seed: options.seed === undefined ? undefined : BigInt(options.seed),
      requestId: callerId ?? newRequestId(),
      spectatorPolicy: options.spectatorPolicy,
      seatOptions: (options.bots ?? []).map(({ seat, bot }) => ({ seat, bot })),
      clock: options.clock,
    };
    const call = () => this.#rpc.createGame(request, this.#unaryOptions());
    const response = await withRequestId(
      callerId === undefined ? this.#retry.run(call) : call(),
      request.requestId,
    );
    return new Game({
      id: response.gameId,
      variant: response.variant,
      seats: response.seatTokens.map((seatToken) =>
        this.seat(response.gameId, seatToken.seat, seatToken.token),
      ),
      seedCommitment: response.seedCommitment,
      version: response.version,
    });
  }

  /** A handle for a seat whose token was kept from {@link Client.createGame}. */
  seat(gameId: string, seat: number, token: string): SeatHandle {
    return new SeatHandle(seat, new GameAccess(this.#rpc, this.#retry, gameId, token, this.#timeoutMs));
  }

  /** Observes, watches and reads the history of `gameId` without a seat token. */
  spectate(gameId: string): Spectator {
    return new Spectator(new GameAccess(this.#rpc, this.#retry, gameId, undefined, this.#timeoutMs));
  }

  /** Describes the client without its API key. */
  toString(): string {
    return `Client(address=${this.address})`;
  }

  /** What Node's `util.inspect` shows: no API key. */
  [INSPECT](): string {
    return this.toString();
  }
}
