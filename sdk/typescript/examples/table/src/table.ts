/** The table page: one game, drawn from the watched observation, played by clicks or the list. */
import {
  ActOptions,
  DeckmateError,
  EndReason,
  GameOver,
  GameStatus,
  MetaActionKind,
  NotYourTurn,
  StaleVersion,
  ObservationSchema,
  toJson,
  type Action,
  type Client,
  type Event,
  type ObserveResponse,
  type SeatClock,
  type SeatHandle,
} from "@deckmate/client/web";

import { click, firstKeys, type Choice, type Step } from "./choices.js";
import { h, replace } from "./dom.js";
import { eventLine } from "./events.js";
import { follow, type Viewer } from "./follow.js";
import { GAMES } from "./games/index.js";
import { describeJson, enumWord } from "./words.js";

/** A choice the player made, and the version of the view it was made on. */
interface Chosen {
  choice: Choice;
  version: bigint;
}

/** A seat this page holds: shown and played by the person ("me") or played at random. */
export interface LocalSeat {
  /** The seat's handle. */
  readonly handle: SeatHandle;
  /** Who plays it. */
  readonly mode: "me" | "random";
}

/** Everything the table page needs. */
export interface TableSetup {
  /** The connected client. */
  readonly client: Client;
  /** The game. */
  readonly gameId: string;
  /** Seats held by this page. */
  readonly seats: readonly LocalSeat[];
  /** Invite links to show (the creator's page). */
  readonly links: readonly { readonly seat: number; readonly url: string }[];
  /** The spectator link. */
  readonly spectatorUrl: string;
}

const META_PATHS: Record<number, [string, string]> = {
  [MetaActionKind.RESIGN]: ["resign", "resign"],
  [MetaActionKind.OFFER_DRAW]: ["offer_draw", "offer a draw"],
  [MetaActionKind.ACCEPT_DRAW]: ["accept_draw", "accept the draw"],
  [MetaActionKind.DECLINE_DRAW]: ["decline_draw", "decline the draw"],
};

/** Every action the viewer may take now, with paths and labels. */
function choicesOf(view: ObserveResponse): Choice[] {
  const ui = GAMES[view.variant];
  const game: Choice[] = ui === undefined ? [] : view.legalActions.map((action) => ({ action, ...ui.describe(action, view) }));
  const meta: Choice[] = view.metaActions.map((meta) => {
    const [kind, label] = META_PATHS[meta.kind] ?? ["meta", "meta action"];
    const action: Action = { $typeName: "deckmate.v1.Action", kind: { case: "meta", value: meta } };
    return { action, kind, path: [`btn:${kind}`], label };
  });
  return [...game, ...meta];
}

/** The result line of a finished game. */
function resultText(view: ObserveResponse): string {
  const outcome = view.outcome;
  if (outcome === undefined) return "finished";
  const who = outcome.draw ? "draw" : `won by seat ${outcome.winners.join(" and ")}`;
  const scores = outcome.scores.length === 0 ? "" : ` · scores ${outcome.scores.join(" – ")}`;
  return `Game over: ${who} · reason: ${enumWord(EndReason[outcome.reason])} · ${outcome.description}${scores}`;
}

/** A clock's time left now: counted down to its deadline while it runs. */
function timeLeft(clock: SeatClock, now: number): number {
  if (!clock.running || clock.deadline === undefined) return clock.remainingMs;
  const deadline = Number(clock.deadline.seconds) * 1000 + clock.deadline.nanos / 1_000_000;
  return Math.max(0, deadline - now);
}

