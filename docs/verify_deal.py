"""Re-deal one shuffle of a closed table (README, "Verifiable deals"). Standard library only.
Usage: python3 verify_deal.py SEED_HEX START_CLICK_ID DRAW_NUMBER CARD [CARD ...]
Prints the cards, given in the game's fresh-deck order, in the order that draw shuffled them."""

import hashlib
import hmac
import sys

seed_hex, click, draw, *deck = sys.argv[1:]
key, stream, blocks = bytes.fromhex(seed_hex), b"", 0
print("commitment", hashlib.sha256(key).hexdigest())


def below(n: int) -> int:  # a uniform integer in [0, n): masked bytes, values >= n rejected
    global stream, blocks
    bits = (n - 1).bit_length()
    size = (bits + 7) // 8
    while True:
        while len(stream) < size:  # HMAC-SHA256 blocks of the message "draw:click:block"
            stream += hmac.new(key, f"{draw}:{click}:{blocks}".encode(), hashlib.sha256).digest()
            blocks += 1
        value, stream = int.from_bytes(stream[:size], "big") & ((1 << bits) - 1), stream[size:]
        if value < n:
            return value


for i in range(len(deck) - 1, 0, -1):  # Fisher-Yates from the end
    j = below(i + 1)
    deck[i], deck[j] = deck[j], deck[i]
print(" ".join(deck))
