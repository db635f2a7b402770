/** The lobby: pick a game, edit its whole config, choose who plays each seat, create it. */
import {
  BotLevel,
  GameConfigSchema,
  InvalidRequest,
  SpectatorPolicy,
  TimeoutPolicy,
  create,
  type Client,
  type GetServerInfoResponse,
  type Variant,
} from "@deckmate/client/web";

import { h, replace } from "./dom.js";
import { seatLink, spectatorLink } from "./links.js";
import { RANGES } from "./ranges.js";
import { apiKey, connect, setApiKey } from "./server.js";
import { openTable, type LocalSeat } from "./table.js";

type SeatMode = "me" | "link" | "random" | "bot-random" | "bot-greedy" | "bot-search";

/** The server bot level of a seat mode, for the modes the server plays. */
const BOT_MODES: Partial<Record<SeatMode, BotLevel>> = {
  "bot-random": BotLevel.RANDOM,
  "bot-greedy": BotLevel.GREEDY,
  "bot-search": BotLevel.SEARCH,
};

/** How each seat mode is offered. */
const MODE_LABELS: Record<SeatMode, string> = {
  me: "me (this page)",
  link: "invite link",
  random: "random (played by this page)",
  "bot-random": "server bot: random",
  "bot-greedy": "server bot: greedy",
  "bot-search": "server bot: search (strongest)",
};

/** The turn clock the lobby's clock fields ask for, or undefined for none (docs/CLOCKS.md). */
function clockOf(form: HTMLFormElement): { kind: { case: "fischer"; value: { baseMs: number; incrementMs: number } } | { case: "perAction"; value: { limitMs: number } }; onTimeout: TimeoutPolicy } | undefined {
  const kind = form.querySelector<HTMLSelectElement>("#clock")?.value ?? "none";
  const seconds = (id: string) => Math.round(Number(form.querySelector<HTMLInputElement>(`#${id}`)?.value ?? "0") * 1000);
  const onTimeout = Number(form.querySelector<HTMLSelectElement>("#clock-timeout")?.value ?? TimeoutPolicy.FORFEIT) as TimeoutPolicy;
  if (kind === "fischer") return { kind: { case: "fischer", value: { baseMs: seconds("clock-base"), incrementMs: seconds("clock-increment") } }, onTimeout };
  if (kind === "per-action") return { kind: { case: "perAction", value: { limitMs: seconds("clock-limit") } }, onTimeout };
  return undefined;
}

/** protobuf-es' reflection types, as the SDK's schemas carry them. */
type DescField = (typeof GameConfigSchema.fields)[number];
type DescMessage = NonNullable<DescField["message"]>;

/** protobuf-es' `ScalarType.BOOL`. */
const BOOL = 8;

/** The per-game config message of a variant's default config. */
function configOf(variant: Variant): { field: DescField; desc: DescMessage; value: Record<string, unknown> } | undefined {
  const game = variant.defaultConfig?.game;
  if (game === undefined || game.case === undefined) return undefined;
  const field = GameConfigSchema.fields.find((candidate) => candidate.localName === game.case);
  if (field === undefined || field.message === undefined) return undefined;
  return { field, desc: field.message, value: game.value as unknown as Record<string, unknown> };
}

/** `max rounds (1–1000)`: the option's name and, when docs/rules gives one, its range. */
function optionLabel(variant: string, name: string): string {
  const range = RANGES[variant]?.[name];
  return `${name.replace(/_/g, " ")}${range === undefined ? "" : ` (${range[0]}–${range[1]})`}`;
}

/** The input of one config option, named `cfg-<proto name>`. */
function optionInput(variant: string, field: DescField, value: unknown): HTMLElement {
  const id = `cfg-${field.name}`;
  if (field.fieldKind === "enum") {
    return h(
      "select",
      { id, name: field.name },
      field.enum.values
        .filter((option) => option.number !== 0)
        .map((option) => h("option", { value: option.number, selected: option.number === value }, option.localName.toLowerCase().replace(/_/g, " "))),
    );
  }
  if (field.fieldKind === "scalar" && field.scalar === BOOL) {
    return h("input", { id, name: field.name, type: "checkbox", checked: value === true });
  }
  if (field.fieldKind === "list") {
    // Pile Chess teams: seats of each team, teams separated by "/", such as "0,2 / 1,3".
    const teams = (value as { seats: number[] }[] | undefined) ?? [];
    return h("input", { id, name: field.name, type: "text", value: teams.map((team) => team.seats.join(",")).join(" / "), placeholder: "free for all, or 0,2 / 1,3", inputmode: "numeric" });
  }
  const range = RANGES[variant]?.[field.name];
  return h("input", { id, name: field.name, type: "number", value: String(value ?? ""), min: range?.[0], max: range?.[1], step: 1, inputmode: "numeric" });
}

/** Reads one option back from its input (undefined: leave it to the server's default). */
function readOption(field: DescField, input: HTMLInputElement | HTMLSelectElement): unknown {
  if (field.fieldKind === "enum") return Number(input.value);
  if (input instanceof HTMLInputElement && input.type === "checkbox") return input.checked;
  if (field.fieldKind === "list") {
    const text = input.value.trim();
    if (text === "") return [];
    return text.split("/").map((team) => ({ seats: team.split(",").map((seat) => Number(seat.trim())) }));
  }
  return input.value.trim() === "" ? undefined : Number(input.value);
}

