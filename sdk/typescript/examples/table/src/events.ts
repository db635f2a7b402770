/** Event log lines: every event of the API as one readable sentence. */
import { EndReason, MetaEventKind, toJson, EventSchema, type Event } from "@deckmate/client/web";

import { camelWords, describeJson, enumWord } from "./words.js";

/** `v12 · seat 1 · moved: from e2, to e4, role pawn`. */
export function eventLine(event: Event): string {
  const who = event.seat === undefined ? "" : ` · seat ${event.seat}`;
  const head = `v${event.version}${who} · `;
  const kind = event.kind;
  switch (kind.case) {
    case "meta":
      return `${head}${enumWord(MetaEventKind[kind.value.kind])} (seat ${kind.value.seat})`;
    case "gameEnded": {
      const outcome = kind.value.outcome;
      const reason = outcome === undefined ? "" : enumWord(EndReason[outcome.reason]);
      return `${head}game over: ${outcome?.description ?? ""} (${reason})`;
    }
    case undefined:
      return `${head}unknown event`;
    default: {
      // Game events: the oneof case of the game's event message, then its fields.
      const json = toJson(EventSchema, event) as Record<string, unknown>;
      const gameEvent = Object.entries(json).find(([name]) => name !== "version" && name !== "seat")?.[1];
      if (gameEvent === null || typeof gameEvent !== "object") return `${head}event`;
      const [name, fields] = Object.entries(gameEvent as Record<string, unknown>)[0] ?? ["event", {}];
      const details = describeJson(fields);
      return `${head}${camelWords(name)}${details === "" ? "" : `: ${details}`}`;
    }
  }
}
