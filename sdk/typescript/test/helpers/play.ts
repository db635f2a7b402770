/** Playing games to the end from the listed legal actions, as the tests need. */
import { ActOptions, GameStatus, NotYourTurn, StaleVersion } from "@deckmate/client";
import type { Game, ObserveResponse, SeatHandle } from "@deckmate/client";

/** A small seeded random generator (mulberry32), floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Plays one round: every seat with legal actions acts at random. Returns a finished view, if any. */
async function playRound(seats: readonly SeatHandle[], random: () => number): Promise<ObserveResponse | undefined> {
  for (const seat of seats) {
    const view = await seat.observe();
    if (view.status === GameStatus.FINISHED) {
      return view;
    }
    const actions = view.legalActions;
    if (actions.length === 0) {
      continue;
    }
    const action = actions[Math.floor(random() * actions.length)]!;
    try {
      await seat.actWith(action, ActOptions.expecting(view.version));
    } catch (error) {
      if (!(error instanceof StaleVersion || error instanceof NotYourTurn)) {
        throw error;
      }
    }
  }
  return undefined;
}

/** Plays `game` to the end; returns the final view. */
export async function playToEnd(game: Game, seed: number): Promise<ObserveResponse> {
  const random = seededRandom(seed);
  for (;;) {
    const final = await playRound(game.seats, random);
    if (final !== undefined) {
      return final;
    }
  }
}
