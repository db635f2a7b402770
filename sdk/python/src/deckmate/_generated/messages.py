"""Every generated message module, re-exported (written by regen.sh; do not edit)."""

from deckmate._generated.v1.game_service_pb2 import *  # noqa: F403
from deckmate._generated.v1.games.card_chess_pb2 import *  # noqa: F403
from deckmate._generated.v1.games.chuno_pb2 import *  # noqa: F403
from deckmate._generated.v1.games.pigeon_chess_pb2 import *  # noqa: F403
from deckmate._generated.v1.games.pile_chess_pb2 import *  # noqa: F403
from deckmate._generated.v1.games.raindrop_chess_pb2 import *  # noqa: F403
