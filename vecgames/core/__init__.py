"""What every game shares: cards, random streams, dealing, the VecEnv base, validation."""

from .cards import format_cards, parse_cards
from .registry import make, simulate
from .vec_env import VecEnv

__all__ = ["VecEnv", "format_cards", "make", "parse_cards", "simulate"]
