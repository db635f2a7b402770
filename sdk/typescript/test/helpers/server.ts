/** Starting the real Deckmate server once for the whole test run. */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, openSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { Client } from "@deckmate/client";

/** The repository root (this file runs from sdk/typescript/test-dist/test/helpers). */
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../..");

/** A running server: its address and the process. */
export interface LiveServer {
  /** `http://127.0.0.1:<port>`. */
  readonly address: string;
  /** The port it listens on. */
  readonly port: number;
}

let started: Promise<LiveServer> | undefined;
let child: ChildProcess | undefined;

/** The server binary: `DECKMATE_SERVER_BIN`, else the repository's release build. */
export function serverBinary(): string {
  const fromEnv = process.env["DECKMATE_SERVER_BIN"];
  if (fromEnv !== undefined && fromEnv !== "") {
    return fromEnv;
  }
  const built = join(REPO, "target/release/deckmate-server");
  if (existsSync(built)) {
    return built;
  }
  throw new Error(
    "no server binary: set DECKMATE_SERVER_BIN or build it with `cargo build --release -p deckmate-server`",
  );
}

/** A TCP port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

/** Starts the server and waits until ListVariants answers. */
async function start(): Promise<LiveServer> {
  const binary = serverBinary();
  const port = await freePort();
  const log = openSync(join(tmpdir(), `deckmate-ts-test-server-${port}.log`), "w");
  // The suite creates games faster than the default per-caller create rate allows; the rate
  // limit has tests of its own in the server.
  const args = ["--listen", `127.0.0.1:${port}`, "--allow-client-seed", "--create-rate", "off"];
  child = spawn(binary, args, {
    stdio: ["ignore", log, log],
  });
  const exited = new Promise<never>((_, reject) => {
    child?.once("exit", (code) => reject(new Error(`server exited early with code ${code}`)));
  });
  const address = `http://127.0.0.1:${port}`;
  const client = await Client.connect(address);
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      await Promise.race([client.listVariants(), exited]);
      return { address, port };
    } catch (error) {
      if (Date.now() > deadline || child.exitCode !== null) {
        throw error;
      }
      await new Promise((wake) => setTimeout(wake, 100));
    }
  }
}

/** The shared server, started on first use. */
export function liveServer(): Promise<LiveServer> {
  started ??= start();
  return started;
}

/** Stops the shared server if it was started. */
export function stopLiveServer(): void {
  child?.kill("SIGKILL");
  child = undefined;
}
