/**
 * `@deckmate/client`: the Deckmate client for Node.js, gRPC over HTTP/2.
 *
 * ```ts
 * import { Client, ActOptions } from "@deckmate/client";
 * const client = await Client.connect("http://127.0.0.1:50051");
 * ```
 */
import { createGrpcTransport } from "@connectrpc/connect-node";

import { baseUrl } from "./address.js";
import { Client as CoreClient, apiKeyInterceptor, type ClientOptions } from "./client.js";

export * from "./core.js";

/** TLS settings of a Node connection; the system roots are trusted unless `caPem` is given. */
export interface TlsOptions {
  /** CA certificates (PEM) to trust instead of the system roots. */
  caPem?: string;
  /** The name to verify the server certificate against, instead of the address's host. */
  serverName?: string;
}

/**
 * HTTP/2 pings on a connection while calls are open on it. A connection can die without either
 * end closing it (a NAT or load balancer forgetting it, a network switch): calls on it then wait
 * forever, and a watch would never hear of another version. With calls open, the client pings
 * every `intervalMs` and closes the connection when a ping is not answered within `timeoutMs`;
 * the calls then fail with UNAVAILABLE, and a watch reconnects and resumes. No pings are sent on
 * an idle connection.
 */
export interface Keepalive {
  /** How long after the last data received a ping is sent (default 20 s). */
  intervalMs?: number;
  /** How long a ping may go unanswered before the connection is closed (default 10 s). */
  timeoutMs?: number;
}

/** Options of {@link Client.connect} in Node. */
export interface ConnectOptions extends ClientOptions {
  /** Turns TLS on (also on for an `https://` address); an object gives a CA and server name. */
  tls?: boolean | TlsOptions;
  /** The pings that find a connection that died silently. */
  keepalive?: Keepalive;
}

/** A connection to a Deckmate server over gRPC (HTTP/2). */
export class Client extends CoreClient {
  /**
   * A client for the server at `address` (`http://host:port`, `https://host:port` or
   * `host:port`). The connection opens with the first call.
   */
  static async connect(address: string, options: ConnectOptions = {}): Promise<Client> {
    const tls = options.tls;
    const url = baseUrl(address, tls !== undefined && tls !== false);
    const nodeOptions: { ca?: string; servername?: string } = {};
    if (typeof tls === "object") {
      if (tls.caPem !== undefined) {
        nodeOptions.ca = tls.caPem;
      }
      if (tls.serverName !== undefined) {
        nodeOptions.servername = tls.serverName;
      }
    }
    const transport = createGrpcTransport({
      baseUrl: url,
      nodeOptions,
      pingIntervalMs: options.keepalive?.intervalMs ?? 20_000,
      pingTimeoutMs: options.keepalive?.timeoutMs ?? 10_000,
      interceptors: options.apiKey === undefined ? [] : [apiKeyInterceptor(options.apiKey)],
    });
    return new Client(transport, { retry: options.retry, timeoutMs: options.timeoutMs, address: url });
  }
}
