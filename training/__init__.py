"""Trainers built on vecgames' batched envs and torch bridge (needs the ``train`` extra).

One module per game, each run as ``python -m vecgames.training.<game>`` or
``vecgames train <game>``: ``zhajinhua``, ``holdem`` (REINFORCE with a learned baseline and a
KL penalty), ``dayaoguai`` (the same update with lambda-returns), ``liars_dice`` (DQN) and
``hanabi`` (PPO self-play). ``runs`` holds what they share: the run folder (``--resume``,
``--overwrite``), safe checkpoints, seeding, resume state and the progress bar;
``config_cli`` turns a trainer's Config into its command line. See docs/training.md.
"""
