"""The F1 help: the rules in brief (our own summary) and the keys."""

HELP_TEXT = """\
# Pipeline in brief

**Goal.** Have the most money after three Years (8, 6 and 4 Rounds). At the end you also
earn money for refined oil in your Tanks, for your Pipelines, for the Valuation tile and the
three Valuation cards; Penalty markers cost money.

**Setup.** Each player starts with $40 and places 5 free Tanks in the Crude, Low, Mid or High
row of their Tank Farm. A Tank holds 2 barrels of any colour.

**A turn.** In the Work Phase place your worker for one Main Action:

- a **market** (Crude Market, Refined Market 1, 2 or 3): sell first, then buy barrels;
- an **action tile**: Upgrades, Tanks & Pipes, Machines & Pipes, Contracts & Loans
  (these four also let you put your disk on any space of next Round's turn order, pushing a
  disk already there aside; without that you slide to the leftmost free space);
- a **Government** Pipe tile (more adjacent tiles in the same quadrant cost more);
- a tile of **your own Pipe Network**: refine one barrel per Pipeline through that tile.

After a Main Action you may pay $10 for a Secondary Action on the same arm of the cross.
Then the Machine Phase: pay to run every Pipeline attached to your Machines. Contracts and
Orders may be fulfilled between Actions.

**Pipe tiles** are dominoes with three pipes. A new tile must touch your network. A Pipeline is a
chain of same-colour pipe segments; its Refinement Value is its segment count. Refining a barrel
from one grade to a higher one costs the sum of the Refinement Cost markers for its colour along
the steps; the cost must not exceed the Pipeline's value.

**Contracts** pay per barrel delivered (Low $20, Mid $35, High $45); an Active Contract left
unfinished at the end of a Year costs a Penalty marker. When you take a Contract you choose:
**Active** (fulfil it this Year) or **Deferred** (it waits for next Year: no barrels go on it
now, and at the start of next Year it becomes Active; none can be Deferred in Year 3).
**Orders** are fulfilled at once from your Tank Farm. A **Loan** gives $15 and a Penalty marker.

**End of a Round and of a Year.** After the last turn of a Round the next Round's turn order
applies. After the last Round of Years 1 and 2 comes the Refresh Phase: each unfinished Active
Contract is removed with a Penalty marker, Deferred Contracts become Active, the Contracts on
the board slide one column and new ones come in, and the markets, shops and upgrade tokens are
refilled. The table says when each of these happens.

**Upgrades** (5 families per game, $20 each, at most 2 per Action) give lasting benefits.

# Reading the table

On the action cross the four action tiles are in bold (they carry the Turn Order icon) and
workers show as seat numbers in reverse, in the seat's colour (chosen when the game is set up;
names show in it too). Barrels show as letters: **O**range, **T**eal,
**S**ilver, then the grade **C**rude, **L**ow, **M**id, **H**igh (so `TH` is High-Grade Teal).
Market rows list each slot as its price and the barrel in it (`·` = empty). On the network grid
each tile half is a 5 x 3 cell; pipes carry their colour letter, `M` is a Machine and `@` your
worker. Numbers on the rulers are the cells used by `place x,y r0..r3` (half A on x,y; half B
east, south, west or north for r0..r3). The cell a highlighted move names (run, refine,
put-machine) shows in reverse. On a player board each Contract requirement shows `+` once
delivered and `-` while open; a Tank is `[..]`.

# Keys

| Key | What it does |
|---|---|
| up / down, enter | choose a move from the move list (mouse works too) |
| `:` | type a move in notation, e.g. `buy C-OC#1`, `place 0,0 r1`, `end` (always a fresh prompt) |
| escape | back to the move list (clears the prompt) |
| arrows, `r`, enter | with a Pipe tile in hand: move, turn and place the ghost tile (F4 first) |
| enter in the list | with a Pipe tile in hand: place it where the ghost shows |
| `v` | network view: list the Pipelines (segments, value, grade from Crude, Machine); `∙` marks one |
| `n` | the network view: the network on the whole screen; `z` zooms (tile detail or overview), Tab picks a Pipeline (value, grade from Crude, Machine), with a tile in hand it shows what each place would make; escape returns |
| ctrl+z / ctrl+y | undo / redo a move |
| `h` | a hint: what the strongest computer player would play now, and why (nothing is played; at a shared table if it was made with hints) |
| `y` `r` / `Y` `R` | replay viewer: next Year / Round, or back |
| F2 F3 F4 F5 | Table, Board, Network, Log (on narrow terminals one view at a time) |
| 1 2 3 4 / 0 | show another player's board and network / back to the player to act |
| F6 | scores (final at the end, a projection before) |
| F7 (or `c` here) | components: every Contract, Order, market row, shop, upgrade and Valuation card, with its source |
| F8, or a click on the Contracts, Upgrades or Valuation panel | the cards on the table: pick one to read its full text |
| ctrl+s | save the game under a name |
| ctrl+p | command palette |
| F1 | this help |
| ctrl+q | save and quit |

Every move is saved to the autosave file in the saves folder as soon as it is made. A game
keeps to its own autosave: if that file holds another game, or a later point of this one (a
game loaded from an earlier save), it is kept and this game autosaves to a new file.
"""
