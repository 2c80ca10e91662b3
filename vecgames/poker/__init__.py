"""Hand evaluators, equity and tables."""

from .describe import describe
from .seven_card import ROYAL_FLUSH, evaluate, evaluate_text, hand_category
from .seven_card_build import CATEGORY_NAMES as HOLDEM_CATEGORY_NAMES
from .three_card import (
    CATEGORY_NAMES,
    CATEGORY_NAMES_ZH,
    beats_3,
    category_3,
    evaluate_3,
)

__all__ = ["CATEGORY_NAMES", "CATEGORY_NAMES_ZH", "HOLDEM_CATEGORY_NAMES", "ROYAL_FLUSH",
           "beats_3", "category_3", "describe", "evaluate", "evaluate_3", "evaluate_text",
           "hand_category"]
