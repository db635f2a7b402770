/** Entry point: a fragment naming a game opens its table; otherwise the lobby. */
import { h, replace } from "./dom.js";
import { currentTarget, spectatorLink } from "./links.js";
import { openLobby } from "./lobby.js";
import { connect, serverAddress } from "./server.js";
import { openTable } from "./table.js";

async function main(): Promise<void> {
  const root = document.getElementById("app");
  if (root === null) return;
  const name = document.getElementById("server-name");
  if (name !== null) name.textContent = `server ${serverAddress()}`;
  try {
    const client = await connect();
    const target = currentTarget();
    if (target === undefined) {
      await openLobby(root, client);
      return;
    }
    const seats = target.seat === undefined ? [] : [{ handle: client.seat(target.gameId, target.seat.index, target.seat.token), mode: "me" as const }];
    openTable(root, { client, gameId: target.gameId, seats, links: [], spectatorUrl: spectatorLink(target.gameId) });
  } catch (error) {
    replace(root, h("p", { role: "alert" }, `cannot reach the server at ${serverAddress()}: ${error instanceof Error ? error.message : String(error)}`));
  }
}

// A new fragment (another invite link pasted into the same tab) opens that table.
window.addEventListener("hashchange", () => location.reload());
void main();
