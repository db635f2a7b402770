/** Pigeon Chess: a 3×4 grid of chess-piece cards, face up or down, hands and point piles. */
import { PigeonChessPhase, PigeonChessPiece, type Action, type ObserveResponse } from "@deckmate/client/web";

import { h } from "../dom.js";
import { glyph } from "./chess.js";
import { back, card, grid, hiddenHand, row, seatPanel, type Cell } from "./parts.js";
import type { ActionInfo, GameUi } from "./types.js";

function pieceName(piece: PigeonChessPiece): string {
  return PigeonChessPiece[piece].toLowerCase();
}

/** A piece card; seat 0's are drawn white, seat 1's black. */
function pieceCard(piece: PigeonChessPiece, owner: number | undefined, options: { key?: string; down?: boolean } = {}): HTMLElement {
  const name = pieceName(piece);
  const element = card(glyph(name, owner !== 1), {
    id: `pigeon/${PigeonChessPiece[piece]}`,
    key: options.key,
    tone: owner === 1 ? "black" : "white",
    title: `${name}${options.down === true ? ", face down (only you see it)" : ""}`,
  });
  if (options.down === true) element.classList.add("down");
  return element;
}

/** The Pigeon Chess table. */
export const pigeonChess: GameUi = {
  draw(view: ObserveResponse): HTMLElement {
    const game = view.observation?.game;
    if (game?.case !== "pigeonChess") return h("p", {}, "no Pigeon Chess observation");
    const obs = game.value;
    const me = view.seat;
    const spots = new Map(obs.board.map((spot) => [spot.name, spot]));
    // Each seat sees its own back row at the bottom.
    const rows = me === 1 ? [1, 2, 3, 4] : [4, 3, 2, 1];
    const columns = me === 1 ? ["c", "b", "a"] : ["a", "b", "c"];
    const cells: Cell[][] = rows.map((rowNumber) =>
      columns.map((column) => {
        const name = `${column}${rowNumber}`;
        const spot = spots.get(name);
        let content: HTMLElement | undefined;
        let label = name;
        if (spot?.owner !== undefined) {
          if (spot.piece !== undefined) {
            content = pieceCard(spot.piece, spot.owner, { down: spot.faceDown });
            label = `${name}: seat ${spot.owner} ${pieceName(spot.piece)}${spot.faceDown ? ", face down" : ""}`;
          } else {
            content = back();
            label = `${name}: seat ${spot.owner} face-down card`;
          }
        }
        return { key: `spot:${name}`, content, label, classes: rowNumber <= 2 ? "home-0" : "home-1" };
      }),
    );
    return h(
      "div",
      { class: "game pigeon" },
      h(
        "div",
        { class: "seats" },
        obs.players.map((player) =>
          seatPanel(
            player.seat,
            me,
            view.toAct,
            [
              `${player.handCount} in hand, ${player.deckCount} in deck`,
              `score ${player.score}`,
              player.kingAlive ? "king alive" : "king lost",
              player.committed ? "has chosen" : "",
              obs.firstPlayer === player.seat ? "first player" : "",
            ],
            [
              row("point pile", player.pointPile.map((piece) => pieceCard(piece, player.seat === 0 ? 1 : 0))),
              player.firstPlayerReveals.length === 0 ? h("span") : row("shown for first player", player.firstPlayerReveals.map((piece) => pieceCard(piece, player.seat))),
            ],
          ),
        ),
      ),
      grid(cells, "pigeon chess grid"),
      h(
        "div",
        { class: "piles" },
        row(`group discard (${obs.groupDiscard.length})`, obs.groupDiscard.map((piece) => pieceCard(piece, undefined))),
        h(
          "ul",
          { class: "facts" },
          h("li", {}, `phase: ${PigeonChessPhase[obs.phase].toLowerCase().replace(/_/g, " ")}`),
          h("li", {}, `turn ${obs.turn}, turns without progress ${obs.turnsWithoutProgress}`),
        ),
      ),
      obs.players
        .filter((player) => player.seat !== me)
        .map((player) => hiddenHand(`seat ${player.seat}'s hand`, player.handCount, player.seat)),
      me === undefined
        ? null
        : row(
            "your hand",
            obs.hand.map((piece) => pieceCard(piece, me, { key: `hand:${PigeonChessPiece[piece]}` })),
            { "data-zone": "hand", "data-seat": String(me), "data-own": "" },
          ),
    );
  },

  describe(action: Action, _view: ObserveResponse): ActionInfo {
    const kind = action.kind.case === "pigeonChess" ? action.kind.value.kind : undefined;
    switch (kind?.case) {
      case "placeFrontRow":
      case "placeBackRow": {
        const which = kind.case === "placeFrontRow" ? "front" : "back";
        const pieces = kind.value.pieces;
        return {
          kind: `place_${which}_row`,
          path: pieces.map((piece) => `hand:${PigeonChessPiece[piece]}`),
          label: `${which} row a–c: ${pieces.map(pieceName).join(", ")}`,
        };
      }
      case "revealForFirst":
        return { kind: "reveal_for_first", path: [`hand:${PigeonChessPiece[kind.value.piece]}`], label: `show ${pieceName(kind.value.piece)} for first player` };
      case "move":
        return { kind: "move", path: [`spot:${kind.value.from}`, `spot:${kind.value.to}`], label: `move ${kind.value.from} → ${kind.value.to}` };
      case "place":
        return { kind: "place", path: [`hand:${PigeonChessPiece[kind.value.piece]}`, `spot:${kind.value.spot}`], label: `place ${pieceName(kind.value.piece)} on ${kind.value.spot}` };
      case "endGame":
        return { kind: "end_game", path: ["btn:end_game"], label: "end the game" };
      case "pass":
        return { kind: "pass", path: ["btn:pass"], label: "pass" };
      default:
        return { kind: "unknown", path: ["btn:unknown"], label: "unknown action" };
    }
  },
};
