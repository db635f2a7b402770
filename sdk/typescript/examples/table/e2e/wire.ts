/**
 * What each page received over gRPC-Web, decoded with the SDK's schemas, and the card
 * identities in it (the same ids the page puts in `data-card`).
 */
import { ActResponseSchema, ObserveResponseSchema, fromBinary, toJson, type ObserveResponse } from "@deckmate/client";
import type { Page, Response } from "playwright-core";

/** The messages of a gRPC-Web body: 5-byte frame headers, trailers (flag 0x80) skipped. */
export function frames(body: Uint8Array): Uint8Array[] {
  const messages: Uint8Array[] = [];
  let at = 0;
  while (at + 5 <= body.length) {
    const flag = body[at] ?? 0;
    const length = new DataView(body.buffer, body.byteOffset + at + 1, 4).getUint32(0);
    const payload = body.subarray(at + 5, at + 5 + length);
    if ((flag & 0x80) === 0) messages.push(payload);
    at += 5 + length;
  }
  return messages;
}

/** Collects the page's GameService responses; `views()` decodes them once they are complete. */
export class WireLog {
  readonly #pending: Promise<ObserveResponse[]>[] = [];

  /** Starts recording `page`. */
  constructor(page: Page) {
    page.on("response", (response) => this.#record(response));
  }

  #record(response: Response): void {
    const path = new URL(response.url()).pathname;
    const method = path.split("/").pop() ?? "";
    if (!path.startsWith("/deckmate.v1.GameService/") || !["Observe", "Watch", "Act"].includes(method)) return;
    this.#pending.push(
      response
        .body()
        .then((body) =>
          frames(new Uint8Array(body)).map((payload) =>
            method === "Act" ? fromBinary(ActResponseSchema, payload).observation : fromBinary(ObserveResponseSchema, payload),
          ).filter((view): view is ObserveResponse => view !== undefined),
        )
        .catch(() => []),
    );
  }

  /** Every decoded observation so far whose body has arrived. */
  async views(): Promise<ObserveResponse[]> {
    return (await Promise.all(this.#pending)).flat();
  }
}

/** Every card id anywhere in a decoded message (its JSON), as a set. */
export function cardIds(message: ObserveResponse): Set<string> {
  const ids = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === "string") {
      for (const prefix of ["PIGEON_CHESS_PIECE_", "PILE_CHESS_PIECE_"]) {
        if (value.startsWith(prefix)) ids.add(`${prefix.startsWith("PIGEON") ? "pigeon" : "pile"}/${value.slice(prefix.length)}`);
      }
      return;
    }
    if (Array.isArray(value)) return value.forEach(walk);
    if (value === null || typeof value !== "object") return;
    const record = value as Record<string, unknown>;
    if (typeof record["kind"] === "string" && record["kind"].startsWith("CHUNO_CARD_KIND_")) {
      const colour = typeof record["colour"] === "string" ? record["colour"].replace("CHUNO_COLOUR_", "").toLowerCase() : "wild";
      ids.add(`${record["kind"].replace("CHUNO_CARD_KIND_", "")}/${colour}`);
    }
    if (typeof record["rank"] === "string" && typeof record["suit"] === "string") {
      ids.add(`${record["rank"].replace("CARD_CHESS_RANK_", "")}/${record["suit"].replace("CARD_CHESS_SUIT_", "")}`);
    }
    Object.values(record).forEach(walk);
  };
  walk(toJson(ObserveResponseSchema, message));
  return ids;
}

/** The viewer's own hidden cards in an observation: its hand, and its own face-down cards. */
export function ownHidden(view: ObserveResponse): Set<string> {
  const game = view.observation?.game;
  const ids = new Set<string>();
  const add = (inner: unknown) => cardIds({ ...view, legalActions: [], recentEvents: [], outcome: undefined, observation: inner as never }).forEach((id) => ids.add(id));
  switch (game?.case) {
    case "chuno":
    case "cardChess":
    case "pileChess":
      add({ $typeName: "deckmate.v1.Observation", game: { case: game.case, value: { ...game.value, $typeName: game.value.$typeName, board: [], discard: [], topCard: undefined, players: [], piles: [], capturedPiles: [], removed: [], config: undefined } } });
      break;
    case "pigeonChess":
      add({
        $typeName: "deckmate.v1.Observation",
        game: { case: "pigeonChess", value: { ...game.value, board: game.value.board.filter((spot) => spot.faceDown && spot.owner === view.seat), players: [], groupDiscard: [], config: undefined } },
      });
      break;
    default:
      break;
  }
  return ids;
}
