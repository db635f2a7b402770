/** Parsing the server address given to `Client.connect`. */
import { Code } from "@connectrpc/connect";

import { InvalidRequest } from "./errors.js";

/**
 * The base URL for `address`: `http://host:port` or `https://host:port` as given, or
 * `host:port` (plain text unless `tls`). With `tls`, an `http://` address is upgraded.
 */
export function baseUrl(address: string, tls: boolean): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(address) ? address : `http://${address}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new InvalidRequest(Code.InvalidArgument, "INVALID_REQUEST", {}, `bad address: ${address}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new InvalidRequest(Code.InvalidArgument, "INVALID_REQUEST", {}, `bad address scheme: ${address}`);
  }
  if (tls && url.protocol === "http:") {
    // The parser drops an explicit `:80` as http's default port; it must survive the switch to
    // https, whose default is 443.
    const port = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(?:\[[^\]]*\]|[^:/?#]*):(\d+)/i.exec(withScheme)?.[1];
    url.protocol = "https:";
    if (port !== undefined) {
      url.port = port;
    }
  }
  return url.toString().replace(/\/$/, "");
}
