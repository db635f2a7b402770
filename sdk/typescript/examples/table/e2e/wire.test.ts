/** The hidden-card checker itself: it must see a card wherever a response carries one. */
import assert from "node:assert/strict";
import { test } from "node:test";

import { ChunoCardKind, ChunoColour, ObserveResponseSchema, PigeonChessPiece, create, toBinary } from "@deckmate/client";

import { cardIds, frames, ownHidden } from "./wire.js";

const card = (kind: ChunoCardKind, colour?: ChunoColour) => ({ kind, colour, notation: "x" });

test("cardIds finds cards in observations, events and legal actions; ownHidden is the hand", () => {
  const view = create(ObserveResponseSchema, {
    seat: 0,
    observation: { game: { case: "chuno", value: { hand: [card(ChunoCardKind.ONE, ChunoColour.RED)], discard: [card(ChunoCardKind.WILD)] } } },
    recentEvents: [{ kind: { case: "chuno", value: { kind: { case: "cardsDrawn", value: { seat: 1, count: 1, cards: [card(ChunoCardKind.SKIP, ChunoColour.BLUE)] } } } } }],
  });
  assert.deepEqual([...cardIds(view)].sort(), ["ONE/red", "SKIP/blue", "WILD/wild"]);
  assert.deepEqual([...ownHidden(view)], ["ONE/red"]);
});

test("ownHidden counts a Pigeon Chess seat's face-down cards; frames skips trailers", () => {
  const view = create(ObserveResponseSchema, {
    seat: 1,
    observation: {
      game: {
        case: "pigeonChess",
        value: {
          hand: [PigeonChessPiece.ROOK],
          board: [
            { name: "a4", owner: 1, faceDown: true, piece: PigeonChessPiece.QUEEN },
            { name: "a1", owner: 0, faceDown: false, piece: PigeonChessPiece.KNIGHT },
          ],
        },
      },
    },
  });
  assert.deepEqual([...ownHidden(view)].sort(), ["pigeon/QUEEN", "pigeon/ROOK"]);
  const payload = toBinary(ObserveResponseSchema, view);
  const body = new Uint8Array(5 + payload.length + 5 + 2);
  new DataView(body.buffer).setUint32(1, payload.length);
  body.set(payload, 5);
  body[5 + payload.length] = 0x80;
  new DataView(body.buffer).setUint32(5 + payload.length + 1, 2);
  const decoded = frames(body);
  assert.equal(decoded.length, 1);
  assert.deepEqual(decoded[0], payload);
});
