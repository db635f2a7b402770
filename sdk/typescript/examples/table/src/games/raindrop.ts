/** Raindropchess: a chess board filled by flipping cards from each side's face-down deck. */
import {
  RaindropChessCard,
  RaindropChessRole,
  RaindropChessSide,
  RaindropChessStage,
  type Action,
  type ObserveResponse,
} from "@deckmate/client/web";

import { h } from "../dom.js";
import { enumWord } from "../words.js";
import { chessBoard, uciLabel, uciPath } from "./chess.js";
import { card, row, seatPanel, stack } from "./parts.js";
import type { ActionInfo, GameUi } from "./types.js";

function cardName(value: RaindropChessCard): string {
  return enumWord(RaindropChessCard[value]).toLowerCase();
}

function cardElement(value: RaindropChessCard): HTMLElement {
  return card(cardName(value), { id: `raindrop/${RaindropChessCard[value]}` });
}

/** The Raindropchess table. */
export const raindropChess: GameUi = {
  draw(view: ObserveResponse): HTMLElement {
    const game = view.observation?.game;
    if (game?.case !== "raindropChess") return h("p", {}, "no Raindropchess observation");
    const obs = game.value;
    const me = view.seat;
    const pieces = obs.board.map((piece) => ({
      square: piece.square,
      white: piece.side === RaindropChessSide.WHITE,
      role: enumWord(RaindropChessRole[piece.role]).toLowerCase(),
    }));
    const checks: Record<string, string> = {};
    obs.sides.forEach((side, seat) => {
      if (!side.inCheck) return;
      const king = obs.board.find((piece) => piece.role === RaindropChessRole.KING && piece.side === (seat === 0 ? RaindropChessSide.WHITE : RaindropChessSide.BLACK));
      if (king !== undefined) checks[king.square] = "check";
    });
    return h(
      "div",
      { class: "game raindrop" },
      h(
        "div",
        { class: "seats" },
        obs.sides.map((side, seat) =>
          seatPanel(
            seat,
            me,
            view.toAct,
            [
              seat === 0 ? "white" : "black",
              side.kingPlaced ? "king placed" : "king not placed yet",
              side.inCheck ? "in check" : "",
              `promotion pool: ${side.promotionPool.map((role) => enumWord(RaindropChessRole[role]).toLowerCase()).join(", ") || "empty"}`,
            ],
            [
              stack("deck", side.deckCount, `deck:${seat}`),
              row("flipped", side.flipped.map(cardElement)),
              row("returned, at the bottom", side.returned.map(cardElement)),
            ],
          ),
        ),
      ),
      chessBoard(pieces, me === 1, checks),
      h(
        "ul",
        { class: "facts" },
        h("li", {}, `stage: ${enumWord(RaindropChessStage[obs.stage]).toLowerCase()}`),
        obs.pendingCard === undefined ? null : h("li", {}, "card to place: ", cardElement(obs.pendingCard)),
        h("li", {}, `plies ${obs.plies}, quiet plies ${obs.quietPlies}`),
      ),
    );
  },

  describe(action: Action, view: ObserveResponse): ActionInfo {
    const kind = action.kind.case === "raindropChess" ? action.kind.value.kind : undefined;
    switch (kind?.case) {
      case "flip":
        return { kind: "flip", path: [`deck:${view.seat ?? 0}`], label: "flip the top card" };
      case "place":
        return { kind: "place", path: [`sq:${kind.value.square}`], label: `place on ${kind.value.square}` };
      case "remove":
        return { kind: "remove", path: [`sq:${kind.value.square}`], label: `remove the piece on ${kind.value.square}` };
      case "move":
        return { kind: "move", path: uciPath(kind.value.uci), label: `move ${uciLabel(kind.value.uci)}` };
      default:
        return { kind: "unknown", path: ["btn:unknown"], label: "unknown action" };
    }
  },
};
