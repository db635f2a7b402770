/** Every variant played to the end over gRPC (Node entry) against the real server. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { Client, GameStatus, type Variant } from "@deckmate/client";

import { playToEnd } from "./helpers/play.js";
import { liveServer } from "./helpers/server.js";

/** The variants the server hosts. */
async function variants(client: Client): Promise<Variant[]> {
  const list = await client.listVariants();
  assert.deepEqual(
    list.map((variant) => variant.id).sort(),
    ["card_chess", "chuno", "pigeon_chess", "pile_chess", "raindrop_chess"],
  );
  return list;
}

describe("live games over gRPC", () => {
  test("every variant plays to the end; history and a spectator's watch agree", async () => {
    const { address } = await liveServer();
    const client = await Client.connect(address);
    for (const [index, variant] of (await variants(client)).entries()) {
      const game = await client.createGame(variant.defaultConfig!, 0, { seed: 1000 + index });
      assert.equal(game.variant, variant.id);
      assert.equal(game.version, 0n);
      assert.equal(game.seats.length, variant.minSeats);
      assert.equal(game.seedCommitment.length, 32);
      const final = await playToEnd(game, index);
      assert.equal(final.status, GameStatus.FINISHED, variant.id);
      assert.ok(final.outcome !== undefined && final.outcome.reason !== 0, `${variant.id} has an end reason`);
      assert.ok(final.version > 0n);
      assert.deepEqual(await game.seat(0).legalActions(), []);

      const history = await game.seat(0).history();
      assert.equal(history.version, final.version);
      assert.equal(BigInt(history.actions.length), final.version);
      assert.equal(history.seed.length, 32);

      const versions: bigint[] = [];
      for await (const view of client.spectate(game.id).watch(0)) {
        versions.push(view.version);
        assert.equal(view.seat, undefined);
      }
      assert.deepEqual(versions, Array.from({ length: Number(final.version) }, (_, i) => BigInt(i + 1)));
    }
  });
});
