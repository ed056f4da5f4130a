"""Rules help by topic (for ``rules <topic>`` in the CLI and the web), built from the data tables so
that the numbers shown are the numbers the engine uses."""

from __future__ import annotations

from . import actions
from .data import (
    ART_LETTER,
    ART_MIN_BID,
    ART_VP,
    ARTIFACT_NAMES,
    ARTIFACTS,
    CARD_COPIES,
    CARD_VALUES,
    CHAR_DUST,
    CHAR_TRACK,
    CHARACTERS,
    COLOURS,
    CONC_VALUE,
    GEM_COST,
    GEM_SALE,
    GEMS,
    HAND_ENTRY,
    LETTERS,
    ORDER_CARDS,
    ROMAN,
    SENT_BONUS,
    SENT_MIN_BID,
    SENTINEL_NAMES,
    TOKEN_PRICES,
    TRACK_COST,
    TRACK_NAMES,
    TRACKS,
)


def _gems() -> str:
    rows = "\n".join(f"| {GEMS[g]} | " + " | ".join(f"{GEM_COST[g][lv]}/{GEM_SALE[g][lv]}" for lv in range(5)) + " |"
                     for g in range(5))
    return ("# Gems (2.1, 7.2)\nActive gems (on the magic spiral) score VP and give income; inactive ones (on the "
            "pentagon) only have a sale value. Opal 1 VP (dust income), sapphire 1 VP (blue card), emerald 2 VP "
            "(green card, needs a Spellbook), diamond 2 VP (white card, needs an Elixir), ruby 3 VP (red card, "
            "needs Knowledge of Fire 4; at most 5 rubies; the druid may buy one at Fire 3).\n\n"
            "Active slots: 5, +1/+1/+2 at Accumulation 2/3/4, +2 Magic Belt, +2 Magic Wand.\n\n"
            "Cost/sale value by Knowledge of Gems level:\n\n"
            "| gem | L0 | L1 | L2 | L3 | L4 |\n|---|---|---|---|---|---|\n"
            + rows + "\n\nActions: `buy <gem>` (active), `buy <gem> inactive`, `sell <gem>` (inactive), "
            "`sell active <gem>`, `activate <gem>`, `deactivate <gem>`.")


def _knowledge() -> str:
    rows = "\n".join(f"| {TRACKS[t]} | {TRACK_NAMES[t]} | {'/'.join(map(str, TRACK_COST[t]))} | {HAND_ENTRY[t]:+d} |"
                     for t in range(6))
    return ("# Knowledge (2.6, 7.3, 9)\nOnce per round you may pay to raise one track by one level. A new track needs "
            f"a knowledge token on your pentagon: `token <price>` buys one ({', '.join(map(str, TOKEN_PRICES))}, any "
            "order, any number), then `advance <track>` pays the level-1 cost. Free advances from artifacts do not "
            "count against the limit; they raise a track you are on (entering a new track that way only with the "
            "option free_advance_new_track). Level 4 is worth 2 VP.\n\n"
            "| track | name | cost L1/L2/L3/L4 | hand limit on "
            "entering |\n|---|---|---|---|\n" + rows + "\n\nEffects: gems −10 % cost per level; energy flow +2/+5/+10 "
            "dust at L2/L3/L4; fire 4 lets you buy rubies; 9 Sages gives 2 cards per new level (see `rules sages`); "
            "artifacts −5/−5/−10 on artifact prices and −10/−10/−20 on sentinels at L2/L3/L4; accumulation "
            "+1/+1/+2 active slots at L2/L3/L4.")


def _artifacts() -> str:
    rows = "\n".join(f"| {ARTIFACTS[k]} | {ARTIFACT_NAMES[k]} | {LETTERS[ART_LETTER[k]]} | {ART_MIN_BID[k]} | "
                     f"{ART_VP[k]} |" for k in range(12))
    return ("# Artifacts (2.8, 11)\n| text | name | deck | min bid | VP |\n|---|---|---|---|---|\n" + rows +
            "\n\nSpellbook: buy emeralds; −15 each on the Shadow Cloak. Runestone: one free advance; −10 each on the "
            "Chalice. Crystal Ball: hand limit +3; −5 each on the Elixir. Magic Belt: +2 slots (one per player). "
            "Magic Mirror / Shadow Cloak: a free knowledge token if you want one (`skip` declines), and every other "
            "player loses an active gem of his choice (opening needs an active gem). Crystal of Protection: +1 "
            "green card each income. Elixir: buy "
            "diamonds, and a free diamond to your pentagon. Mask of Charisma: one free advance; −20 on sentinels. "
            "Magic Wand: +2 slots, hand limit +3 (one per player). Chalice of Fire: +1 red card each income. "
            "Talisman: two free advances (one track +2 or two tracks +1).")


def _sentinels() -> str:
    rows = []
    for i, name in enumerate(SENTINEL_NAMES):
        what, which, per, cap = SENT_BONUS[i]
        if what == "types":
            desc = "per gem type among active gems"
        elif what == "level4":
            desc = "per knowledge track at level 4"
        elif what == "active":
            desc = "per active " + "/".join(GEMS[g] for g in which)
        else:
            desc = "per " + ", ".join(ARTIFACT_NAMES[k] for k in which)
        rows.append(f"| {name} | {per} {desc} | {cap or '—'} |")
    return (f"# Sentinels (2.9, 12)\nAll 9 are on offer from round 1, minimum bid {SENT_MIN_BID}, worth 5 VP + a "
            "bonus recomputed at every phase 4. The game ends at the phase 4 in which 5 or more have been sold.\n\n"
            "| sentinel | bonus | cap |\n|---|---|---|\n" + "\n".join(rows))


