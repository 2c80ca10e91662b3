"""Running vecgames on a Ray cluster: sharded ``simulate`` (``simulate.py``) and poker tables
(``tables.py``); the trainers' rollout actors are in ``training/ray_rollouts.py``. Ray is an
optional extra (``pip install -e ".[ray]"``); nothing here is imported by
``import vecgames``."""

from .cluster import connect, run_sharded
from .simulate import simulate_ray
from .tables import compute_preflop_matrix_ray, equity_vs_random_ray

__all__ = ["compute_preflop_matrix_ray", "connect", "equity_vs_random_ray", "run_sharded",
           "simulate_ray"]
