/** GetHistory in pages: `history()` joins every page, `historyPage()` reads one. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  Client,
  GameStatus,
  GetHistoryRequestSchema,
  GetHistoryResponseSchema,
  RetryPolicy,
  create,
  fromBinary,
  toBinary,
  type Event,
  type GetHistoryResponse,
  type HistoryAction,
} from "@deckmate/client";

import { playToEnd } from "./helpers/play.js";
import { startScripted, type ReceivedCall, type Reply } from "./helpers/scripted.js";
import { liveServer } from "./helpers/server.js";

const FAST = new RetryPolicy({ maxAttempts: 4, initialBackoffMs: 1, maxBackoffMs: 4 });

/** A page of game "g" at `version`: one event per version from `from` to `to`, with the actions once finished. */
function page(version: number, status: GameStatus, from: number, to: number, nextPageToken: string): Reply {
  const finished = status === GameStatus.FINISHED;
  const versions = Array.from({ length: to - from + 1 }, (_, i) => BigInt(from + i));
  const message = create(GetHistoryResponseSchema, {
    gameId: "g",
    variant: "chuno",
    seats: 2,
    version: BigInt(version),
    status,
    events: versions.map((v) => ({ version: v })),
    actions: finished ? versions.filter((v) => v > 0n).map((v) => ({ version: v, seat: Number(v % 2n) })) : [],
    seed: finished ? new Uint8Array(32).fill(7) : new Uint8Array(),
    nextPageToken,
  });
  return { messages: [Buffer.from(toBinary(GetHistoryResponseSchema, message))] };
}

/** The three pages of a finished game at version 5, by token. */
const FINISHED_PAGES: Record<string, Reply> = {
  "": page(5, GameStatus.FINISHED, 0, 1, "t2"),
  t2: page(5, GameStatus.FINISHED, 2, 3, "t3"),
  t3: page(5, GameStatus.FINISHED, 4, 5, ""),
};

/** The request of a GetHistory call. */
function sent(call: ReceivedCall) {
  return fromBinary(GetHistoryRequestSchema, call.request);
}

/** Serves GetHistory from `pages(attempt)` by token; returns the tokens sent and what `body` read. */
async function paged(
  pages: (attempt: number) => Record<string, Reply>,
  body: (client: Client) => Promise<void>,
): Promise<string[]> {
  const server = await startScripted((call, attempt) => pages(attempt)[sent(call).pageToken]!);
  try {
    await body(await Client.connect(server.address, { retry: FAST }));
    return server.calls.map((call) => sent(call).pageToken);
  } finally {
    await server.close();
  }
}

/** Asserts that `history` is the three finished pages joined. */
function assertJoined(history: GetHistoryResponse): void {
  assert.deepEqual(history.events.map((event) => event.version), [0n, 1n, 2n, 3n, 4n, 5n]);
  assert.deepEqual(history.actions.map((action) => action.version), [1n, 2n, 3n, 4n, 5n]);
  assert.equal(history.version, 5n);
  assert.equal(history.status, GameStatus.FINISHED);
  assert.equal(history.seed.length, 32);
  assert.equal(history.nextPageToken, "");
}

describe("history in pages", () => {
  test("history() follows every page and joins them", async () => {
    const tokens = await paged(
      () => FINISHED_PAGES,
      async (client) => assertJoined(await client.spectate("g").history()),
    );
    assert.deepEqual(tokens, ["", "t2", "t3"]);
  });

  test("a game finishing between pages is read again", async () => {
    const running: Record<string, Reply> = { "": page(4, GameStatus.IN_PROGRESS, 0, 1, "t2") };
    const tokens = await paged(
      (attempt) => (attempt === 1 ? running : FINISHED_PAGES),
      async (client) => assertJoined(await client.spectate("g").history()),
    );
    assert.deepEqual(tokens, ["", "t2", "t3", "", "t2", "t3"]);
  });

  test("historyPage() sends the paging fields and returns one page", async () => {
    let calls: ReceivedCall[] = [];
    const server = await startScripted((call) => FINISHED_PAGES[sent(call).pageToken]!);
    try {
      const client = await Client.connect(server.address, { retry: FAST });
      const one = await client.spectate("g").historyPage(3, 2, "t2");
      assert.deepEqual(one.events.map((event) => event.version), [2n, 3n]);
      assert.equal(one.nextPageToken, "t3");
      calls = server.calls;
    } finally {
      await server.close();
    }
    assert.equal(calls.length, 1);
    const request = sent(calls[0]!);
    assert.deepEqual(
      [request.gameId, request.fromVersion, request.pageSize, request.pageToken],
      ["g", 3n, 2, "t2"],
    );
  });

  test("a finished game read in pages of 7 is its history", async () => {
    const { address } = await liveServer();
    const client = await Client.connect(address);
    const game = await client.createGame({ game: { case: "chuno", value: {} } }, 0, { seed: 77 });
    const final = await playToEnd(game, 77);
    const whole = await game.seat(0).history();
    assert.equal(whole.version, final.version);
    assert.equal(whole.nextPageToken, "");
    const spectator = client.spectate(game.id);
    const events: Event[] = [];
    const actions: HistoryAction[] = [];
    let pages = 0;
    let token = "";
    do {
      const one = await spectator.historyPage(0, 7, token);
      pages += 1;
      assert.equal(one.version, whole.version);
      assert.deepEqual(one.seed, whole.seed);
      events.push(...one.events);
      actions.push(...one.actions);
      token = one.nextPageToken;
    } while (token !== "");
    assert.equal(pages, Math.ceil((Number(final.version) + 1) / 7));
    assert.deepEqual(events, whole.events);
    assert.deepEqual(actions, whole.actions);
  });
});