/** Draws the lobby into `root`. */
export async function openLobby(root: HTMLElement, client: Client): Promise<void> {
  const [variants, info] = await Promise.all([client.listVariants(), client.serverInfo().catch(() => undefined)]);
  const form = h("form", { id: "lobby", class: "lobby", novalidate: true, "aria-label": "new game" });
  const picker = h("select", { id: "variant", name: "variant" }, variants.map((variant) => h("option", { value: variant.id }, variant.name)));
  const body = h("div");
  const errors = h("p", { id: "lobby-error", role: "alert" });
  replace(
    form,
    h("h1", {}, "New game"),
    h("label", { for: "variant" }, "Game "),
    picker,
    body,
    errors,
    h("button", { type: "submit", id: "create" }, "Create game"),
  );
  replace(root, form);

  const draw = () => {
    const variant = variants.find((candidate) => candidate.id === picker.value) ?? variants[0];
    if (variant !== undefined) replace(body, variantForm(variant, info));
    errors.textContent = "";
  };
  picker.addEventListener("change", draw);
  draw();

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const variant = variants.find((candidate) => candidate.id === picker.value);
    if (variant !== undefined) void submit(variant);
  });

  async function submit(variant: Variant): Promise<void> {
    errors.textContent = "";
    for (const old of form.querySelectorAll(".violation")) old.remove();
    for (const old of form.querySelectorAll("[aria-invalid]")) old.removeAttribute("aria-invalid");
    const config = configOf(variant);
    if (config === undefined) return;
    const init: Record<string, unknown> = {};
    for (const field of config.desc.fields) {
      const input = form.querySelector<HTMLInputElement | HTMLSelectElement>(`#cfg-${field.name}`);
      if (input === null) continue;
      const value = readOption(field, input);
      if (value !== undefined) init[field.localName] = value;
    }
    const seats = Number(form.querySelector<HTMLInputElement>("#seats")?.value ?? variant.minSeats);
    const modes: SeatMode[] = Array.from({ length: seats }, (_, seat) => (form.querySelector<HTMLSelectElement>(`#seat-${seat}`)?.value ?? "link") as SeatMode);
    const seedText = form.querySelector<HTMLInputElement>("#seed")?.value.trim() ?? "";
    const policy = Number(form.querySelector<HTMLSelectElement>("#spectators")?.value ?? SpectatorPolicy.ALLOWED) as SpectatorPolicy;
    const keyInput = form.querySelector<HTMLInputElement>("#api-key");
    try {
      // A key typed now must be sent from now on: a fresh client carries it.
      let active = client;
      if (keyInput !== null) {
        setApiKey(keyInput.value.trim());
        active = await connect();
      }
      const value = create(config.desc, init as never);
      const gameConfig = create(GameConfigSchema, { game: { case: config.field.localName, value } as never });
      const bots = modes.flatMap((mode, seat) => {
        const bot = BOT_MODES[mode];
        return bot === undefined ? [] : [{ seat, bot }];
      });
      const clock = clockOf(form);
      const game = await active.createGame(gameConfig, seats, {
        ...(seedText === "" ? {} : { seed: BigInt(seedText) }),
        spectatorPolicy: policy,
        bots,
        ...(clock === undefined ? {} : { clock }),
      });
      const local: LocalSeat[] = [];
      const links: { seat: number; url: string }[] = [];
      modes.forEach((mode, seat) => {
        // The server plays its bots' seats: this page holds no handle for them.
        if (mode !== "me" && mode !== "link" && mode !== "random") return;
        const handle = game.seat(seat);
        if (mode === "link") links.push({ seat, url: seatLink(game.id, seat, handle.token) });
        else local.push({ handle, mode });
      });
      const own = local.filter((seat) => seat.mode === "me");
      const only = own[0];
      // The address bar now names this table: reloading it comes back to the same seat.
      history.replaceState(null, "", own.length === 1 && only !== undefined ? seatLink(game.id, only.handle.seat, only.handle.token) : spectatorLink(game.id));
      openTable(root, { client: active, gameId: game.id, seats: local, links, spectatorUrl: spectatorLink(game.id) });
    } catch (error) {
      showError(error);
    }
  }

  function showError(error: unknown): void {
    if (error instanceof InvalidRequest && error.fieldViolations.length > 0) {
      for (const violation of error.fieldViolations) {
        const name = violation.field.split(".").pop()?.replace(/\[\d+\]$/, "") ?? "";
        const input = form.querySelector<HTMLElement>(`#cfg-${name}`) ?? form.querySelector<HTMLElement>(`#${name === "seats" ? "seats" : "seed"}`);
        const message = h("span", { class: "violation", id: `violation-${name}`, role: "alert" }, violation.description);
        if (input !== null) {
          input.setAttribute("aria-invalid", "true");
          input.setAttribute("aria-describedby", `violation-${name}`);
          input.after(message);
        } else {
          errors.append(h("span", { class: "violation" }, `${violation.field}: ${violation.description}`));
        }
      }
      return;
    }
    errors.textContent = `could not create the game: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** The fields of one variant: seats, their players, the config options, seed and spectators. */
function variantForm(variant: Variant, info: GetServerInfoResponse | undefined): HTMLElement {
  const config = configOf(variant);
  const seatsInput = h("input", { id: "seats", name: "seats", type: "number", min: variant.minSeats, max: variant.maxSeats, value: variant.minSeats, step: 1 });
  const seatRows = h("div", { class: "seat-modes" });
  // Server bots only where the server plays them.
  const modes: SeatMode[] = info?.features?.bots === true ? ["me", "link", "random", "bot-random", "bot-greedy", "bot-search"] : ["me", "link", "random"];
  const drawSeats = () => {
    const count = Math.max(variant.minSeats, Math.min(variant.maxSeats, Number(seatsInput.value) || variant.minSeats));
    const before = [...seatRows.querySelectorAll<HTMLSelectElement>("select")].map((select) => select.value);
    replace(
      seatRows,
      ...Array.from({ length: count }, (_, seat) =>
        h(
          "div",
          { class: "field" },
          h("label", { for: `seat-${seat}` }, `Seat ${seat}`),
          h(
            "select",
            { id: `seat-${seat}` },
            modes.map((mode) => h("option", { value: mode, selected: (before[seat] ?? (seat === 0 ? "me" : "random")) === mode }, MODE_LABELS[mode])),
          ),
        ),
      ),
    );
  };
  seatsInput.addEventListener("input", drawSeats);
  drawSeats();
  return h(
    "div",
    {},
    h("p", { class: "summary" }, variant.summary),
    h("div", { class: "field" }, h("label", { for: "seats" }, `Seats (${variant.minSeats}–${variant.maxSeats})`), seatsInput),
    seatRows,
    h(
      "fieldset",
      {},
      h("legend", {}, `${variant.name} options (defaults from the server)`),
      config === undefined
        ? h("p", {}, "no options")
        : config.desc.fields.map((field) =>
            h(
              "div",
              { class: "field" },
              h("label", { for: `cfg-${field.name}` }, optionLabel(variant.id, field.name)),
              optionInput(variant.id, field, config.value[field.localName]),
            ),
          ),
    ),
    info?.features?.clientSeeds === true
      ? h("div", { class: "field" }, h("label", { for: "seed" }, "Seed (this server accepts client seeds)"), h("input", { id: "seed", type: "text", inputmode: "numeric", pattern: "[0-9]*" }))
      : null,
    info?.features?.clocks === true ? clockFields() : null,
    h(
      "div",
      { class: "field" },
      h("label", { for: "spectators" }, "Spectators"),
      h("select", { id: "spectators" }, h("option", { value: SpectatorPolicy.ALLOWED }, "allowed"), h("option", { value: SpectatorPolicy.DENIED }, "denied")),
    ),
    info?.features?.apiKeys === true
      ? h(
          "div",
          { class: "field" },
          h("label", { for: "api-key" }, "API key (kept in this tab's sessionStorage; development use)"),
          h("input", { id: "api-key", type: "password", autocomplete: "off", value: apiKey() ?? "" }),
        )
      : null,
  );
}

/** The turn clock fields: none, Fischer (minutes plus seconds per move) or a limit per action. */
function clockFields(): HTMLElement {
  const kind = h(
    "select",
    { id: "clock" },
    h("option", { value: "none" }, "none"),
    h("option", { value: "fischer" }, "Fischer: base time plus increment"),
    h("option", { value: "per-action" }, "a limit per action"),
  );
  const number = (id: string, label: string, value: number, min: number, max: number) =>
    h("div", { class: "field clock-field", "data-clock": id }, h("label", { for: id }, label), h("input", { id, type: "number", value, min, max, step: 1, inputmode: "numeric" }));
  const base = number("clock-base", "Base time, seconds (1–86400)", 300, 1, 86_400);
  const increment = number("clock-increment", "Increment per turn, seconds (0–60)", 2, 0, 60);
  const limit = number("clock-limit", "Time per action, seconds (1–86400)", 30, 1, 86_400);
  const timeout = h(
    "div",
    { class: "field clock-field" },
    h("label", { for: "clock-timeout" }, "When time runs out"),
    h("select", { id: "clock-timeout" }, h("option", { value: TimeoutPolicy.FORFEIT }, "the seat loses on time"), h("option", { value: TimeoutPolicy.BOT_MOVE }, "the server moves for the seat")),
  );
  const shown = () => {
    base.hidden = kind.value !== "fischer";
    increment.hidden = kind.value !== "fischer";
    limit.hidden = kind.value !== "per-action";
    timeout.hidden = kind.value === "none";
  };
  kind.addEventListener("change", shown);
  shown();
  return h("fieldset", { id: "clock-fields" }, h("legend", {}, "Turn clock"), h("div", { class: "field" }, h("label", { for: "clock" }, "Clock"), kind), base, increment, limit, timeout);
}
