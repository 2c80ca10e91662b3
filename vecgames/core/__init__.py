"""What every game shares: cards, random streams, dealing, the VecEnv base, validation."""

from .cards import format_cards, parse_cards
from .vec_env import VecEnv

__all__ = ["VecEnv", "format_cards", "parse_cards"]
