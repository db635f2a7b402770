/** Decoding of statuses into error classes, and the retry policy's arithmetic. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  BadApiKey,
  BadRequestSchema,
  BadToken,
  Code,
  ConnectError,
  DeckmateError,
  ErrorInfoSchema,
  GameLost,
  GameNotFound,
  GameOver,
  IllegalAction,
  Internal,
  InvalidRequest,
  LimitReached,
  NotYourTurn,
  Overloaded,
  RequestIdReused,
  RetryInfoSchema,
  RetryPolicy,
  ShuttingDown,
  StaleVersion,
  StoreUnavailable,
  TransportError,
  create,
  toDeckmateError,
} from "@deckmate/client";

/** A status as connect reports it, with one ErrorInfo. */
function statusWith(code: Code, reason: string, metadata: Record<string, string> = {}, domain = "deckmate") {
  return new ConnectError(`message for ${reason}`, code, undefined, [
    { desc: ErrorInfoSchema, value: create(ErrorInfoSchema, { reason, domain, metadata }) },
  ]);
}

describe("error decoding", () => {
  test("every reason decodes to its class with code, reason and message", () => {
    const cases: [Code, string, typeof DeckmateError][] = [
      [Code.InvalidArgument, "INVALID_REQUEST", InvalidRequest],
      [Code.NotFound, "GAME_NOT_FOUND", GameNotFound],
      [Code.Unauthenticated, "BAD_TOKEN", BadToken],
      [Code.PermissionDenied, "BAD_TOKEN", BadToken],
      [Code.FailedPrecondition, "NOT_YOUR_TURN", NotYourTurn],
      [Code.FailedPrecondition, "ILLEGAL_ACTION", IllegalAction],
      [Code.FailedPrecondition, "GAME_OVER", GameOver],
      [Code.Aborted, "STALE_VERSION", StaleVersion],
      [Code.Unavailable, "STORE_UNAVAILABLE", StoreUnavailable],
      [Code.Unavailable, "OVERLOADED", Overloaded],
      [Code.ResourceExhausted, "LIMIT_REACHED", LimitReached],
      [Code.Internal, "INTERNAL", Internal],
      [Code.Unavailable, "SHUTTING_DOWN", ShuttingDown],
      [Code.Unauthenticated, "BAD_API_KEY", BadApiKey],
      [Code.InvalidArgument, "REQUEST_ID_REUSED", RequestIdReused],
      [Code.DataLoss, "GAME_LOST", GameLost],
    ];
    for (const [code, reason, ErrorClass] of cases) {
      const error = toDeckmateError(statusWith(code, reason));
      assert.ok(error instanceof ErrorClass, `${reason} decoded to ${error.name}`);
      assert.equal(error.constructor, ErrorClass);
      assert.equal(error.code, code);
      assert.equal(error.reason, reason);
      assert.equal(error.message, `message for ${reason}`);
      assert.equal(error.name, ErrorClass.name);
      assert.equal(error.retryable, code === Code.Unavailable);
    }
  });

  test("stale version reads current_version from metadata, or has none", () => {
    const stale = toDeckmateError(statusWith(Code.Aborted, "STALE_VERSION", { current_version: "17" }));
    assert.ok(stale instanceof StaleVersion);
    assert.equal(stale.currentVersion, 17n);
    assert.deepEqual(stale.metadata, { current_version: "17" });
    for (const metadata of [{}, { current_version: "seventeen" }] as Record<string, string>[]) {
      const error = toDeckmateError(statusWith(Code.Aborted, "STALE_VERSION", metadata));
      assert.ok(error instanceof StaleVersion);
      assert.equal(error.currentVersion, undefined);
    }
  });

  test("an unknown reason gives the base class and keeps the reason", () => {
    const error = toDeckmateError(statusWith(Code.Aborted, "SOMETHING_NEW", { k: "v" }));
    assert.equal(error.constructor, DeckmateError);
    assert.equal(error.reason, "SOMETHING_NEW");
    assert.deepEqual(error.metadata, { k: "v" });
    assert.equal(error.code, Code.Aborted);
  });

  test("an ErrorInfo of another domain is ignored", () => {
    const error = toDeckmateError(statusWith(Code.FailedPrecondition, "GAME_OVER", {}, "example.com"));
    assert.equal(error.constructor, DeckmateError);
    assert.equal(error.reason, "");
  });

  test("UNAVAILABLE without ErrorInfo and broken connections are transport errors", () => {
    const unavailable = toDeckmateError(new ConnectError("connection refused", Code.Unavailable));
    assert.ok(unavailable instanceof TransportError);
    assert.equal(unavailable.reason, "");
    assert.equal(unavailable.retryable, true);
    const resetCause = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
    const reset = toDeckmateError(new ConnectError("read ECONNRESET", Code.Aborted, undefined, undefined, resetCause));
    assert.ok(reset instanceof TransportError);
    assert.equal(reset.code, Code.Unavailable);
  });

  test("other codes without ErrorInfo stay plain", () => {
    const error = toDeckmateError(new ConnectError("h2 trouble", Code.Internal));
    assert.equal(error.constructor, DeckmateError);
    assert.equal(error.code, Code.Internal);
    assert.equal(error.message, "h2 trouble");
    assert.equal(error.retryable, false);
  });

  test("BadRequest field violations are exposed", () => {
    const status = new ConnectError("bad teams", Code.InvalidArgument, undefined, [
      { desc: ErrorInfoSchema, value: create(ErrorInfoSchema, { reason: "INVALID_REQUEST", domain: "deckmate" }) },
      {
        desc: BadRequestSchema,
        value: create(BadRequestSchema, {
          fieldViolations: [{ field: "config.pile_chess.teams", description: "bad team list" }],
        }),
      },
    ]);
    const error = toDeckmateError(status);
    assert.ok(error instanceof InvalidRequest);
    assert.deepEqual(error.fieldViolations, [{ field: "config.pile_chess.teams", description: "bad team list" }]);
  });
});

