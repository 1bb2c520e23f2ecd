"""The Direwild board editor: one land board entered by touch, checked after every edit.

A player holds the real board beside the tablet and copies it: one tool at a time
(walls, trails, spawns, treasure, entrance, altar), each a large button; walls by tapping
the line between two squares, trails by tracing them with a finger.  After every edit the
board check the rules use runs again and its problems are marked on the board and listed
in words, so a mistake shows where it was made.  Saving is the caller's: the pack editor
passes `on_save`, which stores the board's data and names any problem with it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from kivy.lang import Builder
from kivy.properties import BooleanProperty, DictProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.content.pack import Problem
from companion.games.direwild.view import SLOTS
from companion.ui.editor.board_canvas import BoardCanvas  # noqa: F401 (used in the .kv)
from companion.ui.editor.board_draft import LANDS, BoardDraft
from companion.ui.widgets import BigToggle, Notice, clear_and_fill

Builder.load_file(__file__.replace(".py", ".kv"))

# The tools in the palette, each with the sentence that says what a touch does with it.
TOOLS: dict[str, tuple[str, str]] = {
    "walls": ("Walls", "Tap the line between two squares to add or take away a wall."),
    "trail": (
        "Trails",
        "Trace the {colour} trail with a finger, the way its feet point (a tap takes it away).",
    ),
    "spawn": ("Spawns", "Tap the square of the {colour} spawn."),
    "treasure": ("Treasure", "Tap each treasure location (tap again to take it away)."),
    "entrance": ("Entrance", "Tap the squares that touch the staging area."),
    "altar": ("Altar", "Tap Karn's altar."),
}
LAND_NAMES = {"redmill": "Redmill Fields", "blightwood": "Blightwood", "dungeon": "Karn's Dungeon"}
DIRECTION_NAMES = {"left": "Left", "up": "Up", "right": "Right", "down": "Down"}
SaveBoard = Callable[[dict[str, object]], list[Problem]]


class BoardEditor(BoxLayout):
    """Edits one board's data in memory; `on_save(data)` stores it and returns problems."""

    tool = StringProperty("walls")
    colour = StringProperty("red")
    hint = StringProperty("")
    status = StringProperty("")
    cols_text = StringProperty("")
    rows_text = StringProperty("")
    land = StringProperty("redmill")
    combat = DictProperty({})
    can_undo = BooleanProperty(False)

    def __init__(
        self,
        board: Mapping[str, object] | None = None,
        on_save: SaveBoard | None = None,
        **kwargs: object,
    ) -> None:
        self.draft = BoardDraft(board)
        self.on_save = on_save
        super().__init__(**kwargs)
        self.ids.canvas.draft = self.draft
        self.ids.name_field.text = self.draft.data.get("name", "")
        self._build_palette()
        self.choose_tool("walls")
        self.show()

    # -- the palette ----------------------------------------------------------------------

    def _build_palette(self) -> None:
        tools = []
        for key, (words, _) in TOOLS.items():
            button = BigToggle(text=words, group=f"tool-{id(self)}")
            button.bind(on_release=lambda _b, k=key: self.choose_tool(k))
            tools.append(button)
        clear_and_fill(self.ids.tools, tools)
        colours = []
        for slot in SLOTS:
            button = BigToggle(text=slot.title(), group=f"colour-{id(self)}")
            button.bind(on_release=lambda _b, s=slot: self.choose_colour(s))
            colours.append(button)
        clear_and_fill(self.ids.colours, colours)
        lands = []
        for land in LANDS:
            button = BigToggle(text=LAND_NAMES[land], group=f"land-{id(self)}")
            button.bind(on_release=lambda _b, k=land: self.edit(self.draft.set_land, k))
            lands.append(button)
        clear_and_fill(self.ids.lands, lands)

    def choose_tool(self, tool: str) -> None:
        self.tool = tool
        key = {"spawn": "spawns", "trail": "trails"}.get(tool)
        missing = [slot for slot in SLOTS if key and slot not in self.draft.data[key]]
        if missing:  # the first colour still to place, as the rulebook orders them
            self.colour = missing[0]
        self._say_hint()

    def choose_colour(self, slot: str) -> None:
        self.colour = slot
        self._say_hint()

    def _say_hint(self) -> None:
        self.hint = TOOLS[self.tool][1].format(colour=self.colour)
        for button, key in zip(reversed(self.ids.tools.children), TOOLS, strict=True):
            button.state = "down" if key == self.tool else "normal"
        for button, slot in zip(reversed(self.ids.colours.children), SLOTS, strict=True):
            button.state = "down" if slot == self.colour else "normal"

    # -- edits ----------------------------------------------------------------------------

    def edit(self, change: Callable[..., None], *args: object) -> None:
        """Make one edit to the board, then show it and what the check now finds."""
        change(*args)
        self.status = self.draft.last
        self.show()

    def square_tapped(self, square: str) -> None:
        actions: dict[str, Callable[[], None]] = {
            "spawn": lambda: self.draft.set_spawn(self.colour, square),
            "treasure": lambda: self.draft.toggle_treasure(square),
            "entrance": lambda: self.draft.toggle_entrance(square),
            "altar": lambda: self.draft.set_altar(square),
        }
        if self.tool in actions:
            self.edit(actions[self.tool])
        if self.tool == "spawn" and self.draft.data["spawns"].get(self.colour) == square:
            self._next_colour("spawns")

    def edge_tapped(self, a: str, b: str) -> None:
        self.edit(self.draft.toggle_wall, a, b)

    def edge_missed(self, square: str) -> None:
        self.status = f"No wall: tap nearer the line between {square} and the square beside it."

    def traced(self, squares: list[str]) -> None:
        self.edit(self.draft.set_trail, self.colour, squares)
        if self.colour in self.draft.data["trails"]:
            self._next_colour("trails")

    def _next_colour(self, key: str) -> None:
        """After a spawn or trail is placed, the next colour that has none yet is chosen,
        so copying a board goes red, blue, green, black without a tap between."""
        at = SLOTS.index(self.colour) if self.colour in SLOTS else -1
        after = SLOTS[at + 1 :] + SLOTS[: at + 1]
        missing = [slot for slot in after if slot not in self.draft.data[key]]
        if missing:
            self.choose_colour(missing[0])

    def undo(self) -> None:
        self.draft.undo()
        self.status = self.draft.last
        self.show()

    def name_typed(self, text: str) -> None:
        self.draft.set_name(text)

    def save(self) -> None:
        """Hand the board to the pack's saving; what it finds wrong is said in words."""
        if self.on_save is None:
            self.status = "This board cannot be saved from here."
            return
        problems = self.on_save(self.draft.as_dict())
        if problems:
            self.status = "Kept as a draft until these are fixed: " + "; ".join(
                p.message for p in problems
            )
        else:
            self.status = f"Saved {self.draft.data['name'] or 'the board'}."

    # -- showing --------------------------------------------------------------------------

    def show(self) -> None:
        data = self.draft.data
        self.cols_text, self.rows_text = str(self.draft.cols), str(self.draft.rows)
        self.land = data["land"]
        for button, land in zip(reversed(self.ids.lands.children), LANDS, strict=True):
            button.state = "down" if land == self.land else "normal"
        self.combat = dict(data["combat_square"])
        self.can_undo = self.draft.can_undo
        problems = self.draft.problems()
        canvas = self.ids.canvas
        canvas.problems = problems
        canvas.refresh()
        if problems:
            head = Notice(text=f"{len(problems)} to fix (marked ! on the board):", tone="warn")
            lines = [
                Notice(text=f"{p.message[0].upper()}{p.message[1:]}.", tone="warn")
                for p in problems
            ]
            clear_and_fill(self.ids.problems, [head, *lines])
        else:
            clear_and_fill(
                self.ids.problems,
                [Notice(text="The board check finds nothing wrong.", tone="ok")],
            )

    def combat_words(self, direction: str) -> str:
        return f"{DIRECTION_NAMES[direction]}\n{self.combat.get(direction, '?')}"
