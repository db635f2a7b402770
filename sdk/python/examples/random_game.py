"""Play one game of a variant to the end, every seat choosing randomly among its legal actions.

Usage: random_game.py --addr HOST:PORT --variant V [--seats N] [--api-key K] [--seed N]

The last line printed is
`result: <variant> <game_id> version=<n> winners=[..] draw=<bool> reason=<END_REASON_..>`.
A bad address or an unknown variant exits with status 2 and one `error: ...` line on stderr.
"""

from __future__ import annotations

import argparse
import random
import sys

from deckmate import (
    ActOptions,
    Client,
    DeckmateError,
    NotYourTurn,
    SeatHandle,
    StaleVersion,
    pb,
)


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Return the command line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--addr", required=True, help="server address, HOST:PORT")
    parser.add_argument("--variant", required=True, help="game id such as pigeon_chess")
    parser.add_argument("--seats", type=int, default=0, help="seat count (0: the smallest)")
    parser.add_argument("--api-key", default=None, help="API key sent as x-api-key")
    parser.add_argument("--seed", type=int, default=None, help="seed of the random choices")
    return parser.parse_args(argv)


def default_config(client: Client, variant: str) -> pb.GameConfig:
    """Return the default config of `variant`, or raise LookupError when it is not hosted."""
    for candidate in client.list_variants():
        if candidate.id == variant:
            return candidate.default_config
    raise LookupError(f"unknown variant {variant!r}")


def play_round(seats: list[SeatHandle], rng: random.Random) -> pb.ObserveResponse:
    """Observe every seat once and let each seat that may act take a random legal action.

    Return the last observation made, which tells whether the game has finished.
    """
    view = pb.ObserveResponse()
    for seat in seats:
        view = seat.observe()
        if view.status == pb.GAME_STATUS_FINISHED:
            return view
        if not view.legal_actions:
            continue
        action = rng.choice(list(view.legal_actions))
        try:
            seat.act_with(action, ActOptions.expecting(view.version))
        except (StaleVersion, NotYourTurn):
            continue  # another seat moved first: observe again next round
    return view


def result_line(view: pb.ObserveResponse) -> str:
    """Return the `result: ...` line of a finished game."""
    outcome = view.outcome
    winners = ",".join(str(seat) for seat in outcome.winners)
    draw = "true" if outcome.draw else "false"
    reason = pb.EndReason.Name(outcome.reason) if outcome.reason in pb.EndReason.values() else ""
    reason = reason or f"END_REASON_{outcome.reason}"
    return (
        f"result: {view.variant} {view.game_id} version={view.version} "
        f"winners=[{winners}] draw={draw} reason={reason}"
    )


def run(args: argparse.Namespace) -> str:
    """Play the game the options describe and return its result line."""
    rng = random.Random(args.seed)
    with Client.connect(args.addr, api_key=args.api_key) as client:
        config = default_config(client, args.variant)
        game = client.create_game(config, args.seats)
        while True:
            view = play_round(game.seats, rng)
            if view.status == pb.GAME_STATUS_FINISHED:
                return result_line(view)


def main(argv: list[str]) -> int:
    """Run the example; return the process exit status."""
    args = parse_args(argv)
    try:
        line = run(args)
    except (DeckmateError, LookupError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
