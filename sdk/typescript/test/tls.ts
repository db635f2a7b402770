/** TLS with a caller-given CA against a scripted HTTPS server using the shared test certificates. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";

import { Client, RetryPolicy, TransportError } from "@deckmate/client";

import { startScripted } from "./helpers/scripted.js";
import { bytesField } from "./helpers/wire.js";

const TLS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../../../testdata/tls");

describe("TLS", () => {
  test("a call succeeds trusting the test CA and fails without it", async () => {
    const read = (name: string) => readFileSync(resolve(TLS_DIR, name), "utf8");
    const variants = bytesField(1, Buffer.concat([bytesField(1, "chuno"), bytesField(2, "CHUNO")]));
    const server = await startScripted(() => ({ messages: [variants] }), { key: read("server.key"), cert: read("server.pem") });
    try {
      const trusting = await Client.connect(server.address, { tls: { caPem: read("ca.pem") } });
      const [variant] = await trusting.listVariants();
      assert.equal(variant?.id, "chuno");

      const port = new URL(server.address).port;
      const byIp = await Client.connect(`127.0.0.1:${port}`, { tls: { caPem: read("ca.pem"), serverName: "localhost" } });
      assert.equal((await byIp.listVariants()).length, 1);

      const untrusting = await Client.connect(server.address, { retry: RetryPolicy.never() });
      await assert.rejects(untrusting.listVariants(), TransportError);
      assert.equal(server.calls.length, 2);
    } finally {
      await server.close();
    }
  });
});
