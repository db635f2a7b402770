/** Every typed error triggered for real against the live server (Node entry). */
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  ActOptions,
  BadToken,
  Client,
  GameNotFound,
  GameOver,
  IllegalAction,
  InvalidRequest,
  NotYourTurn,
  StaleVersion,
  type Action,
} from "@deckmate/client";

import { liveServer } from "./helpers/server.js";

/** A CHUNO chess move, illegal before a card has been played. */
const EARLY_MOVE: Action["kind"] = { case: "chuno", value: { kind: { case: "move", value: { uci: "e2e4" } } } } as never;

describe("typed errors from the live server", () => {
  test("each reason arrives as its class", async () => {
    const { address } = await liveServer();
    const client = await Client.connect(address);
    const game = await client.createGame({ game: { case: "chuno", value: {} } }, 2, { seed: 7 });
    const view = await game.seat(0).observe();
    assert.deepEqual(view.toAct, [0]);
    const action = view.legalActions[0]!;

    await assert.rejects(game.seat(1).act(action), NotYourTurn);
    await assert.rejects(game.seat(0).act({ kind: EARLY_MOVE }), IllegalAction);
    await assert.rejects(game.seat(0).actWith(action, ActOptions.expecting(5)), (error: unknown) => {
      assert.ok(error instanceof StaleVersion);
      assert.equal(error.currentVersion, 0n);
      assert.equal(error.reason, "STALE_VERSION");
      return true;
    });
    await assert.rejects(client.seat(game.id, 0, "not-a-token").act(action), BadToken);
    await assert.rejects(client.spectate("no-such-game").observe(), GameNotFound);
    await assert.rejects(client.createGame({}, 0), InvalidRequest);
    await assert.rejects(
      client.createGame({ game: { case: "pileChess", value: { maxRounds: 100000 } } }, 2),
      (error: unknown) => {
        assert.ok(error instanceof InvalidRequest);
        assert.deepEqual(
          error.fieldViolations.map((violation) => violation.field),
          ["config.pile_chess.max_rounds"],
        );
        return true;
      },
    );

    const acted = await game.seat(0).actWith(action, ActOptions.expecting(0).withRequestId("repeat-me"));
    assert.equal(acted.version, 1n);
    const repeated = await game.seat(0).actWith(action, ActOptions.expecting(0).withRequestId("repeat-me"));
    assert.equal(repeated.version, 1n, "a repeated request id applies nothing");

    const resigned = await game.seat(1).resign();
    assert.equal(resigned.observation?.outcome?.winners.join(","), "0");
    await assert.rejects(game.seat(0).act(action), GameOver);
    await assert.rejects(game.seat(0).offerDraw(), GameOver);
  });

  test("draw offers: offer, decline, offer again, accept", async () => {
    const { address } = await liveServer();
    const client = await Client.connect(address);
    const game = await client.createGame({ game: { case: "raindropChess", value: {} } }, 2, { seed: 3 });
    await game.seat(0).offerDraw();
    assert.equal((await game.seat(1).observe()).drawOfferedBy, 0);
    await game.seat(1).declineDraw();
    assert.equal((await game.seat(1).observe()).drawOfferedBy, undefined);
    await game.seat(1).offerDraw();
    const accepted = await game.seat(0).acceptDraw();
    assert.equal(accepted.observation?.outcome?.draw, true);
    assert.equal(accepted.version, 4n);
  });
});
