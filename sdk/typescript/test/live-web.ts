/** The gRPC-Web entry against the live server: a full game, observe, act, watch and errors. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  ActOptions,
  BadToken,
  Client,
  GameNotFound,
  GameStatus,
  StaleVersion,
  TransportError,
  RetryPolicy,
} from "@deckmate/client/web";

import { playToEnd } from "./helpers/play.js";
import { liveServer } from "./helpers/server.js";

describe("live game over gRPC-Web", () => {
  test("a full game, watch and typed errors", async () => {
    const { address } = await liveServer();
    const client = await Client.connect(address, { apiKey: "web-key" });
    const variants = await client.listVariants();
    const pigeon = variants.find((variant) => variant.id === "pigeon_chess")!;
    const game = await client.createGame(pigeon.defaultConfig!, 2, { seed: 11 });
    const first = await game.seat(0).observe();
    await assert.rejects(game.seat(0).actWith(first.legalActions[0]!, ActOptions.expecting(9)), StaleVersion);
    await assert.rejects(client.seat(game.id, 1, "wrong").observe(), BadToken);
    await assert.rejects(client.spectate("missing").history(), GameNotFound);

    const final = await playToEnd(game, 5);
    assert.equal(final.status, GameStatus.FINISHED);
    const versions: bigint[] = [];
    for await (const view of game.seat(1).watch(final.version - 3n)) {
      versions.push(view.version);
      assert.equal(view.seat, 1);
    }
    assert.deepEqual(versions, [final.version - 2n, final.version - 1n, final.version]);

    const nowhere = await Client.connect("http://127.0.0.1:1", { retry: RetryPolicy.never() });
    await assert.rejects(nowhere.listVariants(), TransportError);
  });
});
