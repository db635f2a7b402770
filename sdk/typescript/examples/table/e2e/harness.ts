/** The e2e harness: the Deckmate server, `vite preview` of the built app, and Chromium. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, openSync } from "node:fs";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { chromium, type Browser } from "playwright-core";

/** This folder (sdk/typescript/examples/table), from e2e-dist/. */
export const TABLE = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const REPO = resolve(TABLE, "../../../..");

/** A TCP port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createNetServer();
    probe.on("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => done(port));
    });
  });
}

/** `DECKMATE_SERVER_BIN`, else the release build (built here when missing). */
export function serverBinary(): string {
  const fromEnv = process.env["DECKMATE_SERVER_BIN"];
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  const target = process.env["CARGO_TARGET_DIR"] ?? join(REPO, "target");
  const built = join(target, "release/deckmate-server");
  if (!existsSync(built)) {
    const build = spawnSync("cargo", ["build", "--release", "-p", "deckmate-server"], { cwd: REPO, stdio: "inherit" });
    if (build.status !== 0) throw new Error("cargo build --release -p deckmate-server failed");
  }
  return built;
}

/** A started process or server and how to stop it. */
export interface Running {
  /** Its base URL. */
  readonly url: string;
  /** Stops it. */
  stop(): Promise<void>;
}

/** Starts the Deckmate server with client seeds, no CreateGame rate limit, and `extra` flags. */
export async function startDeckmate(extra: readonly string[] = []): Promise<Running> {
  const port = await freePort();
  const log = openSync(join(tmpdir(), `deckmate-table-e2e-server-${port}.log`), "w");
  const child: ChildProcess = spawn(
    serverBinary(),
    ["--listen", `127.0.0.1:${port}`, "--allow-client-seed", "--create-rate", "off", "--max-games-per-client", "100000", ...extra],
    { stdio: ["ignore", log, log] },
  );
  const url = `http://127.0.0.1:${port}`;
  return whenAnswering(child, "deckmate-server", url, async () => {
    const response = await fetch(`${url}/deckmate.v1.GameService/GetServerInfo`, {
      method: "POST",
      headers: { "content-type": "application/grpc-web+proto", "x-grpc-web": "1" },
      body: new Uint8Array([0, 0, 0, 0, 0]),
    });
    return response.ok;
  });
}

/**
 * Waits up to 30 s until `answers()` is true for the started `child` (called `name` in errors),
 * then returns it as running at `url`.
 */
async function whenAnswering(child: ChildProcess, name: string, url: string, answers: () => Promise<boolean>): Promise<Running> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    try {
      if (await answers()) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${name} did not answer in 30 s`);
    await new Promise((wake) => setTimeout(wake, 100));
  }
  return {
    url,
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done();
        child.once("exit", () => done());
        child.kill("SIGTERM");
      }),
  };
}

/** Serves the built app (dist/) with `vite preview`, so that its config's headers are tested too. */
export async function startPreview(): Promise<Running> {
  const port = await freePort();
  const log = openSync(join(tmpdir(), `deckmate-table-e2e-preview-${port}.log`), "w");
  const child = spawn(process.execPath, [join(TABLE, "node_modules/vite/bin/vite.js"), "preview", "--host", "127.0.0.1", "--port", String(port), "--strictPort"], {
    cwd: TABLE,
    stdio: ["ignore", log, log],
  });
  const url = `http://127.0.0.1:${port}/`;
  return whenAnswering(child, "vite preview", url, async () => (await fetch(url)).ok);
}

/** Debian's Chromium (or CHROMIUM_PATH); nothing is downloaded. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
}
