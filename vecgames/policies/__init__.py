"""Players: the built-in njit policies (one module per game: ``POLICIES``, ``DESCRIPTIONS``,
``policy_action``) and the player layer over them: the protocol (``protocol``), built-in players
at an env (``builtin``), trained checkpoints (``checkpoint``) and the runner that plays any mix
of them through batched ``env.step`` (``run``). docs/players.md is the user's guide."""
