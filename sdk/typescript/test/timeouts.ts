/** `timeoutMs` bounds each call, so a server that never answers cannot hang the caller. */
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer, type Socket } from "node:net";
import { describe, test } from "node:test";

import { Client, Code, DeckmateError, RetryPolicy } from "@deckmate/client";

describe("timeouts", () => {
  test("a call to a server that never answers ends at the client's timeout", async () => {
    const accepted: Socket[] = [];
    const silent = createServer((socket) => accepted.push(socket));
    silent.listen(0, "127.0.0.1");
    await once(silent, "listening");
    const address = silent.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    try {
      const client = await Client.connect(`127.0.0.1:${port}`, { retry: RetryPolicy.never(), timeoutMs: 300 });
      let timer: NodeJS.Timeout | undefined;
      // Bounded here too, so that a missing timeout fails the test instead of hanging it.
      const stalled = new Promise<never>((_, fail) => {
        timer = setTimeout(() => fail(new Error("the call outlived its timeout")), 20_000);
      });
      try {
        await assert.rejects(Promise.race([client.listVariants(), stalled]), (error: unknown) => {
          assert.ok(error instanceof DeckmateError, String(error));
          assert.equal(error.code, Code.DeadlineExceeded);
          return true;
        });
        await assert.rejects(Promise.race([client.spectate("g").observe(), stalled]), (error: unknown) => {
          assert.ok(error instanceof DeckmateError && error.code === Code.DeadlineExceeded, String(error));
          return true;
        });
      } finally {
        clearTimeout(timer);
      }
    } finally {
      for (const socket of accepted) {
        socket.destroy();
      }
      silent.close();
    }
  });
});
