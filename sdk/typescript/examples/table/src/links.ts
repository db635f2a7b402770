/**
 * Table links. A seat's token travels only in the URL fragment, which browsers never send to a
 * server; the query keeps just the server address.
 */

/** What a table link opens. */
export interface TableTarget {
  /** The game id. */
  readonly gameId: string;
  /** The seat and its token; absent for a spectator. */
  readonly seat?: { readonly index: number; readonly token: string };
}

/** The page's base URL with its `?server=` query and no fragment. */
function base(): string {
  return `${location.origin}${location.pathname}${location.search}`;
}

/** The invite link of one seat. */
export function seatLink(gameId: string, seat: number, token: string): string {
  const fragment = new URLSearchParams({ game: gameId, seat: String(seat), token });
  return `${base()}#${fragment.toString()}`;
}

/** The spectator link of a game. */
export function spectatorLink(gameId: string): string {
  return `${base()}#${new URLSearchParams({ game: gameId }).toString()}`;
}

/** The table the current fragment names, if any. */
export function currentTarget(): TableTarget | undefined {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const gameId = params.get("game");
  if (gameId === null || gameId === "") return undefined;
  const seat = params.get("seat");
  const token = params.get("token");
  if (seat !== null && token !== null && /^\d+$/.test(seat)) {
    return { gameId, seat: { index: Number(seat), token } };
  }
  return { gameId };
}
