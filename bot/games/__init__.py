"""Pure rule engines. A folder is a game (its rules, its AI and its spec: bot/games/<game>/;
the Terrapin family shares a table and scoring in bot/games/terrapin/); a module is shared:
mechanics several games use (betting, poker, climbing, tricks, captures, hands, matches, and
their AIs' helpers), the AI seat (ai.py) and self-play (simulate.py).

`GAMES` is the one list of playable games: importing this package registers them.
"""

from bot.engine import registry
from bot.games.backhand import BACKHAND
from bot.games.big_two import BIG_TWO
from bot.games.botifarra import BOTIFARRA
from bot.games.calabrasella import CALABRASELLA
from bot.games.crash import CRASH
from bot.games.delphi import DELPHI
from bot.games.dou_dizhu import DOU_DIZHU
from bot.games.last_one import LAST_ONE
from bot.games.lowball import LOWBALL
from bot.games.porrazo import PORRAZO
from bot.games.terrapin.liars import LIARS
from bot.games.terrapin.provincial import PROVINCIAL
from bot.games.terrapin.soliterrapin import SOLITERRAPIN
from bot.games.terrapin.temptation import TEMPTATION
from bot.games.terrapin.western import WESTERN
from bot.games.totit import TOTIT
from bot.games.turup import TURUP

GAMES = (
    BACKHAND,
    BIG_TWO,
    BOTIFARRA,
    CALABRASELLA,
    CRASH,
    DELPHI,
    DOU_DIZHU,
    LAST_ONE,
    LIARS,
    LOWBALL,
    PORRAZO,
    PROVINCIAL,
    SOLITERRAPIN,
    TEMPTATION,
    TOTIT,
    TURUP,
    WESTERN,
)

for game in GAMES:
    registry.register(game)
