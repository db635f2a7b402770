/** Where the table finds the server, and the development API key it may send. */
import { Client } from "@deckmate/client/web";

/** The server used when the page has no `?server=` parameter. */
export const DEFAULT_SERVER = "http://127.0.0.1:50051";

const KEY_STORAGE = "deckmate.apiKey";

/** The server address: `?server=` or the default. */
export function serverAddress(): string {
  const fromQuery = new URLSearchParams(location.search).get("server");
  return fromQuery !== null && fromQuery !== "" ? fromQuery : DEFAULT_SERVER;
}

/**
 * The API key kept in sessionStorage. Development use only: any script on the page can read it,
 * and it lives as long as the tab.
 */
export function apiKey(): string | undefined {
  const key = sessionStorage.getItem(KEY_STORAGE);
  return key === null || key === "" ? undefined : key;
}

/** Stores (or, when empty, forgets) the API key for this tab. */
export function setApiKey(key: string): void {
  if (key === "") sessionStorage.removeItem(KEY_STORAGE);
  else sessionStorage.setItem(KEY_STORAGE, key);
}

/** A client for the configured server with the stored key. */
export function connect(): Promise<Client> {
  const key = apiKey();
  return Client.connect(serverAddress(), key === undefined ? {} : { apiKey: key });
}
