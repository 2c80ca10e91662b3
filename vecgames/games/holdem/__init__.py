"""No-limit Texas Hold'em (RULES.md §1)."""
