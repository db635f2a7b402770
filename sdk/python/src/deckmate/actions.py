"""Building envelope actions."""

from deckmate import pb


def meta_action(kind: pb.MetaActionKind.ValueType) -> pb.Action:
    """Return the envelope action for the meta action `kind` (resign, draw offers)."""
    return pb.Action(meta=pb.MetaAction(kind=kind))
