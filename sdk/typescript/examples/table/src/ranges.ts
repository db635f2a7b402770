/**
 * The ranges docs/rules gives for each config option, shown as the inputs' min and max. The
 * server enforces them (turn and ply caps up to 10 × their default; a no-progress limit of 0 only
 * with a cap at or below its default); its field violations are what the lobby shows.
 */
const WIDE: [number, number] = [0, 4294967295];

/** `[min, max]` by variant and proto field name. */
export const RANGES: Readonly<Record<string, Readonly<Record<string, readonly [number, number]>>>> = {
  card_chess: { no_progress_turns: [0, 1000], max_turns: [1, 10000] },
  chuno: {
    zeros: [0, 200],
    ones: [0, 200],
    twos: [0, 200],
    skips: [0, 200],
    reverses: [0, 200],
    draw_twos: [0, 200],
    wilds: [0, 200],
    wild_draw_fours: [0, 200],
    colours: [1, 4],
    no_progress_moves: [0, 1500],
    max_turns: [1, 5000],
  },
  pigeon_chess: {
    pawns: [0, 64],
    knights: [0, 64],
    bishops: [0, 64],
    rooks: [0, 64],
    queens: [0, 64],
    kings: [0, 1],
    no_progress_turns: [0, 200],
    max_turns: [1, 3000],
  },
  pile_chess: {
    pawn_value: [0, 1000],
    knight_value: [0, 1000],
    bishop_value: [0, 1000],
    rook_value: [0, 1000],
    queen_value: [0, 1000],
    king_value: [0, 1000],
    max_rounds: [1, 1000],
    max_reshuffles: [0, 100],
    en_passant_per_round: [0, 16],
  },
  raindrop_chess: { jokers_per_deck: [0, 2], no_progress_plies: [0, 1500], repetitions: WIDE, max_plies: [1, 10000] },
};
