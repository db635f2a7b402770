/** {@link Game}: a game just created, with a handle for every seat. */
import type { SeatHandle } from "./seat.js";

/** A game just created: its id, variant, one handle per seat, and the seed commitment. */
export class Game {
  /** The game's id. */
  readonly id: string;
  /** The game id such as `"pigeon_chess"`. */
  readonly variant: string;
  /** One handle per seat the caller plays, in seat order (bot seats have none). */
  readonly seats: readonly SeatHandle[];
  /** SHA-256 of the game's seed, revealed by the history once the game has finished. */
  readonly seedCommitment: Uint8Array;
  /** The version after setup (0). */
  readonly version: bigint;

  /** A game record. */
  constructor(init: {
    id: string;
    variant: string;
    seats: readonly SeatHandle[];
    seedCommitment: Uint8Array;
    version: bigint;
  }) {
    this.id = init.id;
    this.variant = init.variant;
    this.seats = init.seats;
    this.seedCommitment = init.seedCommitment;
    this.version = init.version;
  }

  /**
   * The handle of seat `index`; throws a RangeError for a seat the game does not have or a
   * bot's.
   */
  seat(index: number): SeatHandle {
    const handle = this.seats.find((candidate) => candidate.seat === index);
    if (handle === undefined) {
      throw new RangeError(`game ${this.id} has no seat ${index}`);
    }
    return handle;
  }
}
