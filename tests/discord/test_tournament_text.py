"""A tournament's message stays within Discord's embed limits, however many players with
however long names (128 players, 32-character names, rounds of 43 tables)."""

from __future__ import annotations

from bot.discord.tournament_text import cancel_note, tournament_embed
from bot.i18n import _, speaking
from bot.store.tournaments import (
    Entry,
    MatchRecord,
    Progress,
    TournamentRecord,
    TournamentStatus,
)

EMBED_LIMIT, FIELD_LIMIT = 6000, 1024


def crowded(status: TournamentStatus, played: int) -> tuple[TournamentRecord, Progress]:
    record = TournamentRecord(
        1, 1, 2, 3, "totit", "swiss", 10, 3, 3, None, 128, "top3", 0, 60, 0, 60, "{}",
        status=status, seed="ab" * 32, commitment="cd" * 32,
    )  # fmt: skip
    members = list(range(1, 129))
    entries = [
        Entry(m, f"Player {m} with a long name ✨"[:32], m, seed_rank=m, place=m, prize=m % 3)
        for m in members
    ]
    matches = [
        MatchRecord(r, n + 1, tuple(members[3 * n : 3 * n + 3]), 0, thread_id=10**18 + n,
                    table_id=n, placings=(1, 2, 3) if r <= played else None)
        for r in range(1, max(played, 1) + 1)
        for n in range(42)
    ]  # fmt: skip
    return record, Progress(entries, {r: (127, 128) for r in range(1, played + 1)}, matches)


def test_a_crowded_tournament_fits_in_one_embed():
    for status, played in ((TournamentStatus.PLAYING, 2), (TournamentStatus.FINISHED, 3)):
        embed = tournament_embed(*crowded(status, played))
        assert len(embed) <= EMBED_LIMIT
        assert all(len(field.value or "") <= FIELD_LIMIT for field in embed.fields)
        assert "more" in embed.fields[0].value  # the players cut, saying how many are left


def test_the_finished_message_shows_the_places_prizes_and_the_seed():
    record, progress = crowded(TournamentStatus.FINISHED, 3)
    embed = tournament_embed(record, progress)
    assert embed.footer.text.startswith(f"Draw seed {record.seed}")
    result = next(field.value for field in embed.fields if field.name == "Result")
    assert result.startswith("1. Player")


def test_a_cancel_note_is_kept_as_a_code_and_said_in_the_readers_language():
    assert cancel_note("too_few:3") == "Too few players to start (3); every buy-in went back."
    assert cancel_note("refunded") == "Every buy-in went back."
    assert cancel_note("Cancelled by hand.") == "Cancelled by hand."  # before languages
    assert cancel_note(None) == ""
    with speaking("es"):
        assert cancel_note("too_few:3") == _(
            "Too few players to start ({count}); every buy-in went back.", count=3
        )
        assert "3" in cancel_note("too_few:3") and "Too few" not in cancel_note("too_few:3")
