"""Da Yaoguai 打妖怪 / 西游记: rules, observation and the batched env
(its ``simulate`` is ``vecgames.games.dayaoguai.simulate``)."""

from .env import DaYaoguaiEnv
from .rules import DEFAULT_OPTIONS, NUM_ACTIONS, Rules, beats, card_name, make_rules

__all__ = ["DEFAULT_OPTIONS", "NUM_ACTIONS", "DaYaoguaiEnv", "Rules", "beats", "card_name",
           "make_rules"]
