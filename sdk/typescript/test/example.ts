/** The example program run as a child process against the live server. */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { dirname, resolve } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

import { liveServer } from "./helpers/server.js";

const EXAMPLE = resolve(dirname(fileURLToPath(import.meta.url)), "../../examples/random-game.mjs");
const run = promisify(execFile);

const RESULT = /^result: (\S+) ([0-9a-f]+) version=(\d+) winners=\[(\d+(,\d+)*)?\] draw=(true|false) reason=END_REASON_[A-Z_]+$/;

/** Runs the example; resolves with its exit code and output. */
async function example(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [EXAMPLE, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("random-game example", () => {
  test("finishes a game of every variant, over gRPC and once over gRPC-Web", async () => {
    const { address } = await liveServer();
    const runs = ["pile_chess", "card_chess", "chuno", "pigeon_chess", "raindrop_chess"].map((variant, seed) =>
      example(["--addr", address, "--variant", variant, "--seed", String(seed), "--api-key", "k"]),
    );
    runs.push(example(["--addr", address, "--variant", "chuno", "--seed", "9", "--web"]));
    const results = await Promise.all(runs);
    for (const [index, result] of results.entries()) {
      assert.equal(result.code, 0, result.stderr);
      const last = result.stdout.trimEnd().split("\n").pop() ?? "";
      const match = RESULT.exec(last);
      assert.ok(match, `last line: ${last}`);
      const expected = index < 5 ? ["pile_chess", "card_chess", "chuno", "pigeon_chess", "raindrop_chess"][index] : "chuno";
      assert.equal(match[1], expected);
      assert.equal(match[4] === undefined, match[6] === "true", "winners empty exactly for a draw");
    }
  });

  test("a bad address or variant exits 2 with one error line", async () => {
    const { address } = await liveServer();
    for (const args of [
      ["--addr", "http://127.0.0.1:1", "--variant", "chuno"],
      ["--addr", address, "--variant", "no_such_game"],
    ]) {
      const result = await example(args);
      assert.equal(result.code, 2);
      assert.equal(result.stdout, "");
      const lines = result.stderr.trimEnd().split("\n");
      assert.equal(lines.length, 1, result.stderr);
      assert.match(lines[0]!, /^error: /);
    }
  });
});
