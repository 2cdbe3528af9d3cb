"""The card picker: how a player picks cards on Discord, in every game that plays cards by
picking them (Big Two and Dou Dizhu; captures from the table and arrangements of a hand alike).

What the player sees, in their DM or My hand:

- **Cards** as buttons, five to a row: up to fifteen a page beside the suggestions, twenty
  without them, fewer when the game lists many other choices (suggestions give way first; a
  game listing so many that no row is left for cards is a mistake, raised when drawn). Tap a
  card to pick it (green), tap it again to let it go. The message says what is picked and
  whether it can be played: "ready to play", what the counts still want ("Pick 3 cards (you
  picked 4).") or "can't be played: <the rules' reason>".
- **Play selected** plays the pick, **Clear** lets every card go. The game's other choices
  (Pass, ...) are buttons (or selects) of their own, and a select offers up to 25 suggested
  plays, played at once when chosen. Every listed choice is offered, none thinned out, and
  every pick can be made with the card buttons however many plays there are.
- **Zones**: the cards come from one or more zones (your hand, the cards on the table). Each
  zone starts on a row of its own, and a page shows as many zones as fit, so a capture's hand
  card and table cards are usually tapped on one page; **More cards** turns to the next page,
  or names the zone it opens with ("Show the table"). The message says which rows hold which
  zone when a page shows several, and which of a zone's cards are shown when it spans pages;
  the pick lists its cards by zone. Each zone has a least and a most number of cards to pick
  from it.
- **Groups**: a pick may have groups (cards to keep, cards to give), each with its own least
  and most. One group is being filled at a time (marked ▶): a tapped card goes into it (green),
  tapping it again takes it out; cards in other groups are blue, and tapping one moves it into
  the group being filled. A picked card carries its group's tag ("7♠ ·2"), so colour is never
  the only sign. **Fill <group>** turns to the next group.
- **An arrangement under review** (Crash's four hands, see `Picker`): a tapped card goes into
  the first group with room (green, tagged), tapped again it comes out; a suggestion fills the
  groups for review, played only with the verb ("Set these hands"); the game may add a button
  of its own that remakes the pick ("Fill the rest"), name each group's cards ("prial of 6s")
  and say the verdict in its words.

The game says what to offer through its UI (`PickerUI`), from the seat's view only:
`picker(view)` gives the zones (the view's own card lists), groups and options, or None when
the seat picks nothing now (an auction); `pick_action(view, picked)` turns a pick into the
action; `pick_reason(view, picked)` previews the rules' verdict from the view, and
`pick_text(view, picked)` says what an accepted pick does; `pick_of(view, action)` places a
suggested action's cards. The picker never reads the engine's state: the runtime judges the
action when it is played (`runtime.act(action=...)`) and refuses it with the rules' reason, so
a preview kinder than the rules costs nothing. Suggestions and the other choices are the game's
listing (`legal_actions`), as for every other control.

Stateless, so it survives restarts: all a control needs is in its custom_id (codec.py). A card
is named by its index in the zones' cards, in order (never by its name); the selection is one
number in which digit i, in base groups + 1, is card i's group (0: not picked, g + 1: group
g), written in hex: a plain pick is a bitmask of the cards. A checksum of the zones' cards
rides along, so a control drawn for other cards (the table changed while a choice stayed open)
is refused as expired, never applied to the wrong cards. A selection has at most
MAX_SELECTION_BITS bits (50 hex digits: 200 cards for a plain pick, 86 with four groups),
which keeps a custom_id within Discord's 100 characters for table and prompt numbers of up to
12 digits; a picker over more is refused when made. Anything the bot could not have made for
this player now is refused as invalid, with nothing changed: a selection naming a card or group
past the last, a page or group that doesn't exist, a card not on its page, a form the bot
doesn't write (leading zeros), a table that isn't picking now.

The modules: model.py (zones, groups, selections: pure), layout.py (pages and rows: pure),
codec.py (the custom_ids), desk.py (the game's hooks and one seat's picker: drawn, described,
acted on), controls.py (the dynamic items).
"""

from bot.discord.picker.codec import MAX_ID_LENGTH
from bot.discord.picker.controls import (
    EXPIRED,
    PICKER_ITEMS,
    PickButton,
    PickSuggestions,
    PickToggle,
    add_picker,
)
from bot.discord.picker.desk import Desk, PickerUI
from bot.discord.picker.layout import Page, Part
from bot.discord.picker.model import SELECTED, Choice, Group, Picked, Picker, Zone, cards_text

__all__ = [
    "EXPIRED",
    "MAX_ID_LENGTH",
    "PICKER_ITEMS",
    "SELECTED",
    "Choice",
    "Desk",
    "Group",
    "Page",
    "Part",
    "PickButton",
    "PickSuggestions",
    "PickToggle",
    "Picked",
    "Picker",
    "PickerUI",
    "Zone",
    "add_picker",
    "cards_text",
]