/** `m:ss`, or `h:mm:ss` from an hour; tenths under ten seconds. */
function clockText(ms: number): string {
  if (ms < 10_000) return `0:0${(Math.floor(ms / 100) / 10).toFixed(1)}`;
  const total = Math.ceil(ms / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

/** The game's effective options, which every observation carries, as one line. */
function optionsText(view: ObserveResponse): string {
  if (view.observation === undefined) return "";
  const json = toJson(ObservationSchema, view.observation) as Record<string, { config?: unknown } | undefined>;
  const config = Object.values(json)[0]?.config;
  return config === undefined ? "" : describeJson(config);
}

/** Opens the table in `root` and keeps it live. */
export function openTable(root: HTMLElement, setup: TableSetup): void {
  const mine = setup.seats.filter((seat) => seat.mode === "me");
  let shown: SeatHandle | undefined = mine[0]?.handle;
  let viewer: Viewer = shown ?? setup.client.spectate(setup.gameId);
  let generation = 0;
  let current: ObserveResponse | undefined;
  let choices: Choice[] = [];
  let selected: readonly string[] = [];
  let targets: ReadonlySet<string> = new Set();
  // Indexes into `choices` (rebuilt on every redraw of the same version, in the same order).
  let pending: readonly number[] = [];
  let busy = false;
  /** The choice made while an earlier one was on its way, sent after it. */
  let waiting: Chosen | undefined;
  const events = new Map<bigint, Event[]>();

  const notice = h("p", { id: "notice", role: "status" });
  const status = h("div", { class: "status-line" });
  // Turn clocks, when the game has them (docs/CLOCKS.md): redrawn with each version, ticked
  // between versions.
  const clocks = h("div", { id: "clocks", class: "clocks", "aria-label": "clocks" });
  const result = h("p", { id: "result", role: "status" });
  const board = h("div", { class: "board-area" });
  const options = h("p", { class: "options muted" });
  const controls = h("div", { class: "controls", role: "group", "aria-label": "choices" });
  const actions = h("ol", { id: "actions", class: "action-list" });
  // Focusable so that keyboard users can scroll it.
  const log = h("ol", { id: "log", class: "log", reversed: true, tabindex: 0, "aria-label": "event log" });
  const table = h(
    "section",
    { id: "table", "aria-label": "table" },
    status,
    clocks,
    result,
    notice,
    h("div", { class: "layout" }, h("div", { class: "play" }, board, controls, options), h(
      "aside",
      { class: "side" },
      h("section", { class: "panel" }, h("h2", {}, "Legal actions"), actions),
      setup.spectatorUrl === "" ? null : linksPanel(setup),
      h("section", { class: "panel" }, h("h2", {}, "Event log"), log),
    )),
  );
  replace(root, table);

  if (mine.length > 1) {
    const picker = h(
      "select",
      { id: "seat-picker", "aria-label": "show seat" },
      mine.map((seat) => h("option", { value: seat.handle.seat }, `seat ${seat.handle.seat}`)),
    );
    picker.addEventListener("change", () => {
      shown = mine.find((seat) => String(seat.handle.seat) === picker.value)?.handle;
      if (shown !== undefined) start(shown);
    });
    status.before(h("label", { class: "seat-pick" }, "Show ", picker));
  }

  function say(text: string): void {
    notice.textContent = text;
  }

  function addEvents(list: readonly Event[]): void {
    for (const event of list) {
      const known = events.get(event.version) ?? [];
      if (known.some((seen) => seen.kind.case === event.kind.case && eventLine(seen) === eventLine(event))) continue;
      events.set(event.version, [...known, event]);
    }
  }

  function drawLog(): void {
    const versions = [...events.keys()].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
    replace(log, ...versions.flatMap((version) => (events.get(version) ?? []).slice().reverse().map((event) => h("li", {}, eventLine(event)))));
  }

  function show(view: ObserveResponse): void {
    if (current !== undefined && view.version < current.version) return;
    const fresh = current === undefined || view.version !== current.version;
    current = view;
    addEvents(view.recentEvents);
    if (fresh) {
      selected = [];
      targets = new Set();
      pending = [];
    }
    render();
  }

  /** Where the keyboard focus is, as something that survives a redraw. */
  function focusMark(): string | undefined {
    const active = document.activeElement;
    if (!(active instanceof HTMLElement) || !table.contains(active)) return undefined;
    if (active.dataset["index"] !== undefined) return `[data-index="${active.dataset["index"]}"]`;
    if (active.dataset["key"] !== undefined) return `[data-key="${CSS.escape(active.dataset["key"])}"]`;
    if (active.id !== "") return `#${CSS.escape(active.id)}`;
    return undefined;
  }

  function render(): void {
    const view = current;
    if (view === undefined) return;
    const focused = focusMark();
    const ui = GAMES[view.variant];
    choices = view.status === GameStatus.IN_PROGRESS ? choicesOf(view) : [];
    table.dataset["version"] = String(view.version);
    table.dataset["status"] = view.status === GameStatus.FINISHED ? "finished" : "in-progress";
    table.dataset["variant"] = view.variant;
    table.dataset["seat"] = view.seat === undefined ? "spectator" : String(view.seat);
    table.dataset["toAct"] = view.toAct.join(",");
    const role = view.seat === undefined ? "spectating" : `you are seat ${view.seat}`;
    const turn = view.status === GameStatus.FINISHED ? "finished" : `to act: seat ${view.toAct.join(", ") || "none"}`;
    const draw = view.drawOfferedBy === undefined ? "" : ` · draw offered by seat ${view.drawOfferedBy}`;
    status.textContent = `${view.variant.replace(/_/g, " ")} · game ${view.gameId} · version ${view.version} · ${role} · ${turn}${draw}`;
    result.textContent = view.status === GameStatus.FINISHED ? resultText(view) : "";
    drawClocks();
    options.textContent = `Options: ${optionsText(view)}`;
    replace(board, ui === undefined ? h("p", {}, `this table cannot draw ${view.variant}`) : ui.draw(view));
    const buttons = [...new Map(choices.filter((choice) => choice.path[0]?.startsWith("btn:") === true).map((choice) => [choice.path[0] ?? "", choice])).values()];
    replace(
      controls,
      ...buttons.map((choice) => h("button", { type: "button", class: "control", "data-key": choice.path[0] }, choice.path.length === 1 ? choice.label : (choice.path[0] ?? "").slice(4).replace(/_/g, " "))),
      ...pending.map((index) => h("button", { type: "button", class: "choice", "data-choice": index }, choices[index]?.label ?? "")),
      pending.length === 0 && selected.length === 0 ? h("span") : h("button", { type: "button", class: "cancel", "data-cancel": "" }, "cancel"),
    );
    replace(
      actions,
      ...choices.map((choice, index) =>
        h("li", {}, h("button", { type: "button", class: "action", "data-index": index, "data-kind": choice.kind, "data-path": choice.path.join("|") }, choice.label)),
      ),
    );
    if (choices.length === 0) actions.append(h("li", { class: "muted" }, view.status === GameStatus.FINISHED ? "the game is over" : "nothing to do now"));
    mark();
    drawLog();
    // A new version must not throw the keyboard user back to the top of the page.
    if (focused !== undefined) table.querySelector<HTMLElement>(focused)?.focus();
  }

  /** Each seat's clock as the current view gives it, counted down for the running ones. */
  function drawClocks(): void {
    const view = current;
    const list = view?.clocks ?? [];
    clocks.hidden = list.length === 0;
    const now = Date.now();
    replace(
      clocks,
      ...list.map((clock) =>
        h(
          "span",
          { class: clock.running ? "clock running" : "clock", id: `clock-${clock.seat}`, "data-seat": clock.seat, "data-running": clock.running ? "true" : "false", role: "timer" },
          `seat ${clock.seat} ${clockText(timeLeft(clock, now))}`,
        ),
      ),
    );
  }

  const ticker = setInterval(() => {
    if (!table.isConnected) {
      clearInterval(ticker);
      return;
    }
    if (current?.clocks.some((clock) => clock.running) === true) drawClocks();
  }, 200);

  /** Marks what may be clicked now: first keys, the selection and its targets. */
  function mark(): void {
    const starts = firstKeys(choices);
    for (const element of board.querySelectorAll<HTMLElement>("[data-key]")) {
      const key = element.dataset["key"] ?? "";
      const isSelected = selected.includes(key);
      const isTarget = targets.has(key);
      const actable = isTarget || (selected.length === 0 ? starts.has(key) : starts.has(key) && !isSelected);
      element.classList.toggle("selected", isSelected);
      element.classList.toggle("target", isTarget);
      element.classList.toggle("actable", actable);
      if (actable || isSelected) {
        element.tabIndex = 0;
        element.removeAttribute("aria-disabled");
      } else {
        element.removeAttribute("tabindex");
        if (element.getAttribute("role") === "button") element.setAttribute("aria-disabled", "true");
      }
      if (isSelected) element.setAttribute("aria-pressed", "true");
      else if (element.getAttribute("role") === "button" && element.tagName !== "BUTTON") element.removeAttribute("aria-pressed");
    }
  }

  /**
   * Sends `choice`, made on the view shown now. A choice made while an earlier one is on its way
   * is sent once that one is answered, not dropped: the game's stream can show the next version
   * (and its actions) before the answer to the action that made it comes back. It is sent with
   * the version it was chosen at, so that if the game moved on meanwhile the server refuses it
   * and the table redraws.
   */
  async function act(choice: Choice): Promise<void> {
    const view = current;
    if (view === undefined || shown === undefined) return;
    if (busy) {
      waiting = { choice, version: view.version };
      return;
    }
    busy = true;
    try {
      let next: Chosen | undefined = { choice, version: view.version };
      while (next !== undefined) {
        await send(next);
        next = waiting;
        waiting = undefined;
      }
    } finally {
      busy = false;
    }
  }

  /** Sends one choice; a refusal because the game moved on redraws the game as it is now. */
  async function send(chosen: Chosen): Promise<void> {
    if (shown === undefined) return;
    say(`sending: ${chosen.choice.label}`);
    try {
      const response = await shown.actWith(chosen.choice.action, ActOptions.expecting(chosen.version));
      say("");
      if (response.observation !== undefined) show(response.observation);
    } catch (error) {
      if (error instanceof StaleVersion || error instanceof NotYourTurn || error instanceof GameOver) {
        // Someone else moved first: draw the game as it is now instead of an error.
        say("");
        show(await shown.observe());
      } else {
        say(`could not act: ${error instanceof DeckmateError ? error.message : String(error)}`);
      }
    }
  }

  function apply(step: Step): void {
    if (step.type === "act") {
      void act(step.choice);
      return;
    }
    if (step.type === "select") {
      selected = step.selected;
      targets = step.targets;
      pending = step.complete.map((choice) => choices.indexOf(choice));
    } else {
      selected = [];
      targets = new Set();
      pending = [];
    }
    render();
    // Keep the keyboard where it was: on the first target or choice.
    const next = board.querySelector<HTMLElement>(".target") ?? controls.querySelector<HTMLElement>(".choice");
    next?.focus();
  }

  function press(target: HTMLElement): void {
    const listed = target.closest<HTMLElement>("[data-index]");
    if (listed !== null && actions.contains(listed)) {
      const choice = choices[Number(listed.dataset["index"])];
      if (choice !== undefined) void act(choice);
      return;
    }
    const chosen = target.closest<HTMLElement>("[data-choice]");
    if (chosen !== null) {
      const choice = choices[Number(chosen.dataset["choice"])];
      if (choice !== undefined) void act(choice);
      return;
    }
    if (target.closest("[data-cancel]") !== null) {
      apply({ type: "none" });
      return;
    }
    const keyed = target.closest<HTMLElement>("[data-key],[data-for]");
    if (keyed === null || !table.contains(keyed)) return;
    const key = keyed.dataset["key"] ?? keyed.dataset["for"] ?? "";
    apply(click(choices, selected, key));
  }

  table.addEventListener("click", (event) => {
    if (event.target instanceof HTMLElement) press(event.target);
  });
  table.addEventListener("keydown", (event) => {
    const target = event.target;
    if (!(target instanceof HTMLElement) || target.tagName === "BUTTON" || target.tagName === "SELECT") return;
    if ((event.key === "Enter" || event.key === " ") && target.dataset["key"] !== undefined) {
      event.preventDefault();
      press(target);
    }
  });

  function start(next: Viewer): void {
    generation += 1;
    const mineNow = generation;
    viewer = next;
    current = undefined;
    events.clear();
    void viewer
      .history()
      .then((history) => {
        if (mineNow !== generation) return;
        addEvents(history.events);
        drawLog();
      })
      .catch(() => undefined);
    follow(viewer, {
      onView: (view) => {
        if (mineNow === generation) show(view);
      },
      onDrop: (_error, version) => say(`connection lost; resuming from version ${version}`),
      stopped: () => mineNow !== generation,
    })
      .then(() => say(""))
      .catch((error: unknown) => say(`cannot show the game: ${error instanceof Error ? error.message : String(error)}`));
  }

  start(viewer);
  for (const seat of setup.seats.filter((local) => local.mode === "random")) playAtRandom(seat.handle);
}

/** Plays `handle` to the end with uniformly random legal actions. */
function playAtRandom(handle: SeatHandle): void {
  let actedAt: bigint | undefined;
  void follow(handle, {
    onView: (view) => {
      if (view.status !== GameStatus.IN_PROGRESS || view.legalActions.length === 0 || actedAt === view.version) return;
      actedAt = view.version;
      const action = view.legalActions[Math.floor(Math.random() * view.legalActions.length)];
      if (action === undefined) return;
      // A short pause lets a person follow the random seat's play.
      setTimeout(() => {
        handle.actWith(action, ActOptions.expecting(view.version)).catch((error: unknown) => {
          if (!(error instanceof StaleVersion || error instanceof NotYourTurn || error instanceof GameOver)) console.warn("random seat", error);
        });
      }, 60);
    },
  });
}

/** The invite links of the seats the creator linked, and the spectator link. */
function linksPanel(setup: TableSetup): HTMLElement {
  const item = (label: string, url: string, id: string) =>
    h(
      "li",
      {},
      h("span", {}, `${label}: `),
      h("a", { href: url, id, class: "invite", target: "_blank", rel: "noopener noreferrer" }, "open"),
      " ",
      h("input", { type: "text", readonly: true, value: url, "aria-label": `${label} link`, class: "link-text" }),
    );
  return h(
    "section",
    { class: "panel", id: "links" },
    h("h2", {}, setup.links.length === 0 ? "Spectator link" : "Invite links"),
    setup.links.length === 0 ? null : h("p", { class: "muted" }, "Each seat link holds that seat's secret token: send it only to that player."),
    h(
      "ul",
      {},
      setup.links.map((link) => item(`seat ${link.seat}`, link.url, `invite-${link.seat}`)),
      item("spectator", setup.spectatorUrl, "spectator-link"),
    ),
  );
}
