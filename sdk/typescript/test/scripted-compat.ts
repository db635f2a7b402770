/**
 * Forward compatibility against a scripted server sending what a newer server might: unknown
 * fields, enum values, oneof members (a sixth game) and error reasons; and the API key header.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { inspect } from "node:util";

import {
  Client,
  CreateGameRequestSchema,
  DeckmateError,
  EndReason,
  GameStatus,
  RetryPolicy,
  fromBinary,
  toBinary,
  GameConfigSchema,
} from "@deckmate/client";

import { startScripted } from "./helpers/scripted.js";
import { bytesField, statusWithErrorInfo, varintField } from "./helpers/wire.js";

/** An Observation holding a sixth game's view (oneof member 6). */
const SIXTH_GAME_VIEW = bytesField(6, bytesField(1, "board of a new game"));

/** An ObserveResponse from a newer server. */
const FROM_THE_FUTURE = Buffer.concat([
  bytesField(1, "g"),
  bytesField(2, "sixth_game"),
  varintField(3, 12),
  varintField(4, 99), // unknown GameStatus
  bytesField(5, Buffer.concat([varintField(3, 99), bytesField(5, "ended somehow")])), // unknown EndReason
  bytesField(9, SIXTH_GAME_VIEW),
  bytesField(10, Buffer.concat([varintField(1, 12), bytesField(10, bytesField(1, "new event"))])),
  varintField(12, 2),
  varintField(99, 7), // unknown field
]);

/** A ListVariantsResponse naming a sixth game whose default config is oneof member 6. */
const VARIANTS = bytesField(
  1,
  Buffer.concat([bytesField(1, "sixth_game"), bytesField(2, "Sixth"), varintField(3, 2), bytesField(5, bytesField(6, Buffer.alloc(0)))]),
);

describe("forward compatibility", () => {
  test("unknown fields, enum values, oneof members and reasons surface as unknown", async () => {
    const server = await startScripted((call) => {
      switch (call.method) {
        case "Observe":
          return { messages: [FROM_THE_FUTURE] };
        case "ListVariants":
          return { messages: [VARIANTS] };
        case "CreateGame":
          return {
            status: 10,
            message: "new rule",
            details: statusWithErrorInfo(10, "new rule", "SOMETHING_NEW", "deckmate", { hint: "x" }),
          };
        default:
          return { status: 12, message: "unimplemented" };
      }
    });
    try {
      const client = await Client.connect(server.address, { apiKey: "key-123", retry: RetryPolicy.never() });
      const view = await client.seat("g", 0, "tok").observe();
      assert.equal(view.version, 12n);
      assert.equal(view.status, 99);
      assert.equal(GameStatus[view.status], undefined);
      assert.equal(view.outcome?.reason, 99);
      assert.equal(EndReason[view.outcome?.reason ?? 0], undefined);
      assert.equal(view.outcome?.description, "ended somehow");
      assert.equal(view.observation?.game.case, undefined);
      assert.equal(view.recentEvents[0]?.kind.case, undefined);
      assert.equal(view.recentEvents[0]?.version, 12n);
      assert.equal(view.seats, 2);

      const [variant] = await client.listVariants();
      assert.equal(variant?.id, "sixth_game");
      assert.equal(variant?.defaultConfig?.game.case, undefined);
      // The unknown game survives a round trip: it is sent back as it came.
      assert.deepEqual(Buffer.from(toBinary(GameConfigSchema, variant!.defaultConfig!)), bytesField(6, Buffer.alloc(0)));

      await assert.rejects(client.createGame(variant!.defaultConfig!), (error: unknown) => {
        assert.ok(error instanceof DeckmateError);
        assert.equal(error.constructor, DeckmateError);
        assert.equal(error.reason, "SOMETHING_NEW");
        assert.equal(error.code, 10);
        assert.deepEqual(error.metadata, { hint: "x" });
        assert.equal(error.message, "new rule");
        return true;
      });
      const create = server.calls.find((call) => call.method === "CreateGame")!;
      const sentConfig = fromBinary(CreateGameRequestSchema, create.request).config!;
      assert.deepEqual(Buffer.from(toBinary(GameConfigSchema, sentConfig)), bytesField(6, Buffer.alloc(0)));

      assert.equal(server.calls.length, 3);
      for (const call of server.calls) {
        assert.equal(call.headers["x-api-key"], "key-123", `${call.method} carries the API key`);
      }
      assert.ok(!String(client).includes("key-123"));
      const handle = client.seat("g", 0, "hidden-token-value");
      for (const shown of [String(handle), inspect(handle), JSON.stringify(handle), inspect(client)]) {
        assert.ok(!shown.includes("hidden-token-value") && !shown.includes("key-123"), shown);
      }
    } finally {
      await server.close();
    }
  });
});
