/** Card Chess: a 5×5 board of playing cards, hands, the draw pile and the discard pile. */
import { CardChessColour, CardChessPhase, CardChessRank, CardChessSuit, type Action, type CardChessCard, type ObserveResponse } from "@deckmate/client/web";

import { h } from "../dom.js";
import { back, card, grid, hiddenHand, row, seatPanel, stack, type Cell } from "./parts.js";
import type { ActionInfo, GameUi } from "./types.js";

const RANKS = ["", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUITS = ["", "♣", "♦", "♥", "♠"];

/** `10♥`. */
function cardText(value: CardChessCard): string {
  return `${RANKS[value.rank] ?? "?"}${SUITS[value.suit] ?? "?"}`;
}

/** The card's identity, such as `TEN/HEARTS`. */
export function cardChessId(value: CardChessCard): string {
  return `${CardChessRank[value.rank]}/${CardChessSuit[value.suit]}`;
}

function cardElement(value: CardChessCard, key?: string): HTMLElement {
  const red = value.suit === CardChessSuit.DIAMONDS || value.suit === CardChessSuit.HEARTS;
  return card(cardText(value), {
    id: cardChessId(value),
    key,
    tone: red ? "red" : "black",
    title: `${CardChessRank[value.rank].toLowerCase()} of ${CardChessSuit[value.suit].toLowerCase()}`,
  });
}

const RANK_NAMES = ["red castle", "red kingdom", "middle", "black kingdom", "black castle"];

/** The Card Chess table. */
export const cardChess: GameUi = {
  draw(view: ObserveResponse): HTMLElement {
    const game = view.observation?.game;
    if (game?.case !== "cardChess") return h("p", {}, "no Card Chess observation");
    const obs = game.value;
    const me = view.seat;
    const myColour = obs.players.find((player) => player.seat === me)?.colour;
    const spots = new Map(obs.board.map((spot) => [spot.name, spot]));
    // Each player sees their own castle at the bottom; spectators see Red's.
    const ranks = myColour === CardChessColour.BLACK ? RANK_NAMES : [...RANK_NAMES].reverse();
    const files = myColour === CardChessColour.BLACK ? [5, 4, 3, 2, 1] : [1, 2, 3, 4, 5];
    const rows: Cell[][] = ranks.map((rank) =>
      files.map((file) => {
        const name = `${rank} ${file}`;
        const spot = spots.get(name);
        const base = spot?.base === undefined ? back("face-down base card") : cardElement(spot.base);
        const piece = spot?.piece === undefined ? null : cardElement(spot.piece);
        const owner = spot?.owner === undefined ? "" : ` seat ${spot.owner}`;
        return {
          key: `spot:${name}`,
          content: h("span", { class: "spot" }, h("span", { class: "base" }, base), piece),
          label: `${name}${spot?.piece === undefined ? "" : `: ${cardText(spot.piece)}${owner}`}${spot?.inCheck === true ? ", in check" : ""}`,
          classes: `${spot?.inCheck === true ? "check" : ""} ${obs.replacementSpot === name ? "replacing" : ""}`,
        };
      }),
    );
    const top = obs.discard.at(-1);
    return h(
      "div",
      { class: "game card-chess" },
      h(
        "div",
        { class: "seats" },
        obs.players.map((player) =>
          seatPanel(player.seat, me, view.toAct, [
            CardChessColour[player.colour].toLowerCase(),
            `${player.handCount} cards in hand`,
            `${player.piecesInPlay} pieces in play`,
            `checks ${player.checks}`,
            player.exchangedLastTurn ? "exchanged last turn" : "",
          ], player.handShown ? [row("shown hand", player.shownHand.map((shown) => cardElement(shown)))] : []),
        ),
      ),
      grid(rows, "card chess board"),
      h(
        "div",
        { class: "piles" },
        stack("draw pile", obs.drawCount),
        row(`discard (${obs.discard.length})`, top === undefined ? [] : [cardElement(top)], { "data-zone": "discard" }),
        h(
          "ul",
          { class: "facts" },
          h("li", {}, `phase: ${CardChessPhase[obs.phase].toLowerCase()}`),
          obs.replacementSpot === undefined ? null : h("li", {}, `replacing on ${obs.replacementSpot}`),
          h("li", {}, `turn ${obs.turn}, turns without progress ${obs.turnsWithoutProgress}`),
        ),
      ),
      obs.players
        .filter((player) => player.seat !== me && !player.handShown)
        .map((player) => hiddenHand(`seat ${player.seat}'s hand`, player.handCount, player.seat)),
      me === undefined
        ? null
        : row(
            "your hand",
            obs.hand.map((handCard) => cardElement(handCard, `hand:${cardChessId(handCard)}`)),
            { "data-zone": "hand", "data-seat": String(me), "data-own": "" },
          ),
    );
  },

  describe(action: Action, _view: ObserveResponse): ActionInfo {
    const kind = action.kind.case === "cardChess" ? action.kind.value.kind : undefined;
    switch (kind?.case) {
      case "playIn": {
        const played = kind.value.card;
        const id = played === undefined ? "?" : cardChessId(played);
        const text = played === undefined ? "?" : cardText(played);
        return { kind: "play_in", path: [`hand:${id}`, `spot:${kind.value.spot}`], label: `play ${text} in on ${kind.value.spot}` };
      }
      case "exchange":
        return { kind: "exchange", path: ["btn:exchange"], label: "exchange the hand" };
      case "move":
        return { kind: "move", path: [`spot:${kind.value.from}`, `spot:${kind.value.to}`], label: `move ${kind.value.from} → ${kind.value.to}` };
      case "replace": {
        const chosen = kind.value.card;
        return {
          kind: "replace",
          path: [`hand:${chosen === undefined ? "?" : cardChessId(chosen)}`],
          label: `replace with ${chosen === undefined ? "?" : cardText(chosen)}`,
        };
      }
      case "keepRevealed":
        return { kind: "keep_revealed", path: ["btn:keep_revealed"], label: "keep the revealed card" };
      default:
        return { kind: "unknown", path: ["btn:unknown"], label: "unknown action" };
    }
  },
};
