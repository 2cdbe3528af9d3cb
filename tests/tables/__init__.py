"""The table runtime (bot/tables) without Discord: timers, failed writes, settlement as pure
functions, the table's own action records."""
