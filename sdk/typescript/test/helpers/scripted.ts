/** A scripted gRPC server on node:http2 that answers with hand-crafted bytes. */
import { once } from "node:events";
import {
  createSecureServer,
  createServer,
  type Http2Server,
  type Http2SecureServer,
  type IncomingHttpHeaders,
  type ServerHttp2Stream,
} from "node:http2";

import { frame, unframe } from "./wire.js";

/** One call the server received. */
export interface ReceivedCall {
  /** The method name, such as `Act`. */
  readonly method: string;
  /** The request headers. */
  readonly headers: IncomingHttpHeaders;
  /** The request message bytes. */
  readonly request: Buffer;
}

/** What the server answers to one call. */
export interface Reply {
  /** Response messages, in order (none for an error). */
  messages?: Buffer[];
  /** The gRPC status code; 0 unless given. */
  status?: number;
  /** The status message. */
  message?: string;
  /** The encoded `google.rpc.Status` for `grpc-status-details-bin`. */
  details?: Buffer;
}

/** Answers one call; `attempt` counts the calls of the same method so far, from 1. */
export type Script = (call: ReceivedCall, attempt: number) => Reply;

/** A running scripted server. */
export interface ScriptedServer {
  /** `http://127.0.0.1:<port>` (or `https://localhost:<port>` with TLS). */
  readonly address: string;
  /** Every call received, in order. */
  readonly calls: ReceivedCall[];
  /** Stops the server. */
  close(): Promise<void>;
}

/** Sends `reply` on `stream`. */
function answer(stream: ServerHttp2Stream, reply: Reply): void {
  const trailers: Record<string, string> = { "grpc-status": String(reply.status ?? 0) };
  if (reply.message !== undefined) {
    trailers["grpc-message"] = encodeURIComponent(reply.message);
  }
  if (reply.details !== undefined) {
    trailers["grpc-status-details-bin"] = reply.details.toString("base64").replace(/=+$/, "");
  }
  stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
  stream.on("wantTrailers", () => stream.sendTrailers(trailers));
  for (const message of reply.messages ?? []) {
    stream.write(frame(message));
  }
  stream.end();
}

/** Starts a scripted server; `tls` serves HTTPS with the given key and certificate. */
export async function startScripted(
  script: Script,
  tls?: { key: string; cert: string },
): Promise<ScriptedServer> {
  const calls: ReceivedCall[] = [];
  const attempts = new Map<string, number>();
  const server: Http2Server | Http2SecureServer =
    tls === undefined ? createServer() : createSecureServer({ key: tls.key, cert: tls.cert });
  server.on("stream", (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => {
      const method = String(headers[":path"] ?? "").split("/").pop() ?? "";
      const call = { method, headers, request: unframe(Buffer.concat(chunks))[0] ?? Buffer.alloc(0) };
      calls.push(call);
      const attempt = (attempts.get(method) ?? 0) + 1;
      attempts.set(method, attempt);
      answer(stream, script(call, attempt));
    });
  });
  const sessions = new Set<{ destroy(): void }>();
  server.on("session", (session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const host = tls === undefined ? `http://127.0.0.1:${port}` : `https://localhost:${port}`;
  return {
    address: host,
    calls,
    close: () =>
      new Promise((done) => {
        server.close(() => done());
        // Closing waits for open HTTP/2 sessions, which clients keep alive: end them.
        for (const session of sessions) {
          session.destroy();
        }
      }),
  };
}
