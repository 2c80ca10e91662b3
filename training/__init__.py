"""Trainers on vecgames' batched envs and torch bridge (needs the ``train`` extra).

The generic machinery of the trainers; each game's trainer is its package's ``train`` module
(``vecgames.games.GAME.train``, named by the game's spec): ``vecgames train GAME`` or
``python -m vecgames.games.GAME.train``. The algorithms: policy gradient (``pg``: Zha Jin Hua,
Hold'em, Da Yaoguai), DQN (``dqn``: Liar's Dice) and PPO (``ppo``: Hanabi). ``core`` runs
every one of them: the run folder, the budget, checkpoints, the arena evaluation
(``evaluation``) and the outputs. See docs/training.md.
"""
