/** Per-call options of CreateGame and Act. */
import type {
  BotLevel,
  ClockSchema,
  SpectatorPolicy,
} from "./gen/deckmate/v1/game_service_pb.js";
import type { MessageInitShape } from "@bufbuild/protobuf";

/** Options of `Client.createGame`. */
export interface CreateOptions {
  /**
   * A fixed seed for the game's random number generator. Only servers started with
   * `--allow-client-seed` accept one; unset, the server draws a secret seed.
   */
  seed?: bigint | number;
  /** Whether callers without a seat token may observe; unset means the server default. */
  spectatorPolicy?: SpectatorPolicy;
  /**
   * The idempotency key; unset (or empty), the client generates one and may retry the call. A
   * call with a chosen key is sent once: the caller owns its retries.
   */
  requestId?: string;
  /**
   * The seats the server plays itself, with their levels, such as
   * `[{ seat: 1, bot: BotLevel.GREEDY }]`. A bot seat gets no token, so the game has no handle
   * for it.
   */
  bots?: readonly { seat: number; bot: BotLevel }[];
  /**
   * Turn clocks for every seat (docs/CLOCKS.md), such as
   * `{ kind: { case: "fischer", value: { baseMs: 300_000, incrementMs: 2_000 } } }` or
   * `{ kind: { case: "perAction", value: { limitMs: 30_000 } } }`; unset, the game has none.
   */
  clock?: MessageInitShape<typeof ClockSchema>;
}

/** Options of `SeatHandle.actWith`. */
export class ActOptions {
  /** Apply the action only if the game is still at this version (else `StaleVersion`). */
  expectedVersion?: bigint;
  /**
   * The idempotency key; unset (or empty), the client generates one and may retry the call. A
   * call with a chosen key is sent once: the caller owns its retries.
   */
  requestId?: string;

  /** Options with an optional expected version and request id. */
  constructor(init: { expectedVersion?: bigint | number; requestId?: string } = {}) {
    if (init.expectedVersion !== undefined) {
      this.expectedVersion = BigInt(init.expectedVersion);
    }
    if (init.requestId !== undefined) {
      this.requestId = init.requestId;
    }
  }

  /** Options that apply the action only at `version`. */
  static expecting(version: bigint | number): ActOptions {
    return new ActOptions({ expectedVersion: version });
  }

  /** The same options with `requestId` as the idempotency key. */
  withRequestId(requestId: string): ActOptions {
    return new ActOptions({ expectedVersion: this.expectedVersion, requestId });
  }
}
