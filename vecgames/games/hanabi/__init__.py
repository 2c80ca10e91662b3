"""Hanabi (JaxMARL rules, RULES.md §4): rules, observations, the batched env and simulation."""
