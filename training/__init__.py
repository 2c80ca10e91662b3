"""Trainers on vecgames' batched envs and torch bridge (needs the ``train`` extra).

``vecgames train GAME`` or ``python -m vecgames.training.GAME``, GAME one of ``zhajinhua``,
``holdem``, ``dayaoguai`` (policy gradient, ``pg``), ``liars_dice`` (DQN, ``dqn``) and
``hanabi`` (PPO, ``ppo``). ``core`` runs every one of them: the run folder, the budget,
checkpoints, the arena evaluation (``evaluation``) and the outputs. See docs/training.md.
"""
