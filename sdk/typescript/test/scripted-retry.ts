/** Which calls are retried, with which request id, against a scripted server. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  ActOptions,
  ActRequestSchema,
  BadApiKey,
  Client,
  CreateGameRequestSchema,
  GameOver,
  GameConfigSchema,
  MetaActionKind,
  LimitReached,
  RetryPolicy,
  ShuttingDown,
  StoreUnavailable,
  TransportError,
  WatchRequestSchema,
  create,
  fromBinary,
  metaAction,
} from "@deckmate/client";

import { startScripted, type ReceivedCall, type Script } from "./helpers/scripted.js";
import { bytesField, statusWithErrorInfo, statusWithRetryInfo, varintField } from "./helpers/wire.js";

const UNAVAILABLE = 14;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const FAST = new RetryPolicy({ maxAttempts: 4, initialBackoffMs: 1, maxBackoffMs: 4 });
const CONFIG = create(GameConfigSchema, { game: { case: "chuno", value: {} } });

/** An ObserveResponse of game "g" at `version`. */
function observation(version: number): Buffer {
  return Buffer.concat([bytesField(1, "g"), bytesField(2, "chuno"), varintField(3, version)]);
}

/** A CreateGameResponse with one seat. */
const CREATED = Buffer.concat([
  bytesField(1, "g"),
  bytesField(2, Buffer.concat([varintField(1, 0), bytesField(2, "secret")])),
  bytesField(5, "chuno"),
]);

/** Runs `body` with a client of a scripted server running `script`; returns the calls. */
async function withServer(script: Script, body: (client: Client) => Promise<void>): Promise<ReceivedCall[]> {
  const server = await startScripted(script);
  try {
    await body(await Client.connect(server.address, { retry: FAST }));
    return server.calls;
  } finally {
    await server.close();
  }
}

/** The request ids of the Act calls. */
function actIds(calls: ReceivedCall[]): string[] {
  return calls.filter((call) => call.method === "Act").map((call) => fromBinary(ActRequestSchema, call.request).requestId);
}

