/** Watch resumes through a proxy that resets the connection mid-stream. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { Client, RetryPolicy } from "@deckmate/client";
import { Client as WebClient } from "@deckmate/client/web";

import { playToEnd } from "./helpers/play.js";
import { startResetProxy } from "./helpers/reset-proxy.js";
import { liveServer } from "./helpers/server.js";

describe("watch through a resetting proxy", () => {
  test("versions 1..final arrive exactly once across reconnects, over gRPC and gRPC-Web", async () => {
    const { address, port } = await liveServer();
    const direct = await Client.connect(address);
    const game = await direct.createGame({ game: { case: "chuno", value: {} } }, 2, { seed: 21 });
    const final = await playToEnd(game, 21);
    assert.ok(final.version > 20n, `game long enough (${final.version} versions)`);

    const expected = Array.from({ length: Number(final.version) }, (_, i) => BigInt(i + 1));
    const retry = new RetryPolicy({ maxAttempts: 4, initialBackoffMs: 10, maxBackoffMs: 50 });
    for (const connect of [Client.connect, WebClient.connect]) {
      const proxy = await startResetProxy(port, 6000, 2);
      try {
        const viaProxy = await connect(proxy.address, { retry });
        const versions: bigint[] = [];
        for await (const view of viaProxy.seat(game.id, 0, game.seat(0).token).watch(0)) {
          versions.push(view.version);
        }
        assert.deepEqual(versions, expected);
        assert.equal(proxy.resets(), 2);
        assert.ok(proxy.connections() > 2, `proxy saw ${proxy.connections()} connections`);
      } finally {
        await proxy.close();
      }
    }
  });

  test("a connection that dies silently is found by its pings, and the watch resumes", async () => {
    const { address, port } = await liveServer();
    const direct = await Client.connect(address);
    const game = await direct.createGame({ game: { case: "chuno", value: {} } }, 2, { seed: 21 });
    const final = await playToEnd(game, 21);
    const expected = Array.from({ length: Number(final.version) }, (_, i) => BigInt(i + 1));
    const retry = new RetryPolicy({ maxAttempts: 4, initialBackoffMs: 10, maxBackoffMs: 50 });
    const proxy = await startResetProxy(port, 6000, 1, true);
    try {
      const viaProxy = await Client.connect(proxy.address, {
        retry,
        keepalive: { intervalMs: 300, timeoutMs: 300 },
      });
      const versions: bigint[] = [];
      // Without pings the watch would wait forever: bounded here, so that the test fails instead.
      const watched = (async () => {
        for await (const view of viaProxy.seat(game.id, 0, game.seat(0).token).watch(0)) {
          versions.push(view.version);
        }
      })();
      let timer: NodeJS.Timeout | undefined;
      const stalled = new Promise<never>((_, fail) => {
        timer = setTimeout(() => fail(new Error("the watch never noticed the frozen connection")), 20_000);
      });
      try {
        await Promise.race([watched, stalled]);
      } finally {
        clearTimeout(timer);
      }
      assert.deepEqual(versions, expected);
      assert.equal(proxy.resets(), 1);
      assert.equal(proxy.connections(), 2);
    } finally {
      await proxy.close();
    }
  });
});
