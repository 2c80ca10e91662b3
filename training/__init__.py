"""Trainers built on vecgames' batched envs and torch bridge (needs the ``train`` extra).

- ``vecgames.training.zhajinhua``: episodic REINFORCE with a learned baseline and a KL penalty
  (``python -m vecgames.training.zhajinhua`` or ``vecgames train zhajinhua``); see docs/training.md.
"""
