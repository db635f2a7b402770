/** Small parts of the surface: addresses, request ids, options, meta actions, game records. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  ActOptions,
  Client,
  Code,
  InvalidRequest,
  MetaActionKind,
  metaAction,
  newRequestId,
} from "@deckmate/client";
import { Client as WebClient } from "@deckmate/client/web";

describe("surface", () => {
  test("addresses: scheme kept or added, TLS upgrades, bad ones rejected", async () => {
    assert.equal((await Client.connect("http://127.0.0.1:5")).address, "http://127.0.0.1:5");
    assert.equal((await Client.connect("127.0.0.1:5")).address, "http://127.0.0.1:5");
    assert.equal((await Client.connect("127.0.0.1:5", { tls: true })).address, "https://127.0.0.1:5");
    // An explicit port 80 survives the switch to TLS; no port means https's own, 443.
    assert.equal((await Client.connect("games.example:80", { tls: true })).address, "https://games.example:80");
    assert.equal((await Client.connect("http://[::1]:80", { tls: true })).address, "https://[::1]:80");
    assert.equal((await Client.connect("http://games.example", { tls: true })).address, "https://games.example");
    assert.equal((await Client.connect("https://example.com")).address, "https://example.com");
    assert.equal((await WebClient.connect("https://example.com:8443")).address, "https://example.com:8443");
    for (const connect of [
      () => Client.connect("ftp://example.com"),
      () => Client.connect("ftp://x:1"),
      () => WebClient.connect("http://[nope"),
      () => WebClient.connect("ftp://x:1"),
    ]) {
      await assert.rejects(connect(), (error: unknown) => {
        assert.ok(error instanceof InvalidRequest);
        assert.equal(error.reason, "INVALID_REQUEST");
        assert.equal(error.code, Code.InvalidArgument);
        return true;
      });
    }
  });

  test("request ids are fresh lowercase UUID v4", () => {
    const ids = new Set(Array.from({ length: 200 }, () => newRequestId()));
    assert.equal(ids.size, 200);
    for (const id of ids) {
      assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  test("act options and meta actions", () => {
    const options = ActOptions.expecting(7);
    assert.equal(options.expectedVersion, 7n);
    assert.equal(options.requestId, undefined);
    const named = options.withRequestId("r1");
    assert.equal(named.expectedVersion, 7n);
    assert.equal(named.requestId, "r1");
    assert.equal(new ActOptions().expectedVersion, undefined);
    const action = metaAction(MetaActionKind.OFFER_DRAW);
    assert.equal(action.kind.case, "meta");
    assert.equal(action.kind.value?.kind, MetaActionKind.OFFER_DRAW);
  });
});