def _turn_order() -> str:
    rows = "\n".join(f"| {ROMAN[i]} | {a:+d} | {s:+d} | {cond} |" for i, (a, s, cond) in enumerate(ORDER_CARDS))
    return ("# Turn order (5, 2.10)\nEach round players are ranked by VP (then VP from active gems, then at random); "
            "the first takes card I. Auction prices change by the card (not the bids): 'leader' applies when the "
            "holder of I has 10 VP or more, 'self' when the holder himself has.\n\n| card | artifact | sentinel | "
            "when |\n|---|---|---|---|\n" + rows)


def _characters() -> str:
    rows = "\n".join(f"| {CHARACTERS[c]} | {TRACK_NAMES[CHAR_TRACK[c]]} | {CHAR_DUST[c]} | "
                     f"{5 + HAND_ENTRY[CHAR_TRACK[c]]} |" for c in range(6))
    return ("# Characters (2.7)\n| character | starting track (level 1) | dust | hand limit |\n|---|---|---|---|\n"
            + rows +
            "\n\nEveryone starts with 2 opals and 1 sapphire, active (3 VP). The fairy also starts with 2 sapphire "
            "cards in hand; the druid may buy one ruby at Fire level 3.")


def _energy() -> str:
    rows = "\n".join(f"| {COLOURS[c]} | {CARD_VALUES[c][0]}-{CARD_VALUES[c][-1]} | {sum(CARD_COPIES[c])} | "
                     f"{CONC_VALUE[c]} |" for c in range(4))
    return ("# Energy (2.2-2.5, 6)\nEnergy cards (values hidden from others), concentrated cards and dust "
            "(2, 5, 10; no 1-dust).\n\n| colour | values | cards | concentrated |\n|---|---|---|---|\n" + rows +
            "\n\nIncome (phase 2): opal dust (1→2, 2→5, 3→10, then again), energy-flow dust, and one card per active "
            "sapphire/emerald/diamond/ruby (+Crystal of Protection green, +Chalice red). Every 4 new cards of a "
            "colour are replaced by 1 concentrated card + 2 dust.\n\nHand limit counts: card 1, 2-dust 1, 5-dust 2, "
            "10-dust 3, concentrated 3.")


TOPICS = {
    "overview": ("# The Scepter of Zavandor\nCollect energy, buy gems, learn knowledge and win artifacts and "
                 "sentinels at auction. Each round: 1) turn order and artifact refill, 2) income, 3) each player's "
                 "turn (gems, knowledge, auctions), 4) hand limit, VP, end check. The game ends when five sentinels "
                 "have been sold; most VP wins (ties share the victory)."),
    "turn": ("# Your turn (7.1)\nThree groups of actions in any order, each as one block (a-b-a is not allowed with "
             "strict sub-phases): 3a gems, 3b knowledge, 3c auctions. Activating/deactivating is allowed at any "
             "moment of your turn. Purchases go on a tab that is paid in one payment (`pay`, or automatically when "
             "you change group, open an auction or `end` your turn)."),
    "auction": ("# Auctions (7.4)\n`auction <item>` then `bid <n>` (at least the minimum bid). Everyone bids in "
                "turn order, round and round; `pass` is final. If nobody raises, the opener buys at his bid. The "
                "winner pays at once: price = bid + turn-order surcharge − discounts (never below 0), and may sell "
                "gems to pay. Belt/Wand owners cannot bid for a second one."),
    "curse": ("# Curse of the 9 Sages (7.5)\nA bid whose price exceeds what you could pay (energy in hand plus the "
              "sale value of all your gems) eliminates you at once: the auction is broken off, your belongings "
              "leave the game (your sentinels still count as sold). If only one player is left he wins. The game "
              "lists only bids you can pay; typing a higher bid asks for confirmation."),
    "payment": ("# Paying (7.6)\nChange is paid in dust; there is no 1-dust, so a change of 1 is lost and 3 gives "
                "a 2-dust. `pay` lets the engine choose the cards that waste least and leave the smallest hand; "
                "`pay 15 8g c40 d12` pays with exactly those (card values with optional colour letter b/g/w/r, "
                "concentrated cards by value, dust amount). Several gem/knowledge purchases can be paid together."),
    "hand-limit": ("# Hand limit (8.1)\nIn phase 4 a hand above the limit must be reduced: `discard` keeps the most "
                   "energy possible, `discard 3 4 d5` discards exactly those. Dust goes back as whole tokens, which "
                   "may first be exchanged upwards only (from 10+10 you keep 0, 10 or 20, never 12). Items under "
                   "your turn-order card do not count this round."),
    "sages": ("# Knowledge of the 9 Sages (10)\nEach new level gives 2 cards: L1 sapphire, L2 emerald, L3 diamond, "
              "L4 ruby. Cards of a colour you cannot use (no Spellbook/Protection for green, no Elixir for white, "
              "no Fire 4/Chalice/druid Fire 3 for red) become dust of the same value. Everything waits under your "
              "turn-order card until the next round (the fairy's starting cards excepted)."),
    "scoring": ("# Victory points (8.2)\nRecounted from scratch each phase 4: active opal/sapphire 1, emerald/diamond "
                "2, ruby 3; each knowledge track at level 4: 2; artifacts their VP; sentinels 5 + bonus. Inactive "
                "gems and energy score nothing."),
    "gems": _gems(),
    "knowledge": _knowledge(),
    "artifacts": _artifacts(),
    "sentinels": _sentinels(),
    "turn-order": _turn_order(),
    "characters": _characters(),
    "energy": _energy(),
    "actions": "# Action texts\n```\n" + (actions.__doc__ or "").split("\n", 2)[2] + "```",
}


def rules_topics() -> dict[str, str]:
    return dict(TOPICS)
