/** Drawing parts every game shares: cards, card backs, stacks, grids, seat panels. */
import { h } from "../dom.js";

/** A face-up card. `id` names the card for tests and styles; `key` makes it clickable. */
export function card(text: string, options: { id: string; key?: string; tone?: string; title?: string }): HTMLElement {
  return h(
    "span",
    {
      class: `card${options.tone === undefined ? "" : ` tone-${options.tone}`}`,
      role: options.key === undefined ? "img" : "button",
      "data-card": options.id,
      "data-key": options.key,
      // The accessible name starts with the visible text, then says it in words.
      "aria-label": options.title === undefined ? text : `${text} ${options.title}`,
      title: options.title ?? text,
    },
    text,
  );
}

/** A face-down card: nothing about its face is in the page. */
export function back(title = "face-down card"): HTMLElement {
  return h("span", { class: "card back", role: "img", "aria-label": title, title });
}

/** A labelled row of cards (a hand, a pile), `empty` shown when there are none. */
export function row(label: string, cards: HTMLElement[], attrs: Record<string, string | undefined> = {}): HTMLElement {
  return h(
    "section",
    { class: "zone", ...attrs },
    h("h3", {}, label),
    h("div", { class: "cards" }, cards.length === 0 ? h("span", { class: "muted" }, "none") : cards),
  );
}

/** A face-down stack with its count, such as a draw deck. */
export function stack(label: string, count: number, key?: string): HTMLElement {
  return h(
    "div",
    { class: "stack", role: key === undefined ? "img" : "button", "data-key": key, "aria-label": `${label}: ${count} cards` },
    h("span", { class: "card back" }),
    h("span", { class: "stack-count" }, `${label} ${count}`),
  );
}

/** One cell of a {@link grid}. */
export interface Cell {
  /** The cell's click key. */
  readonly key: string;
  /** What stands on it. */
  readonly content?: Node | undefined;
  /** Words for screen readers, such as "e2 white pawn". */
  readonly label: string;
  /** Extra classes, such as `dark` or `check`. */
  readonly classes?: string;
}

/** A board: `rows` top to bottom, each a list of cells left to right, with edge labels. */
export function grid(rows: readonly (readonly Cell[])[], name: string): HTMLElement {
  const width = rows[0]?.length ?? 0;
  return h(
    "div",
    { class: "board", role: "group", "aria-label": name, style: `--files:${width}` },
    rows.map((cells) =>
      h(
        "div",
        { class: "board-row" },
        cells.map((cell) =>
          h(
            "div",
            { class: `cell ${cell.classes ?? ""}`, role: "button", "data-key": cell.key, "aria-label": cell.label },
            cell.content ?? null,
          ),
        ),
      ),
    ),
  );
}

/** A seat's panel: name, whether it is to act, and facts such as counts and scores. */
export function seatPanel(seat: number, me: number | undefined, toAct: readonly number[], facts: (Node | string)[], extra: Node[] = []): HTMLElement {
  const name = `Seat ${seat}${seat === me ? " (you)" : ""}`;
  return h(
    "section",
    { class: `seat${toAct.includes(seat) ? " to-act" : ""}`, "data-seat": seat, "data-for": `seat:${seat}`, "aria-label": name },
    h("h3", { role: "button", "data-key": `seat:${seat}` }, name, toAct.includes(seat) ? h("span", { class: "turn-badge" }, " to act") : null),
    h("ul", { class: "facts" }, facts.map((fact) => h("li", {}, fact))),
    extra,
  );
}

/** The viewer's own hand, or the backs of another seat's hidden hand. */
export function hiddenHand(label: string, count: number, seat: number): HTMLElement {
  return row(label, Array.from({ length: count }, () => back()), { "data-zone": "hand", "data-seat": String(seat) });
}
