/** The 8×8 board Chuno and Raindropchess share: squares a1–h8 and chess pieces on them. */
import { h } from "../dom.js";
import { grid, type Cell } from "./parts.js";

/** A piece on a square. */
export interface ChessPiece {
  readonly square: string;
  readonly white: boolean;
  /** `pawn`, `knight`, ... */
  readonly role: string;
}

const GLYPHS: Record<string, [string, string]> = {
  pawn: ["♙", "♟"],
  knight: ["♘", "♞"],
  bishop: ["♗", "♝"],
  rook: ["♖", "♜"],
  queen: ["♕", "♛"],
  king: ["♔", "♚"],
};

/** The glyph of a chess piece. */
export function glyph(role: string, white: boolean): string {
  const pair = GLYPHS[role];
  return pair === undefined ? "?" : pair[white ? 0 : 1];
}

/** A piece's glyph element. */
export function pieceElement(role: string, white: boolean): HTMLElement {
  return h("span", { class: `piece ${white ? "white" : "black"}`, "aria-hidden": "true" }, glyph(role, white));
}

const FILES = ["a", "b", "c", "d", "e", "f", "g", "h"];

/** The board seen from White (`flip` false) or Black; extra classes per square (`check`). */
export function chessBoard(pieces: readonly ChessPiece[], flip: boolean, marks: Record<string, string> = {}): HTMLElement {
  const at = new Map(pieces.map((piece) => [piece.square, piece]));
  const ranks = flip ? [1, 2, 3, 4, 5, 6, 7, 8] : [8, 7, 6, 5, 4, 3, 2, 1];
  const files = flip ? [...FILES].reverse() : FILES;
  const rows: Cell[][] = ranks.map((rank) =>
    files.map((file) => {
      const square = `${file}${rank}`;
      const piece = at.get(square);
      const dark = (FILES.indexOf(file) + rank) % 2 === 1 ? "dark" : "light";
      return {
        key: `sq:${square}`,
        content: piece === undefined ? undefined : pieceElement(piece.role, piece.white),
        label: piece === undefined ? square : `${square} ${piece.white ? "white" : "black"} ${piece.role}`,
        classes: `${dark} ${marks[square] ?? ""}`,
      };
    }),
  );
  return grid(rows, "chess board");
}

/** The click path of a UCI move: from square, to square (a promotion letter is a choice). */
export function uciPath(uci: string): string[] {
  return [`sq:${uci.slice(0, 2)}`, `sq:${uci.slice(2, 4)}`];
}

/** A UCI move for people: `e7e8q` → `e7–e8 =queen`. */
export function uciLabel(uci: string): string {
  const promotion = { q: "queen", r: "rook", b: "bishop", n: "knight" }[uci.slice(4)];
  return `${uci.slice(0, 2)}–${uci.slice(2, 4)}${promotion === undefined ? "" : ` =${promotion}`}`;
}
