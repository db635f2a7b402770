/** The e2e harness: the Deckmate server, a static server for the built app, and Chromium. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createReadStream, existsSync, openSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, extname, join, normalize, resolve } from "node:path";
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
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`deckmate-server exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/deckmate.v1.GameService/GetServerInfo`, {
        method: "POST",
        headers: { "content-type": "application/grpc-web+proto", "x-grpc-web": "1" },
        body: new Uint8Array([0, 0, 0, 0, 0]),
      });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("deckmate-server did not answer in 30 s");
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

const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png" };

/** Serves the built app (dist/) with the same Referrer-Policy header as the dev server. */
export async function startStatic(): Promise<Running> {
  const root = join(TABLE, "dist");
  const server: Server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
    let file = join(root, path);
    if (!file.startsWith(root) || !existsSync(file) || statSync(file).isDirectory()) file = join(root, "index.html");
    response.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "referrer-policy": "no-referrer" });
    createReadStream(file).pipe(response);
  });
  const port = await freePort();
  await new Promise<void>((done) => server.listen(port, "127.0.0.1", done));
  return { url: `http://127.0.0.1:${port}/`, stop: () => new Promise((done) => server.close(() => done())) };
}

/** Debian's Chromium (or CHROMIUM_PATH); nothing is downloaded. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
}
