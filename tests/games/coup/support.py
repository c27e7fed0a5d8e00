"""The table most Coup tests start from (the one in ``../shared/scenarios.md``)."""

NAMES = ["Aria", "Blake", "Casey"]
STANDARD = {
    "hands": {"Aria": ["Duke", "Assassin"], "Blake": ["Captain", "Contessa"], "Casey": ["Ambassador", "Duke"]},
    "deck": ["Contessa", "Captain", "Assassin", "Ambassador", "Duke", "Contessa", "Captain", "Assassin",
             "Ambassador"],
    "shuffle": False,
}
#: The same table with Aria to start, for matches built directly.
SETUP = dict(STANDARD, first="Aria")
