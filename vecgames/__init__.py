"""vecgames: batched card and dice game simulators.

>>> import vecgames
>>> env = vecgames.make("zhajinhua", num_envs=4096, num_players=6, seed=0)
>>> df = vecgames.simulate("zhajinhua", 100_000, policy="random", seed=0)
"""

from .core import VecEnv, format_cards, make, parse_cards, simulate

__version__ = "0.2.0"  # the one place it is set (pyproject reads it); see CHANGELOG.md
__all__ = ["VecEnv", "__version__", "format_cards", "make", "parse_cards", "simulate"]
