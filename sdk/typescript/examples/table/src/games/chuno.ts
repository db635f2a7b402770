/** CHUNO: a chess board, a hand of cards, the draw deck and the discard pile. */
import { ChunoCardKind, ChunoColour, ChunoRole, ChunoSide, ChunoStage, type Action, type ChunoCard, type ObserveResponse } from "@deckmate/client/web";

import { h } from "../dom.js";
import { enumWord } from "../words.js";
import { chessBoard, uciLabel, uciPath } from "./chess.js";
import { card, hiddenHand, row, seatPanel, stack } from "./parts.js";
import type { ActionInfo, GameUi } from "./types.js";

/** A colour's name (`red`), or `wild` for none. */
function colourName(colour: ChunoColour | undefined): string {
  return colour === undefined || colour === ChunoColour.UNSPECIFIED ? "wild" : enumWord(ChunoColour[colour]).toLowerCase();
}

/** The card's identity: kind and colour (the notation says the same in fewer letters). */
export function chunoCardId(chunoCard: ChunoCard): string {
  return `${ChunoCardKind[chunoCard.kind]}/${colourName(chunoCard.colour)}`;
}

function chunoCard(chunoCardValue: ChunoCard, key?: string): HTMLElement {
  const kind = enumWord(ChunoCardKind[chunoCardValue.kind]).toLowerCase();
  return card(chunoCardValue.notation, {
    id: chunoCardId(chunoCardValue),
    key,
    tone: colourName(chunoCardValue.colour),
    title: `${colourName(chunoCardValue.colour)} ${kind}`,
  });
}

/** The CHUNO table. */
export const chuno: GameUi = {
  draw(view: ObserveResponse): HTMLElement {
    const game = view.observation?.game;
    if (game?.case !== "chuno") return h("p", {}, "no CHUNO observation");
    const obs = game.value;
    const me = view.seat;
    const pieces = obs.board.map((piece) => ({
      square: piece.square,
      white: piece.side === ChunoSide.WHITE,
      role: enumWord(ChunoRole[piece.role]).toLowerCase(),
    }));
    const seats = Array.from({ length: view.seats }, (_, seat) => seat);
    return h(
      "div",
      { class: "game chuno" },
      h(
        "div",
        { class: "seats" },
        seats.map((seat) =>
          seatPanel(seat, me, view.toAct, [
            `${seat === 0 ? "white" : "black"}`,
            `${obs.handCounts[seat] ?? 0} cards`,
            `skips ${obs.skips[seat] ?? 0}`,
            obs.chunoPending === seat ? "must call CHUNO" : "",
          ]),
        ),
      ),
      chessBoard(pieces, me === 1, obs.enPassant === undefined ? {} : { [obs.enPassant]: "en-passant" }),
      h(
        "div",
        { class: "piles" },
        stack("deck", obs.deckCount, "deck"),
        row("discard", obs.topCard === undefined ? [] : [chunoCard(obs.topCard)], { "data-zone": "discard" }),
        h(
          "ul",
          { class: "facts" },
          h("li", {}, `colour to match: ${colourName(obs.activeColour)}`),
          h("li", {}, `stage: ${enumWord(ChunoStage[obs.stage]).toLowerCase()}`),
          h("li", {}, `moves left: ${obs.movesLeft}, cards played: ${obs.cardsPlayedThisTurn}`),
          h("li", {}, `turn ${obs.turn}, quiet moves ${obs.quietMoves}, discard pile ${obs.discard.length}`),
          h("li", { class: "fen" }, `FEN ${obs.fen}`),
        ),
      ),
      seats
        .filter((seat) => seat !== me)
        .map((seat) => hiddenHand(`seat ${seat}'s hand`, obs.handCounts[seat] ?? 0, seat)),
      me === undefined
        ? null
        : row(
            "your hand",
            obs.hand.map((handCard) => chunoCard(handCard, `hand:${handCard.notation}`)),
            { "data-zone": "hand", "data-seat": String(me), "data-own": "" },
          ),
    );
  },

  describe(action: Action, _view: ObserveResponse): ActionInfo {
    const kind = action.kind.case === "chuno" ? action.kind.value.kind : undefined;
    switch (kind?.case) {
      case "play": {
        const played = kind.value.card;
        const chosen = kind.value.colour === undefined ? "" : ` as ${colourName(kind.value.colour)}`;
        return { kind: "play", path: [`hand:${played?.notation ?? ""}`], label: `play ${played?.notation ?? "?"}${chosen}` };
      }
      case "move":
        return { kind: "move", path: uciPath(kind.value.uci), label: `move ${uciLabel(kind.value.uci)}` };
      case "draw":
        return { kind: "draw", path: ["deck"], label: "draw a card" };
      case "endTurn":
        return { kind: "end_turn", path: ["btn:end_turn"], label: "end the turn" };
      case "callChuno":
        return { kind: "call_chuno", path: ["btn:call_chuno"], label: "call CHUNO" };
      default:
        return { kind: "unknown", path: ["btn:unknown"], label: "unknown action" };
    }
  },
};
