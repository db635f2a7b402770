"""Writes a new game from the templates beside this file (run by scripts/new-game.sh)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parent


def fill(text: str, game_id: str) -> str:
    """Return the template text with the game's id, type name and display name filled in."""
    type_name = "".join(part.capitalize() for part in game_id.split("_"))
    name = " ".join(part.capitalize() for part in game_id.split("_"))
    return text.replace("__ID__", game_id).replace("__TYPE__", type_name).replace("__NAME__", name)


def write_from_template(root: Path, template: str, target: str, game_id: str) -> None:
    """Write `target` (relative to `root`) from `template`."""
    path = root / target
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(fill((TEMPLATES / template).read_text(), game_id))


def insert_before_closing(text: str, opening: str, lines: str, after: int = 0) -> str:
    """Return `text` with `lines` inserted before the `}` that closes a block.

    The block is the one opened by the first line `opening` at or after position `after`.
    """
    start = text.index(opening, after)
    depth = 0
    for index in range(start, len(text)):
        if text[index] == "{":
            depth += 1
        elif text[index] == "}":
            depth -= 1
            if depth == 0:
                line_start = text.rindex("\n", 0, index) + 1
                return text[:line_start] + lines + text[line_start:]
    raise ValueError(f"no block closes {opening!r}")


def add_oneof_member(text: str, message: str, member: str, game_id: str, comment: str) -> str:
    """Return `text` with one member of the game in the oneof of `message`.

    The member is numbered after the message's highest field.
    """
    start = text.index(f"message {message} {{")
    end = text.index("\n}\n", start)
    numbers = [int(n) for n in re.findall(r"=\s*(\d+);", text[start:end])]
    line = f"    // {comment}\n    {member} {game_id} = {max(numbers) + 1};\n"
    oneof = text.index("  oneof ", start)
    opening = text[oneof : text.index("\n", oneof)]
    return insert_before_closing(text, opening, line, oneof)


def register(root: Path, game_id: str) -> None:
    """Add one line in each registry: engine, server codec, API oneofs and README."""

    def fill_in(text: str) -> str:
        return fill(text, game_id)

    games = root / "service/engine/src/games/mod.rs"
    games.write_text(
        insert_before_closing(
            games.read_text(),
            "register_games! {$",
            fill_in("    /// __NAME__ (`__ID__`).\n    __TYPE__ => __ID__::__TYPE__,\n"),
        )
    )

    codecs = root / "service/server/src/codec/mod.rs"
    text = codecs.read_text()
    last = list(re.finditer(r"^pub mod \w+;\n", text, re.MULTILINE))[-1]
    codecs.write_text(text[: last.end()] + f"pub mod {game_id};\n" + text[last.end() :])

    service = root / "proto/deckmate/v1/game_service.proto"
    text = service.read_text()
    last = list(re.finditer(r'^import "deckmate/v1/games/\w+\.proto";\n', text, re.MULTILINE))[-1]
    text = (
        text[: last.end()] + f'import "deckmate/v1/games/{game_id}.proto";\n' + text[last.end() :]
    )
    for message, suffix, comment in [
        ("GameConfig", "Config", "__NAME__ (`__ID__`)."),
        ("Action", "Action", "A __NAME__ action."),
        ("Observation", "Observation", "A __NAME__ view."),
        ("Event", "Event", "A __NAME__ event."),
    ]:
        text = add_oneof_member(
            text, message, fill_in("__TYPE__") + suffix, game_id, fill_in(comment)
        )
    service.write_text(text)

    readme = root / "README.md"
    text = readme.read_text()
    rows = list(re.finditer(r"^\| `\w+` \|.*docs/rules/\w+\.md\) \|\n", text, re.MULTILINE))
    row = fill_in(
        "| `__ID__` | __NAME__: a counting game to build on | 2 "
        "| [docs/rules/__ID__.md](docs/rules/__ID__.md) |\n"
    )
    readme.write_text(text[: rows[-1].end()] + row + text[rows[-1].end() :])


def main() -> None:
    """Write the game named on the command line into the repository named there."""
    root, game_id = Path(sys.argv[1]), sys.argv[2]
    write_from_template(
        root, "engine.rs.tmpl", f"service/engine/src/games/{game_id}/mod.rs", game_id
    )
    write_from_template(root, "codec.rs.tmpl", f"service/server/src/codec/{game_id}.rs", game_id)
    write_from_template(
        root, "game.proto.tmpl", f"proto/deckmate/v1/games/{game_id}.proto", game_id
    )
    write_from_template(root, "rules.md.tmpl", f"docs/rules/{game_id}.md", game_id)
    write_from_template(
        root,
        "golden.json.tmpl",
        f"service/engine/tests/golden/{game_id}/playthroughs.json",
        game_id,
    )
    register(root, game_id)


if __name__ == "__main__":
    main()
