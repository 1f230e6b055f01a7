"""The F1 help: the rules in brief (our own summary) and the keys.

Each heading, paragraph, list item and table row is its own message, so the help stays in the
catalogue piece by piece (issue 15): :func:`help_text` builds the Markdown in the language
spoken now, and a changed paragraph asks for only that paragraph to be translated again.
"""

from __future__ import annotations

from ..i18n import N_, _

HELP_BLOCKS: tuple[tuple[str, ...], ...] = (
    (N_("# Pipeline in brief"),),
    (
        N_(
            "**Goal.** Have the most money after three Years (8, 6 and 4 Rounds). At the end you "
            "also earn money for refined oil in your Tanks, for your Pipelines, for the Valuation "
            "tile and the three Valuation cards; Penalty markers cost money."
        ),
    ),
    (
        N_(
            "**Setup.** Each player starts with $40 and places 5 free Tanks in the Crude, Low, Mid or "
            "High row of their Tank Farm. A Tank holds 2 barrels of any colour."
        ),
    ),
    (N_("**A turn.** In the Work Phase place your worker for one Main Action:"),),
    (
        N_("- a **market** (Crude Market, Refined Market 1, 2 or 3): sell first, then buy barrels;"),
        N_(
            "- an **action tile**: Upgrades, Tanks & Pipes, Machines & Pipes, Contracts & Loans "
            "(these four also let you put your disk on any space of next Round's turn order, pushing "
            "a disk already there aside; without that you slide to the leftmost free space);"
        ),
        N_("- a **Government** Pipe tile (more adjacent tiles in the same quadrant cost more);"),
        N_("- a tile of **your own Pipe Network**: refine one barrel per Pipeline through that tile."),
    ),
    (
        N_(
            "After a Main Action you may pay $10 for a Secondary Action on the same arm of the cross. "
            "Then the Machine Phase: one payment of $15 ($5 with Machines II) runs every Pipeline "
            "attached to your Machines, each refining one barrel; with Machines III they may also "
            "run once before your Actions. Without the money the move is not offered, and the table "
            "says why. Contracts and Orders may be fulfilled between Actions."
        ),
    ),
    (
        N_(
            "**Pipe tiles** are dominoes with three pipes. A new tile must touch your network. A "
            "Pipeline is a chain of same-colour pipe segments; its Refinement Value is its segment "
            "count. Refining a barrel from one grade to a higher one costs the sum of the Refinement "
            "Cost markers for its colour along the steps; the cost must not exceed the Pipeline's "
            "value."
        ),
    ),
    (
        N_(
            "**Contracts** pay per barrel delivered (Low $20, Mid $35, High $45); an Active Contract "
            "left unfinished at the end of a Year costs a Penalty marker. When you take a Contract "
            "you choose: **Active** (fulfil it this Year) or **Deferred** (it waits for next Year: no "
            "barrels go on it now, and at the start of next Year it becomes Active; none can be "
            "Deferred in Year 3). **Orders** are fulfilled at once from your Tank Farm. A **Loan** "
            "gives $15 and a Penalty marker."
        ),
    ),
    (
        N_(
            "**End of a Round and of a Year.** After the last turn of a Round the next Round's turn "
            "order applies. After the last Round of Years 1 and 2 comes the Refresh Phase: each "
            "unfinished Active Contract is removed with a Penalty marker, Deferred Contracts become "
            "Active, the Contracts on the board slide one column and new ones come in, and the "
            "markets, shops and upgrade tokens are refilled. The table says when each of these "
            "happens."
        ),
    ),
    (N_("**Upgrades** (5 families per game, $20 each, at most 2 per Action) give lasting benefits."),),
    (
        N_(
            "**Clocks** (not in the rulebook; chosen at setup). A game may have a time bank with an "
            "increment after each turn (`20m+30s`) or a fixed time for each turn (`2d/move`). A "
            "turn's time runs from the end of the turn before it to your `end`; undo within a turn "
            "gives back no time. When a seat's time runs out everyone is told, and the computer "
            "(normal) plays the seat until its player takes it back (`b` here; at a shared table, "
            "sit down at it again); that seat's next turn starts with the whole setting again. If "
            "the game was set up so, it ends instead with the scores as they stand. A game's clocks "
            "stand still while it is closed or its server is down."
        ),
    ),
    (N_("# Reading the table"),),
    (
        N_(
            "On the action cross the four action tiles are in bold (they carry the Turn Order icon) "
            "and workers show as seat numbers in reverse, in the seat's colour (chosen when the game "
            "is set up; names show in it too). Barrels show as letters: **O**range, **T**eal, "
            "**S**ilver, then the grade **C**rude, **L**ow, **M**id, **H**igh (so `TH` is High-Grade "
            "Teal). Market rows list each slot as its price and the barrel in it (`·` = empty). On "
            "the network grid each tile half is a 5 x 3 cell; pipes carry their colour letter, `M` "
            "is a Machine and `@` your worker. Numbers on the rulers are the cells used by "
            "`place x,y r0..r3` (half A on x,y; half B east, south, west or north for r0..r3). The "
            "cell a highlighted move names (run, refine, put-machine) shows in reverse. On a player "
            "board each Contract requirement shows `+` once delivered and `-` while open; a Tank is "
            "`[..]`."
        ),
    ),
    (N_("# Keys"),),
    (
        N_("| Key | What it does |"),
        "|---|---|",
        N_("| up / down, enter | choose a move from the move list (mouse works too) |"),
        N_(
            "| `:` | type a move in notation, e.g. `buy C-OC#1`, `place 0,0 r1`, `end` (always a "
            "fresh prompt) |"
        ),
        N_("| escape | back to the move list (clears the prompt) |"),
        N_(
            "| arrows, `r`, enter | with a Pipe tile in hand: move, turn and place the ghost tile "
            "(F4 first) |"
        ),
        N_("| enter in the list | with a Pipe tile in hand: place it where the ghost shows |"),
        N_(
            "| `v` | network view: list the Pipelines (segments, value, grade from Crude, Machine); "
            "`∙` marks one |"
        ),
        N_(
            "| `n` | the network view: the network on the whole screen; `z` zooms (tile detail or "
            "overview), Tab picks a Pipeline (value, grade from Crude, Machine), with a tile in "
            "hand it shows what each place would make; escape returns |"
        ),
        N_("| F9 | in the tutorial: leave it, and the game goes on |"),
        N_("| ctrl+z / ctrl+y | undo / redo a move |"),
        N_("| `b` | with a clock: take back the seats the computer plays since their time ran out |"),
        N_(
            "| `h` | a hint: what the strongest computer player would play now, and why (nothing is "
            "played; at a shared table if it was made with hints) |"
        ),
        N_("| `y` `r` / `Y` `R` | replay viewer: next Year / Round, or back |"),
        N_(
            "| F2 F3 F4 F5 | Table, Board, Network, Log (on narrow terminals one view at a time); the "
            "view then has the keys: up / down, pgup / pgdn, home / end scroll it (F2 the Table, "
            "taller than a small screen), escape returns to the move list |"
        ),
        N_("| 1 2 3 4 / 0 | show another player's board and network / back to the player to act |"),
        N_("| F6 | scores (final at the end, a projection before) |"),
        N_(
            "| F7 (or `c` here) | components: every Contract, Order, market row, shop, upgrade and "
            "Valuation card, with its source |"
        ),
        N_(
            "| F8, or a click on the Contracts, Upgrades or Valuation panel | the cards on the "
            "table: pick one to read its full text |"
        ),
        N_("| ctrl+s | save the game under a name |"),
        N_("| ctrl+p | command palette |"),
        N_("| F1 | this help |"),
        N_("| ctrl+q | save and quit |"),
    ),
    (
        N_(
            "Every move is saved to the autosave file in the saves folder as soon as it is made. A "
            "game keeps to its own autosave: if that file holds another game, or a later point of "
            "this one (a game loaded from an earlier save), it is kept and this game autosaves to a "
            "new file."
        ),
    ),
)
"""The help as blocks of lines: lines of a block join with a newline (a list, a table), blocks
with a blank line. The table's rule line is Markdown syntax, the same in every language."""


def help_text() -> str:
    """The F1 help as Markdown in the language spoken now.

    >>> help_text().splitlines()[0]
    '# Pipeline in brief'
    """
    return "\n\n".join("\n".join(_(line) for line in block) for block in HELP_BLOCKS) + "\n"
