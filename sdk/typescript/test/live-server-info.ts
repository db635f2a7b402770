/** GetServerInfo from both entry points, and a watch cut by a real server's shutdown. */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, test } from "node:test";

import { Client, RetryPolicy, ShuttingDown, StoreKind } from "@deckmate/client";
import { Client as WebClient } from "@deckmate/client/web";

import { freePort, liveServer, serverBinary } from "./helpers/server.js";

describe("server info and shutdown against the live server", () => {
  test("serverInfo describes the server, alike over gRPC and gRPC-Web", async () => {
    const { address } = await liveServer();
    const info = await (await Client.connect(address)).serverInfo();
    assert.ok(info.serverVersion.length > 0);
    assert.ok(info.apiRevision >= 2, `revision ${info.apiRevision}`);
    // The test server runs with `--allow-client-seed`, in memory, without API keys.
    assert.equal(info.features?.clientSeeds, true);
    assert.equal(info.features?.apiKeys, false);
    assert.equal(info.features?.store, StoreKind.MEMORY);
    assert.equal(info.features?.bots, true);
    assert.equal(info.features?.clocks, true);
    assert.ok((info.limits?.maxMessageBytes ?? 0) > 0);
    assert.ok((info.limits?.maxRequestIdBytes ?? 0) > 0);
    // Started with `--create-rate off`, and the default quotas otherwise.
    assert.equal(info.limits?.createRate, undefined);
    assert.equal(info.limits?.maxGamesPerClient, 1000);
    assert.equal(info.limits?.maxWatchersPerGame, 64);
    assert.equal(info.limits?.maxWatchersPerClient, 1000);

    const viaWeb = await (await WebClient.connect(address)).serverInfo();
    assert.equal(viaWeb.serverVersion, info.serverVersion);
    assert.equal(viaWeb.apiRevision, info.apiRevision);
    assert.equal(viaWeb.features?.store, info.features?.store);
  });

  test("a clocked game shows every seat's clock", async () => {
    const { address } = await liveServer();
    const client = await Client.connect(address);
    const game = await client.createGame({ game: { case: "pigeonChess", value: {} } }, 2, {
      seed: 11,
      clock: { kind: { case: "fischer", value: { baseMs: 60_000, incrementMs: 1_000 } } },
    });
    const view = await game.seat(0).observe();
    assert.deepEqual(
      view.clocks.map((clock) => clock.seat),
      [0, 1],
    );
    // Pigeon Chess opens with both seats placing at once: both clocks run.
    for (const clock of view.clocks) {
      assert.ok(clock.running && clock.deadline !== undefined, `seat ${clock.seat}`);
      assert.ok(clock.remainingMs > 0 && clock.remainingMs <= 60_000);
    }
  });

  test("a watch cut by SIGTERM ends with ShuttingDown", async () => {
    const port = await freePort();
    const server = spawn(serverBinary(), ["--listen", `127.0.0.1:${port}`, "--allow-client-seed"], {
      stdio: "ignore",
    });
    try {
      const address = `http://127.0.0.1:${port}`;
      // No retries: the stopped server cannot be resumed from, and the status that ended the
      // stream is what this test reads.
      const client = await Client.connect(address, { retry: RetryPolicy.never() });
      for (let attempt = 0; ; attempt += 1) {
        try {
          await client.listVariants();
          break;
        } catch (error) {
          if (attempt > 200 || server.exitCode !== null) {
            throw error;
          }
          await new Promise((wake) => setTimeout(wake, 100));
        }
      }
      const game = await client.createGame({ game: { case: "chuno", value: {} } }, 2, { seed: 7 });
      const view = await game.seat(0).observe();
      const seat = game.seat(view.toAct[0] ?? 0);
      await seat.act((await seat.legalActions())[0]!);
      const watch = seat.watch(0);
      // The first version proves the stream is open before the server is stopped.
      assert.equal((await watch.next()).value?.version, 1n);
      server.kill("SIGTERM");
      await assert.rejects(watch.next(), (error: unknown) => {
        assert.ok(error instanceof ShuttingDown, `${String(error)}`);
        assert.equal(error.reason, "SHUTTING_DOWN");
        assert.ok(error.retryable);
        return true;
      });
    } finally {
      if (server.exitCode === null) {
        server.kill("SIGKILL");
        await once(server, "exit");
      }
    }
  });
});
