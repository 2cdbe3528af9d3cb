"""Pure rule engines, one module (or package) per game.

Importing this package registers every playable game with `bot.engine.registry`.
"""

from bot.games import backhand as backhand
from bot.games import big_two as big_two
from bot.games import botifarra as botifarra
from bot.games import calabrasella as calabrasella
from bot.games import crash as crash
from bot.games import delphi as delphi
from bot.games import dou_dizhu as dou_dizhu
from bot.games import last_one as last_one
from bot.games import lowball as lowball
from bot.games import porrazo as porrazo
from bot.games import totit as totit
from bot.games import turup as turup
from bot.games.terrapin import liars as liars
from bot.games.terrapin import provincial as provincial
from bot.games.terrapin import soliterrapin as soliterrapin
from bot.games.terrapin import temptation as temptation
from bot.games.terrapin import western as western
