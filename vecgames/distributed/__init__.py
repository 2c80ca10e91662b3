"""Running vecgames on a Ray cluster: sharded ``simulate`` and preflop tables, and rollout
actors for the trainers. Ray is an optional extra (``pip install "vecgames[ray]"``); nothing
here is imported by ``import vecgames``."""

from .cluster import connect, run_sharded
from .simulate import simulate_ray

__all__ = ["connect", "run_sharded", "simulate_ray"]
