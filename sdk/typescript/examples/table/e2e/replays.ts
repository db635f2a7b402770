/**
 * Rare positions reached by replaying the engine's golden playthroughs through the page.
 *
 * A golden playthrough (service/engine/tests/golden/<game>/playthroughs.json) records a config,
 * a seed and every action of a whole game. The server deals a game created with the same config
 * and a client seed exactly as the engine's tests do (both build the seed with
 * `Seed::from_u64`), so replaying the recorded actions reaches positions a random game rarely
 * does: a Pigeon Chess pass or game end (docs/rules/pigeon_chess.md §3.2, §7.10). No golden
 * game promotes a pawn in CHUNO or Raindropchess, so those replays are games recorded here: a
 * seed search with random legal actions found a seed and choices that bring a pawn to the far
 * rank; replayed by legal-action index, they reach the same position as long as the rules do.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { TABLE } from "./harness.js";

/** One recorded action: the seat that made it and its text notation. */
export interface Step {
  readonly seat: number;
  readonly action: string;
}

/** What the replay reads of a golden playthrough. */
export interface Playthrough {
  readonly name: string;
  readonly seats: number;
  readonly seed: number;
  readonly config: Readonly<Record<string, unknown>>;
  readonly steps: readonly Step[];
}

/** A replay of the suite: a golden playthrough, or a game recorded here by legal-action index. */
export interface ReplaySpec {
  /** Test name. */
  readonly name: string;
  /** Variant id, also the golden folder's name. */
  readonly variant: string;
  /** A golden playthrough: its name, and its config as recorded (checked against `options`). */
  readonly golden?: { readonly playthrough: string; readonly config: Readonly<Record<string, unknown>> };
  /**
   * A game of the default config found by a seed search: the server seed and, for each action,
   * the seat and the index of the action among that seat's legal actions at the time.
   */
  readonly recorded?: { readonly seed: number; readonly steps: readonly (readonly [number, number])[] };
  /** Lobby inputs (`cfg-<field>` → value) that make the game's config. */
  readonly options: Readonly<Record<string, string>>;
  /** The last action's notation: made by clicking the board (every other step uses the list). */
  readonly made: string;
  /** The kind the page gives that action. */
  readonly kind: string;
  /** Whether the board's clicks must end in an explicit choice. */
  readonly chosen: boolean;
  /** Whether the game is over after it. */
  readonly ends: boolean;
}

const SMALL_PIGEON_DECK = { "cfg-pawns": "4", "cfg-knights": "1", "cfg-bishops": "1", "cfg-rooks": "1", "cfg-queens": "0", "cfg-kings": "1" };

/** Every replay of the suite. */
export const REPLAYS: readonly ReplaySpec[] = [
  {
    name: "pigeon_chess: the last card ends the game (end_game)",
    variant: "pigeon_chess",
    golden: { playthrough: "the last card ends the game", config: { deck: [4, 1, 1, 1, 0, 1] } },
    options: SMALL_PIGEON_DECK,
    made: "end",
    kind: "end_game",
    chosen: false,
    ends: true,
  },
  {
    name: "pigeon_chess: a chosen pass, then nobody can act (pass)",
    variant: "pigeon_chess",
    golden: { playthrough: "a chosen pass, then nobody can act", config: { deck: [4, 1, 1, 1, 0, 1] } },
    options: SMALL_PIGEON_DECK,
    made: "pass",
    kind: "pass",
    chosen: false,
    ends: true,
  },
  {
    // No golden Raindropchess game promotes; with seed 77 a white pawn reaches b7 after 19 actions.
    name: "raindrop_chess: a pawn on the far rank promotes to a queen",
    variant: "raindrop_chess",
    recorded: {
      seed: 77,
      steps: [[0, 0], [0, 2], [1, 0], [1, 30], [0, 0], [0, 32], [1, 0], [1, 29], [0, 0], [0, 6], [1, 0], [1, 21], [0, 0], [0, 37], [1, 0], [1, 1], [0, 2], [1, 0], [1, 14], [0, 2]],
    },
    options: {},
    made: "b7b8q",
    kind: "move",
    chosen: true,
    ends: false,
  },
  {
    // No golden CHUNO game promotes; with seed 29 a white pawn reaches b7 after 63 actions.
    name: "chuno: a pawn on the far rank promotes to a queen",
    variant: "chuno",
    recorded: {
      seed: 29,
      steps: [
        [0, 1], [0, 0], [1, 2], [1, 4], [0, 1], [0, 0], [0, 7], [1, 2], [1, 1], [1, 1], [0, 1], [0, 0], [1, 4], [1, 23], [0, 0], [1, 1],
        [1, 29], [1, 2], [0, 1], [1, 1], [0, 4], [0, 6], [1, 1], [1, 0], [1, 14], [0, 0], [0, 1], [1, 1], [1, 14], [0, 0], [0, 5], [1, 0],
        [1, 29], [0, 0], [1, 1], [0, 3], [0, 22], [1, 0], [1, 1], [0, 1], [1, 1], [0, 0], [0, 0], [1, 1], [0, 0], [1, 0], [1, 2], [0, 1],
        [0, 8], [0, 6], [1, 2], [1, 0], [0, 0], [0, 27], [1, 1], [0, 0], [0, 35], [1, 3], [1, 18], [0, 0], [0, 9], [1, 2], [0, 0], [0, 9],
      ],
    },
    options: {},
    made: "b7b8q",
    kind: "move",
    chosen: true,
    ends: false,
  },
];