describe("RetryInfo", () => {
  /** A status with an ErrorInfo of `reason` (unless undefined) and a RetryInfo of `seconds`, `nanos`. */
  function statusWithDelay(code: Code, reason: string | undefined, seconds: bigint, nanos: number) {
    const details = [{ desc: RetryInfoSchema, value: create(RetryInfoSchema, { retryDelay: { seconds, nanos } }) }];
    const info =
      reason === undefined
        ? []
        : [{ desc: ErrorInfoSchema, value: create(ErrorInfoSchema, { reason, domain: "deckmate" }) }];
    return new ConnectError("busy", code, undefined, [...info, ...details]);
  }

  test("the delay is decoded in milliseconds", () => {
    const overloaded = toDeckmateError(statusWithDelay(Code.Unavailable, "OVERLOADED", 1n, 500_000_000));
    assert.ok(overloaded instanceof Overloaded);
    assert.equal(overloaded.retryDelay, 1500);
    const limited = toDeckmateError(statusWithDelay(Code.ResourceExhausted, "LIMIT_REACHED", 0n, 250_000_000));
    assert.ok(limited instanceof LimitReached);
    assert.equal(limited.retryDelay, 250);
    const transport = toDeckmateError(statusWithDelay(Code.Unavailable, undefined, 2n, 0));
    assert.ok(transport instanceof TransportError);
    assert.equal(transport.retryDelay, 2000);
    const none = toDeckmateError(statusWith(Code.Unavailable, "OVERLOADED"));
    assert.equal(none.retryDelay, undefined);
    assert.equal(none.requestId, undefined);
  });

  test("a pause is the longer of the backoff and the delay", () => {
    const policy = new RetryPolicy();
    const busy = toDeckmateError(statusWithDelay(Code.Unavailable, "OVERLOADED", 1n, 0));
    assert.deepEqual([1, 2, 3].map((n) => policy.pauseMs(n, busy)), [1000, 1000, 1000]);
    const short = toDeckmateError(statusWithDelay(Code.Unavailable, "OVERLOADED", 0n, 150_000_000));
    assert.deepEqual([1, 2, 3].map((n) => policy.pauseMs(n, short)), [150, 200, 400]);
    const none = toDeckmateError(statusWith(Code.Unavailable, "OVERLOADED"));
    assert.deepEqual([1, 2, 3].map((n) => policy.pauseMs(n, none)), [100, 200, 400]);
  });

  test("a retry waits for the delay", async () => {
    const policy = new RetryPolicy({ maxAttempts: 4, initialBackoffMs: 1, maxBackoffMs: 4 });
    const times: number[] = [];
    const value = await policy.run(async () => {
      times.push(Date.now());
      if (times.length === 1) {
        throw statusWithDelay(Code.Unavailable, "OVERLOADED", 0n, 200_000_000);
      }
      return "done";
    });
    assert.equal(value, "done");
    assert.equal(times.length, 2);
    assert.ok(times[1]! - times[0]! >= 190, `retried after ${times[1]! - times[0]!} ms`);
  });
});

describe("retry policy", () => {
  test("defaults to 4 attempts, 100 ms doubling, capped at 2 s", () => {
    const policy = new RetryPolicy();
    assert.equal(policy.maxAttempts, 4);
    assert.deepEqual([1, 2, 3, 4, 5, 6, 40].map((n) => policy.backoffMs(n)), [100, 200, 400, 800, 1600, 2000, 2000]);
    assert.equal(RetryPolicy.never().maxAttempts, 1);
  });

  test("retries only retryable errors, up to the attempt budget", async () => {
    const policy = new RetryPolicy({ maxAttempts: 3, initialBackoffMs: 1, maxBackoffMs: 2 });
    let calls = 0;
    await assert.rejects(
      policy.run(async () => {
        calls += 1;
        throw new ConnectError("down", Code.Unavailable);
      }),
      TransportError,
    );
    assert.equal(calls, 3);
    calls = 0;
    await assert.rejects(
      policy.run(async () => {
        calls += 1;
        throw statusWith(Code.FailedPrecondition, "ILLEGAL_ACTION");
      }),
      IllegalAction,
    );
    assert.equal(calls, 1);
  });
});
