"""The generated API types of `deckmate.v1`: every message and enum, by its proto name.

>>> from deckmate import pb
>>> config = pb.GameConfig(pigeon_chess=pb.PigeonChessConfig())
"""

from deckmate._generated.messages import *  # noqa: F403