/** The named golden playthrough of `variant`, its actions without the deal. */
export function playthrough(variant: string, name: string): Playthrough {
  const file = join(TABLE, "../../../../service/engine/tests/golden", variant, "playthroughs.json");
  const golden = JSON.parse(readFileSync(file, "utf8")) as { playthroughs: { name: string; seats: number; seed: number; config: Record<string, unknown>; steps: { seat?: number; action?: string }[] }[] };
  const found = golden.playthroughs.find((entry) => entry.name === name);
  if (found === undefined) throw new Error(`${variant}: no golden playthrough named "${name}"`);
  const steps = found.steps.flatMap((step) => (step.seat === undefined || step.action === undefined ? [] : [{ seat: step.seat, action: step.action }]));
  return { name: found.name, seats: found.seats, seed: found.seed, config: found.config, steps };
}

const PIGEON_PIECES: Readonly<Record<string, string>> = { P: "pawn", N: "knight", B: "bishop", R: "rook", Q: "queen", K: "king" };
const PROMOTIONS: Readonly<Record<string, string>> = { q: "queen", r: "rook", b: "bishop", n: "knight" };

function pigeonPiece(letter: string): string {
  const name = PIGEON_PIECES[letter];
  if (name === undefined) throw new Error(`unknown Pigeon Chess piece letter ${letter}`);
  return name;
}

/** The page's label of a UCI move (src/games/chess.ts writes from–to, then " =piece"). */
function uciLabel(uci: string): string {
  const promotion = PROMOTIONS[uci.slice(4)];
  return `move ${uci.slice(0, 2)}–${uci.slice(2, 4)}${promotion === undefined ? "" : ` =${promotion}`}`;
}

/** The page's action-list label of a golden notation, for the games replayed here. */
export function labelOf(variant: string, notation: string): string {
  if (variant === "pigeon_chess") {
    const row = /^(front|back) ([A-Z]{3})$/.exec(notation);
    if (row !== null) return `${row[1]} row a–c: ${[...(row[2] ?? "")].map(pigeonPiece).join(", ")}`;
    const reveal = /^reveal ([A-Z])$/.exec(notation);
    if (reveal !== null) return `show ${pigeonPiece(reveal[1] ?? "")} for first player`;
    const place = /^place ([A-Z])@([a-c][1-4])$/.exec(notation);
    if (place !== null) return `place ${pigeonPiece(place[1] ?? "")} on ${place[2]}`;
    const move = /^([a-c][1-4])([a-c][1-4])$/.exec(notation);
    if (move !== null) return `move ${move[1]} → ${move[2]}`;
    if (notation === "end") return "end the game";
    if (notation === "pass") return "pass";
  }
  if ((variant === "raindrop_chess" || variant === "chuno") && /^[a-h][1-8][a-h][1-8][qrbn]?$/.test(notation)) return uciLabel(notation);
  if (variant === "raindrop_chess") {
    if (notation === "flip") return "flip the top card";
    const place = /^place ([a-h][1-8])$/.exec(notation);
    if (place !== null) return `place on ${place[1]}`;
    const remove = /^remove ([a-h][1-8])$/.exec(notation);
    if (remove !== null) return `remove the piece on ${remove[1]}`;
  }
  throw new Error(`${variant}: no label for the notation "${notation}"`);
}