describe("retries against a scripted server", () => {
  test("Act with a generated request id is retried with the same id", async () => {
    const calls = await withServer(
      (_, attempt) => (attempt < 3 ? { status: UNAVAILABLE, message: "down" } : { messages: [varintField(1, 7)] }),
      async (client) => {
        const response = await client.seat("g", 0, "tok").act(metaAction(MetaActionKind.RESIGN));
        assert.equal(response.version, 7n);
      },
    );
    const ids = actIds(calls);
    assert.equal(ids.length, 3);
    assert.match(ids[0]!, UUID_V4);
    assert.ok(ids.every((id) => id === ids[0]));
    assert.equal(calls[0]!.headers["authorization"], "Bearer tok");
  });

  test("Act with the caller's request id is sent once", async () => {
    const calls = await withServer(
      () => ({ status: UNAVAILABLE, message: "down" }),
      async (client) => {
        const options = ActOptions.expecting(3).withRequestId("mine");
        await assert.rejects(client.seat("g", 0, "tok").actWith(metaAction(MetaActionKind.RESIGN), options), TransportError);
      },
    );
    assert.deepEqual(actIds(calls), ["mine"]);
    assert.equal(fromBinary(ActRequestSchema, calls[0]!.request).expectedVersion, 3n);
  });

  test("CreateGame is retried with one id after a retryable reason, and not with the caller's id", async () => {
    const overloaded = statusWithErrorInfo(UNAVAILABLE, "busy", "OVERLOADED", "deckmate");
    const retried = await withServer(
      (_, attempt) => (attempt === 1 ? { status: UNAVAILABLE, message: "busy", details: overloaded } : { messages: [CREATED] }),
      async (client) => {
        const game = await client.createGame(CONFIG, 0, { seed: 5 });
        assert.equal(game.id, "g");
        assert.equal(game.seat(0).token, "secret");
      },
    );
    const requests = retried.map((call) => fromBinary(CreateGameRequestSchema, call.request));
    assert.equal(requests.length, 2);
    assert.equal(requests[0]!.requestId, requests[1]!.requestId);
    assert.equal(requests[0]!.seed, 5n);
    const once = await withServer(
      () => ({ status: UNAVAILABLE, message: "busy", details: overloaded }),
      async (client) => {
        await assert.rejects(client.createGame(CONFIG, 0, { requestId: "chosen" }), (error: unknown) => {
          assert.ok(error instanceof Error && error.name === "Overloaded");
          return true;
        });
      },
    );
    assert.equal(once.length, 1);
    // An empty id is no idempotency key: the client generates one, and may retry.
    const emptyId = await withServer(
      (_, attempt) => (attempt === 1 ? { status: UNAVAILABLE, message: "busy", details: overloaded } : { messages: [CREATED] }),
      async (client) => {
        await client.createGame(CONFIG, 0, { requestId: "" });
      },
    );
    const sent = emptyId.map((call) => fromBinary(CreateGameRequestSchema, call.request).requestId);
    assert.equal(sent.length, 2);
    assert.ok(sent[0]!.length > 0 && sent[0] === sent[1], `ids ${sent.join(", ")}`);
  });

  test("reads are retried on UNAVAILABLE only, within the attempt budget", async () => {
    const observeCalls = await withServer(
      (_, attempt) => (attempt < 4 ? { status: UNAVAILABLE, message: "down" } : { messages: [observation(2)] }),
      async (client) => {
        assert.equal((await client.spectate("g").observe()).version, 2n);
      },
    );
    assert.equal(observeCalls.length, 4);
    const exhausted = await withServer(
      () => ({ status: UNAVAILABLE, details: statusWithErrorInfo(UNAVAILABLE, "store", "STORE_UNAVAILABLE", "deckmate") }),
      async (client) => {
        await assert.rejects(client.spectate("g").history(), StoreUnavailable);
      },
    );
    assert.equal(exhausted.length, 4);
    const final = await withServer(
      () => ({ status: 9, message: "over", details: statusWithErrorInfo(9, "over", "GAME_OVER", "deckmate") }),
      async (client) => {
        await assert.rejects(client.seat("g", 1, "t").legalActions(), GameOver);
      },
    );
    assert.equal(final.length, 1);
  });

  test("watch resumes from the last delivered version after UNAVAILABLE", async () => {
    const store = statusWithErrorInfo(UNAVAILABLE, "store", "STORE_UNAVAILABLE", "deckmate");
    const calls = await withServer(
      (_, attempt) => {
        if (attempt === 1) {
          return { messages: [observation(1), observation(2)], status: UNAVAILABLE, details: store };
        }
        if (attempt === 2) {
          return { status: UNAVAILABLE, message: "still down" };
        }
        return { messages: [observation(3), observation(4)] };
      },
      async (client) => {
        const versions: bigint[] = [];
        for await (const view of client.seat("g", 0, "tok").watch()) {
          versions.push(view.version);
        }
        assert.deepEqual(versions, [1n, 2n, 3n, 4n]);
      },
    );
    const from = calls.map((call) => fromBinary(WatchRequestSchema, call.request).fromVersion);
    assert.deepEqual(from, [0n, 2n, 2n]);
  });

  test("watch resumes from the last delivered version after a server shut down", async () => {
    const draining = statusWithErrorInfo(UNAVAILABLE, "shutting down", "SHUTTING_DOWN", "deckmate");
    const calls = await withServer(
      (_, attempt) =>
        attempt === 1
          ? { messages: [observation(1), observation(2)], status: UNAVAILABLE, details: draining }
          : { messages: [observation(3)] },
      async (client) => {
        const versions: bigint[] = [];
        for await (const view of client.spectate("g").watch()) {
          versions.push(view.version);
        }
        assert.deepEqual(versions, [1n, 2n, 3n]);
      },
    );
    const from = calls.map((call) => fromBinary(WatchRequestSchema, call.request).fromVersion);
    assert.deepEqual(from, [0n, 2n]);
  });

  test("a watch cut by shutdown with no retries left rejects with ShuttingDown", async () => {
    const draining = statusWithErrorInfo(UNAVAILABLE, "shutting down", "SHUTTING_DOWN", "deckmate");
    const server = await startScripted(() => ({ messages: [observation(1)], status: UNAVAILABLE, details: draining }));
    try {
      const client = await Client.connect(server.address, { retry: RetryPolicy.never() });
      const watch = client.spectate("g").watch();
      assert.equal((await watch.next()).value?.version, 1n);
      await assert.rejects(watch.next(), (error: unknown) => {
        assert.ok(error instanceof ShuttingDown);
        assert.equal(error.reason, "SHUTTING_DOWN");
        assert.ok(error.retryable);
        return true;
      });
    } finally {
      await server.close();
    }
  });

  test("a refused API key rejects with BadApiKey and is not retried", async () => {
    const refused = statusWithErrorInfo(16, "bad API key", "BAD_API_KEY", "deckmate");
    const server = await startScripted(() => ({ status: 16, message: "bad API key", details: refused }));
    try {
      const client = await Client.connect(server.address, { apiKey: "revoked", retry: FAST });
      await assert.rejects(client.createGame(CONFIG), (error: unknown) => {
        assert.ok(error instanceof BadApiKey);
        assert.equal(error.code, 16);
        assert.ok(!error.retryable);
        return true;
      });
      assert.equal(server.calls.length, 1);
      assert.equal(server.calls[0]!.headers["x-api-key"], "revoked");
    } finally {
      await server.close();
    }
  });

  test("a retry waits for the server's RetryInfo delay", async () => {
    // Refused until 300 ms after the first refusal: far longer than the policy's own pauses.
    const busy = statusWithRetryInfo(UNAVAILABLE, "busy", "OVERLOADED", 300);
    let refusedAt: number | undefined;
    const calls = await withServer(
      () => {
        const now = Date.now();
        refusedAt ??= now;
        return now - refusedAt < 300
          ? { status: UNAVAILABLE, message: "busy", details: busy }
          : { messages: [observation(5)] };
      },
      async (client) => {
        assert.equal((await client.spectate("g").observe()).version, 5n);
      },
    );
    assert.equal(calls.length, 2);
  });

  test("a final error exposes the RetryInfo delay", async () => {
    const limited = statusWithRetryInfo(8, "create rate", "LIMIT_REACHED", 1250);
    const calls = await withServer(
      () => ({ status: 8, message: "create rate", details: limited }),
      async (client) => {
        await assert.rejects(client.createGame(CONFIG), (error: unknown) => {
          assert.ok(error instanceof LimitReached);
          assert.equal(error.retryDelay, 1250);
          return true;
        });
      },
    );
    assert.equal(calls.length, 1);
  });

  test("a resuming watch waits for the server's RetryInfo delay", async () => {
    const draining = statusWithRetryInfo(UNAVAILABLE, "shutting down", "SHUTTING_DOWN", 200);
    const arrivals: number[] = [];
    await withServer(
      (_, attempt) => {
        arrivals.push(Date.now());
        return attempt === 1
          ? { messages: [observation(1)], status: UNAVAILABLE, details: draining }
          : { messages: [observation(2)] };
      },
      async (client) => {
        const versions: bigint[] = [];
        for await (const view of client.spectate("g").watch()) {
          versions.push(view.version);
        }
        assert.deepEqual(versions, [1n, 2n]);
      },
    );
    assert.equal(arrivals.length, 2);
    assert.ok(arrivals[1]! - arrivals[0]! >= 190, `resumed after ${arrivals[1]! - arrivals[0]!} ms`);
  });

  test("errors of act and createGame carry the request id sent, others none", async () => {
    const DEADLINE_EXCEEDED = 4;
    const errorIds: (string | undefined)[] = [];
    const calls = await withServer(
      () => ({ status: DEADLINE_EXCEEDED, message: "deadline exceeded" }),
      async (client) => {
        const seat = client.seat("g", 0, "tok");
        const caught = async (call: Promise<unknown>): Promise<Error & { requestId?: string | undefined }> => {
          try {
            await call;
          } catch (error) {
            assert.ok(error instanceof Error);
            assert.equal((error as { code?: unknown }).code, DEADLINE_EXCEEDED);
            return error;
          }
          assert.fail("the call succeeded");
        };
        const acted = await caught(seat.act(metaAction(MetaActionKind.RESIGN)));
        const chosen = await caught(seat.actWith(metaAction(MetaActionKind.RESIGN), new ActOptions({ requestId: "mine" })));
        const created = await caught(client.createGame(CONFIG));
        const createdChosen = await caught(client.createGame(CONFIG, 0, { requestId: "game-1" }));
        const observed = await caught(seat.observe());
        errorIds.push(acted.requestId, chosen.requestId, created.requestId, createdChosen.requestId);
        assert.equal(observed.requestId, undefined);
      },
    );
    const ids = actIds(calls);
    const createIds = calls
      .filter((call) => call.method === "CreateGame")
      .map((call) => fromBinary(CreateGameRequestSchema, call.request).requestId);
    assert.match(ids[0]!, UUID_V4);
    assert.match(createIds[0]!, UUID_V4);
    assert.deepEqual(errorIds, [ids[0], "mine", createIds[0], "game-1"]);
    assert.deepEqual([ids[1], createIds[1]], ["mine", "game-1"]);
  });

  test("an act that exhausted its retries carries the id every attempt sent", async () => {
    let requestId: string | undefined;
    const calls = await withServer(
      () => ({ status: UNAVAILABLE, message: "down" }),
      async (client) => {
        await assert.rejects(client.seat("g", 0, "tok").act(metaAction(MetaActionKind.RESIGN)), (error: unknown) => {
          assert.ok(error instanceof TransportError);
          requestId = error.requestId;
          return true;
        });
      },
    );
    assert.equal(calls.length, 4);
    assert.match(requestId ?? "", UUID_V4);
    assert.deepEqual(actIds(calls), [requestId, requestId, requestId, requestId]);
  });

  test("watch gives up after the retry budget without delivering anything", async () => {
    const calls = await withServer(
      () => ({ status: UNAVAILABLE, message: "down" }),
      async (client) => {
        const watch = client.spectate("g").watch(5);
        await assert.rejects(watch.next(), TransportError);
      },
    );
    assert.equal(calls.length, 4);
  });
});
