/** Every game's table module, by variant id. */
import { cardChess } from "./card-chess.js";
import { chuno } from "./chuno.js";
import { pigeonChess } from "./pigeon.js";
import { pileChess } from "./pile-chess.js";
import { raindropChess } from "./raindrop.js";
import type { GameUi } from "./types.js";

/** The module of each hosted variant. */
export const GAMES: Readonly<Record<string, GameUi>> = {
  card_chess: cardChess,
  chuno,
  pigeon_chess: pigeonChess,
  pile_chess: pileChess,
  raindrop_chess: raindropChess,
};
