/**
 * `@deckmate/client/web`: the Deckmate client for browsers (and any runtime with `fetch`),
 * gRPC-Web. It imports nothing from Node.js.
 *
 * ```ts
 * import { Client } from "@deckmate/client/web";
 * const client = await Client.connect("https://deckmate.example.com");
 * ```
 */
import { createGrpcWebTransport } from "@connectrpc/connect-web";

import { baseUrl } from "./address.js";
import { Client as CoreClient, apiKeyInterceptor, type ClientOptions } from "./client.js";

export * from "./core.js";

/** Options of {@link Client.connect} for gRPC-Web; TLS is the browser's (`https://`). */
export type ConnectOptions = ClientOptions;

/** A connection to a Deckmate server over gRPC-Web. */
export class Client extends CoreClient {
  /** A client for the server at `address` (`http://host:port` or `https://host:port`). */
  static async connect(address: string, options: ConnectOptions = {}): Promise<Client> {
    const url = baseUrl(address, false);
    const transport = createGrpcWebTransport({
      baseUrl: url,
      interceptors: options.apiKey === undefined ? [] : [apiKeyInterceptor(options.apiKey)],
    });
    return new Client(transport, { retry: options.retry, timeoutMs: options.timeoutMs, address: url });
  }
}
