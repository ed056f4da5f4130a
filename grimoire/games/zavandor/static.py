"""The game's fixed data for interfaces (the web UI draws costs, minimum bids and VP from here
instead of copying the tables)."""

from __future__ import annotations

from typing import Any

from . import data as D


def static_data() -> dict[str, Any]:
    return {
        "gems": [{"id": D.GEMS[g], "vp": D.GEM_VP[g], "cost_by_level": list(D.GEM_COST[g]),
                  "sale_by_level": list(D.GEM_SALE[g]), "supply": D.GEM_SUPPLY[g],
                  "card_colour": D.COLOURS[D.GEM_COLOUR[g]] if D.GEM_COLOUR[g] >= 0 else None} for g in range(5)],
        "cards": [{"colour": D.COLOURS[c], "values": list(D.CARD_VALUES[c]), "copies": list(D.CARD_COPIES[c]),
                   "concentrated_value": D.CONC_VALUE[c]} for c in range(4)],
        "tracks": [{"id": D.TRACKS[t], "name": D.TRACK_NAMES[t], "cost_by_level": list(D.TRACK_COST[t]),
                    "hand_limit_on_entry": D.HAND_ENTRY[t]} for t in range(6)],
        "track_effects": {"flow_dust": list(D.FLOW_DUST), "artifact_discount": list(D.ART_DISCOUNT),
                          "sentinel_discount": list(D.SENT_DISCOUNT), "extra_slots": list(D.EXTRA_SLOTS),
                          "sages_colour": [D.COLOURS[c] for c in D.SAGES_COLOUR]},
        "token_prices": list(D.TOKEN_PRICES),
        "characters": [{"id": D.CHARACTERS[c], "track": D.TRACKS[D.CHAR_TRACK[c]], "dust": D.CHAR_DUST[c],
                        "hand_limit": D.BASE_HAND_LIMIT + D.HAND_ENTRY[D.CHAR_TRACK[c]]} for c in range(6)],
        "artifacts": [{"id": D.ARTIFACTS[k], "name": D.ARTIFACT_NAMES[k], "deck": D.LETTERS[D.ART_LETTER[k]],
                       "min_bid": D.ART_MIN_BID[k], "vp": D.ART_VP[k]} for k in range(12)],
        "sentinels": [{"id": D.SENTINELS[i], "name": D.SENTINEL_NAMES[i], "bonus": D.SENT_BONUS[i][0],
                       "per": D.SENT_BONUS[i][2], "cap": D.SENT_BONUS[i][3] or None,
                       "counts": [D.GEMS[x] if D.SENT_BONUS[i][0] == "active" else D.ARTIFACTS[x]
                                  for x in D.SENT_BONUS[i][1]]} for i in range(9)],
        "sentinel_min_bid": D.SENT_MIN_BID,
        "sentinel_base_vp": D.SENT_BASE_VP,
        "sentinels_to_end": D.SENT_END,
        "turn_order_cards": [{"card": D.ROMAN[i], "artifact": a, "sentinel": s, "when": cond}
                             for i, (a, s, cond) in enumerate(D.ORDER_CARDS)],
        "vp_threshold": D.VP_THRESHOLD,
        "base_slots": D.BASE_SLOTS,
        "base_hand_limit": D.BASE_HAND_LIMIT,
    }
