/**
 * A TCP proxy that forwards to a server and resets both sides of a connection after it has
 * forwarded a given number of response bytes, so that a client must reconnect; or freezes it
 * there (forwards nothing more either way, closes nothing), as a connection that died silently
 * looks to its ends.
 */
import { once } from "node:events";
import { connect, createServer, type Server, type Socket } from "node:net";

/** A running proxy. */
export interface ResetProxy {
  /** `http://127.0.0.1:<port>`. */
  readonly address: string;
  /** Connections accepted so far. */
  readonly connections: () => number;
  /** Connections reset so far. */
  readonly resets: () => number;
  /** Stops the proxy and drops every connection. */
  close(): Promise<void>;
}

/** Resets a socket (RST instead of FIN) when it can, else destroys it. */
function reset(socket: Socket): void {
  if (!socket.destroyed) {
    socket.resetAndDestroy();
  }
}

/**
 * Forwards to `127.0.0.1:targetPort`; each of the first `resetConnections` connections is reset
 * (or, with `freeze`, frozen) once `resetAfterBytes` bytes have gone from the server to the
 * client.
 */
export async function startResetProxy(
  targetPort: number,
  resetAfterBytes: number,
  resetConnections: number,
  freeze = false,
): Promise<ResetProxy> {
  let accepted = 0;
  let resetCount = 0;
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    accepted += 1;
    const cutThis = accepted <= resetConnections;
    const upstream = connect(targetPort, "127.0.0.1");
    open.add(client);
    open.add(upstream);
    let forwarded = 0;
    let frozen = false;
    const cut = () => {
      resetCount += 1;
      if (freeze) {
        frozen = true;
        client.pause();
        return;
      }
      reset(client);
      reset(upstream);
    };
    client.on("data", (chunk: Buffer) => {
      if (!frozen) {
        upstream.write(chunk);
      }
    });
    upstream.on("data", (chunk: Buffer) => {
      if (client.destroyed) {
        return;
      }
      if (cutThis && forwarded + chunk.length >= resetAfterBytes) {
        client.write(chunk.subarray(0, Math.max(resetAfterBytes - forwarded, 0)), cut);
        forwarded = resetAfterBytes;
        upstream.pause();
        return;
      }
      forwarded += chunk.length;
      client.write(chunk);
    });
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      from.on("error", () => reset(to));
      from.on("close", () => {
        open.delete(from);
        to.destroy();
      });
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    address: `http://127.0.0.1:${port}`,
    connections: () => accepted,
    resets: () => resetCount,
    close: () =>
      new Promise((done) => {
        for (const socket of open) {
          socket.destroy();
        }
        server.close(() => done());
      }),
  };
}
