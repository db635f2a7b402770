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

/** Options of {@link Client.connect} in Node. */
export interface ConnectOptions extends ClientOptions {
  /** Turns TLS on (also on for an `https://` address); an object gives a CA and server name. */
  tls?: boolean | TlsOptions;
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
      interceptors: options.apiKey === undefined ? [] : [apiKeyInterceptor(options.apiKey)],
    });
    return new Client(transport, { retry: options.retry, address: url });
  }
}
