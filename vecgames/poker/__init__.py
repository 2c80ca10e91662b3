"""Hand evaluators."""

from .three_card import (
    CATEGORY_NAMES,
    CATEGORY_NAMES_ZH,
    beats_3,
    category_3,
    evaluate_3,
)

__all__ = ["CATEGORY_NAMES", "CATEGORY_NAMES_ZH", "beats_3", "category_3", "evaluate_3"]
