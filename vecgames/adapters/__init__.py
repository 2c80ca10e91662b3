"""Adapters to other RL stacks, each a thin layer over the native ``VecEnv`` (no rule is
written twice): Gymnasium (``gym_env``), PettingZoo (``pz_env``) and TorchRL
(``torchrl_env``). Their libraries are optional extras, imported only by these modules."""
