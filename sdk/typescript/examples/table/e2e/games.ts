/** The games the suite plays: configs whose caps keep each game near 150 actions at most. */

/** One game of the suite. */
export interface GameSpec {
  /** Test name and screenshot file name. */
  readonly name: string;
  /** Variant id. */
  readonly variant: string;
  /** Seat count and who plays each seat from the lobby (contexts A and B take turns). */
  readonly modes: readonly ("link" | "random")[];
  /** Config inputs to change (`cfg-<field>` → value). */
  readonly options: Readonly<Record<string, string>>;
  /** Server seed and the driver's seed. */
  readonly seed: number;
  /** Kinds the board must have made in this game. */
  readonly required: readonly string[];
  /** Kinds whose board clicks must have ended in an explicit choice (a colour, a piece). */
  readonly chosen?: readonly string[];
  /** Kinds that end the game, chosen only after `lateAfter` actions. */
  readonly late: readonly string[];
  /** See `late`. */
  readonly lateAfter: number;
}

/** Every game of the suite. */
export const GAMES: readonly GameSpec[] = [
  { name: "chuno", variant: "chuno", modes: ["link", "link"], options: { "cfg-max_turns": "24" }, seed: 2, required: ["play", "move", "draw", "end_turn", "call_chuno"], chosen: ["play"], late: [], lateAfter: 0 },
  { name: "card_chess", variant: "card_chess", modes: ["link", "link"], options: { "cfg-max_turns": "60" }, seed: 11, required: ["play_in", "exchange", "move", "replace", "keep_revealed"], late: [], lateAfter: 0 },
  {
    name: "pigeon_chess",
    variant: "pigeon_chess",
    modes: ["link", "link"],
    options: { "cfg-max_turns": "50" },
    seed: 5,
    required: ["place_front_row", "place_back_row", "reveal_for_first", "move", "place"],
    late: ["end_game"],
    lateAfter: 60,
  },
  { name: "pile_chess", variant: "pile_chess", modes: ["link", "link"], options: { "cfg-max_rounds": "6" }, seed: 4, required: ["play", "pass", "castle", "en_passant"], late: [], lateAfter: 0 },
  { name: "raindrop_chess", variant: "raindrop_chess", modes: ["link", "link"], options: { "cfg-max_plies": "60", "cfg-jokers_per_deck": "2", "cfg-joker_effect": "remove piece" },
    seed: 9,
    required: ["flip", "place", "remove", "move"], late: [], lateAfter: 0 },
  {
    name: "pile_chess_4_seats",
    variant: "pile_chess",
    modes: ["link", "link", "link", "link"],
    options: { "cfg-max_rounds": "4", "cfg-teams": "0,2 / 1,3" },
    seed: 5,
    required: ["play", "pass", "en_passant", "gift", "promote", "decline_promotion"],
    chosen: ["gift", "promote"],
    late: [],
    lateAfter: 0,
  },
];
