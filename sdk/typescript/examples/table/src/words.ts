/** Turning protobuf JSON (enums, nested messages) into short readable text. */

/** `CHUNO_CARD_KIND_DRAW_TWO` → `draw two` given the prefix `CHUNO_CARD_KIND_`. */
export function enumWord(value: string, prefix = ""): string {
  const bare = prefix !== "" && value.startsWith(prefix) ? value.slice(prefix.length) : value;
  return bare.toLowerCase().replace(/_/g, " ");
}

/** `playIn` → `play in`. */
export function camelWords(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
}

/** Enum prefixes every game's JSON uses, longest first so that the most specific one wins. */
const PREFIXES = [
  "CARD_CHESS_RANK_",
  "CARD_CHESS_SUIT_",
  "CARD_CHESS_COLOUR_",
  "CARD_CHESS_ACE_CAPTURE_",
  "CHUNO_CARD_KIND_",
  "CHUNO_COLOUR_",
  "CHUNO_SIDE_",
  "CHUNO_ROLE_",
  "CHUNO_DRAW_REASON_",
  "PIGEON_CHESS_PIECE_",
  "PIGEON_CHESS_ROW_SIDE_",
  "PILE_CHESS_PIECE_",
  "PILE_CHESS_PILE_SOURCE_",
  "PILE_CHESS_OUT_REASON_",
  "RAINDROP_CHESS_CARD_",
  "RAINDROP_CHESS_ROLE_",
  "RAINDROP_CHESS_SIDE_",
  "RAINDROP_CHESS_JOKER_EFFECT_",
  "META_EVENT_KIND_",
  "END_REASON_",
];

/** Any enum value of the API as words. */
export function anyEnumWord(value: string): string {
  const prefix = PREFIXES.find((candidate) => value.startsWith(candidate));
  return enumWord(value, prefix ?? "");
}

/**
 * A compact description of a JSON value: enums as words, a card by its notation when it has
 * one, a message as "field value" pairs.
 */
export function describeJson(value: unknown): string {
  if (typeof value === "string") return /^[A-Z][A-Z0-9_]+$/.test(value) ? anyEnumWord(value) : value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map(describeJson).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    if (typeof record["notation"] === "string") return record["notation"];
    if ("rank" in record && "suit" in record) return `${describeJson(record["rank"])} of ${describeJson(record["suit"])}`;
    return Object.entries(record)
      .filter(([name]) => name !== "seat")
      .map(([name, inner]) =>
        inner !== null && typeof inner === "object" && !Array.isArray(inner) && Object.keys(inner).length === 0
          ? camelWords(name)
          : `${camelWords(name)} ${describeJson(inner)}`,
      )
      .join(", ");
  }
  return "";
}
