"""The rule engines (bot/games, bot/engine, bot/cards) without Discord: scripted hands from the
rule texts, properties, the AIs, and the conformance test every game passes."""
