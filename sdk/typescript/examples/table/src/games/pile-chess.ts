/** Pile Chess: each seat's pile of chess-piece cards, hands, decks and captured piles. */
import { PileChessPiece, PileChessPileSource, PileChessStep, type Action, type ObserveResponse, type PileChessCard } from "@deckmate/client/web";

import { h } from "../dom.js";
import { glyph } from "./chess.js";
import { card, hiddenHand, row, seatPanel, stack } from "./parts.js";
import type { ActionInfo, GameUi } from "./types.js";

function pieceName(piece: PileChessPiece): string {
  return PileChessPiece[piece].toLowerCase();
}

const LETTERS: Record<number, string> = { 1: "P", 2: "N", 3: "B", 4: "R", 5: "Q", 6: "K" };

/** A card of seat `owner` (colours cycle through four seat tones). */
function pieceCard(piece: PileChessPiece, owner: number | undefined, key?: string): HTMLElement {
  const name = pieceName(piece);
  return card(`${glyph(name, true)}${LETTERS[piece] ?? "?"}`, {
    id: `pile/${PileChessPiece[piece]}`,
    key,
    tone: owner === undefined ? "none" : `seat${owner % 4}`,
    title: owner === undefined ? name : `seat ${owner}'s ${name}`,
  });
}

function ownedCard(value: PileChessCard): HTMLElement {
  return pieceCard(value.piece, value.owner);
}

/** The Pile Chess table. */
export const pileChess: GameUi = {
  draw(view: ObserveResponse): HTMLElement {
    const game = view.observation?.game;
    if (game?.case !== "pileChess") return h("p", {}, "no Pile Chess observation");
    const obs = game.value;
    const me = view.seat;
    const piles = new Map(obs.piles.map((pile) => [pile.owner, pile]));
    return h(
      "div",
      { class: "game pile-chess" },
      h(
        "div",
        { class: "seats" },
        obs.players.map((player) => {
          const pile = piles.get(player.seat);
          return seatPanel(
            player.seat,
            me,
            view.toAct,
            [
              player.out ? (player.resigned ? "resigned" : "out") : "",
              `hand ${player.handCount}, reshuffles ${player.reshuffles}`,
              `captures into pile ${player.capturedPile}`,
              player.castled ? "castled" : "",
              player.passed ? "passed" : player.acted ? "acted" : "",
              `plays ${player.plays}, en passant used ${player.enPassantUsed}`,
              player.pawnsOnly ? "pawns only" : "",
              obs.firstPlayer === player.seat ? "first player" : "",
              obs.lastPlayer === player.seat ? "played last" : "",
            ],
            [
              stack("deck", player.deckCount),
              row("reuse pile", player.reusePile.map((piece) => pieceCard(piece, player.seat))),
              h(
                "section",
                { class: "zone pile", "data-for": `pile:${player.seat}`, "aria-label": `pile ${player.seat}` },
                h("h3", { role: "button", "data-key": `pile:${player.seat}` }, `pile ${player.seat}${pile === undefined ? "" : ` (${PileChessPileSource[pile.source].toLowerCase().replace(/_/g, " ")})`}`),
                h("div", { class: "cards" }, pile === undefined || pile.cards.length === 0 ? h("span", { class: "muted" }, "empty") : pile.cards.map(ownedCard)),
              ),
            ],
          );
        }),
      ),
      h(
        "div",
        { class: "piles" },
        obs.capturedPiles.map((captured) =>
          h(
            "section",
            { class: "zone", "data-for": `captured:${captured.index}`, "aria-label": `captured pile ${captured.index}` },
            h("h3", { role: "button", "data-key": `captured:${captured.index}` }, `captured pile ${captured.index} (seats ${captured.seats.join(", ")}): value ${captured.value}`),
            h("div", { class: "cards" }, captured.cards.length === 0 ? h("span", { class: "muted" }, "empty") : captured.cards.map(ownedCard)),
          ),
        ),
        row("removed", obs.removed.map(ownedCard)),
        h(
          "ul",
          { class: "facts" },
          h("li", {}, `round ${obs.round}, step: ${PileChessStep[obs.step].toLowerCase()}`),
          obs.currentPlayer === undefined ? null : h("li", {}, `current player: seat ${obs.currentPlayer}`),
          obs.pending.map((pending) => h("li", {}, `waiting for seat ${pending.seat}: ${pending.kind === 1 ? "gift" : "promotion"}${pending.pile === undefined ? "" : ` on pile ${pending.pile}`}`)),
        ),
      ),
      obs.players
        .filter((player) => player.seat !== me)
        .map((player) => hiddenHand(`seat ${player.seat}'s hand`, player.handCount, player.seat)),
      me === undefined
        ? null
        : row(
            "your hand",
            obs.hand.map((piece) => pieceCard(piece, me, `hand:${PileChessPiece[piece]}`)),
            { "data-zone": "hand", "data-seat": String(me), "data-own": "" },
          ),
    );
  },

  describe(action: Action, _view: ObserveResponse): ActionInfo {
    const kind = action.kind.case === "pileChess" ? action.kind.value.kind : undefined;
    switch (kind?.case) {
      case "play":
        return { kind: "play", path: [`hand:${PileChessPiece[kind.value.piece]}`, `pile:${kind.value.pile}`], label: `play ${pieceName(kind.value.piece)} on pile ${kind.value.pile}` };
      case "pass":
        return { kind: "pass", path: ["btn:pass"], label: "pass" };
      case "castle":
        return { kind: "castle", path: ["btn:castle"], label: "castle" };
      case "enPassant":
        return {
          kind: "en_passant",
          path: [`pile:${kind.value.fromPile}`, `pile:${kind.value.toPile}`],
          label: `en passant: ${kind.value.pawns} pawn(s) from pile ${kind.value.fromPile} to pile ${kind.value.toPile}`,
        };
      case "gift": {
        const pieces = kind.value.pieces.map(pieceName);
        return {
          kind: "gift",
          path: [`seat:${kind.value.to}`],
          label: pieces.length === 0 ? `give nothing, leaving to seat ${kind.value.to}` : `give ${pieces.join(" and ")} to seat ${kind.value.to}`,
        };
      }
      case "promote":
        return {
          kind: "promote",
          path: [`captured:${kind.value.capturedPile}`],
          label: `promote, taking back a ${pieceName(kind.value.piece)} from captured pile ${kind.value.capturedPile}`,
        };
      case "declinePromotion":
        return { kind: "decline_promotion", path: ["btn:decline_promotion"], label: "decline the promotion" };
      default:
        return { kind: "unknown", path: ["btn:unknown"], label: "unknown action" };
    }
  },
};
