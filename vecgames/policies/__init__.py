"""Baseline policies as njit kernels over a batch, one module per game."""
