"""The tools' tables for people: 80 columns in every language. No outer border, one space between
columns; a number is never broken (its column is as wide as its widest cell, and its header wraps
between words when the line is short), and a text that does not fit folds onto the next line instead of
losing its end to "…" (Chinese characters are two columns wide, a German word can be long). A table is
as wide as its title (up to 50 columns), so that a short table does not break a short title."""

from __future__ import annotations

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.markup import escape
from rich.table import Table

TITLE_AT_MOST = 50       # a table grows for its title up to this width (a long title wraps instead)
GAP = 2                  # columns per column besides its text: the padding on its right and the separator


class PeopleTable(Table):
    def __init__(self, title: str | None = None, **kwargs) -> None:
        widest = min(cell_len(title), TITLE_AT_MOST) if title else None
        super().__init__(title=escape(title) if title is not None else None, box=box.SIMPLE_HEAD, show_edge=False,
                         padding=(0, 1, 0, 0), min_width=widest, **kwargs)
        self._keep: list[bool] = []
        self._headers: list[str] = []
        self._widest: list[int] = []

    def column(self, header: str, right: bool = False, keep: bool | None = None) -> None:
        """``keep`` (default: a right-aligned column, i.e. numbers): its cells are never broken."""
        self._keep.append(right if keep is None else keep)
        self._headers.append(header)
        self._widest.append(0)
        self.add_column(escape(header), justify="right" if right else "left", overflow="fold")

    def add_row(self, *cells, **kwargs) -> None:
        for i, cell in enumerate(cells):
            if isinstance(cell, str):
                self._widest[i] = max(self._widest[i], cell_len(cell))
        super().add_row(*(escape(c) if isinstance(c, str) else c for c in cells), **kwargs)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """The kept columns' widths: the whole header when everything fits the line, else its longest
        word; the text columns take what is left (Rich folds them)."""
        whole = [max(w, cell_len(h)) for w, h in zip(self._widest, self._headers, strict=True)]
        fits = sum(whole) + GAP * len(whole) <= options.max_width
        for column, kept, cells, header in zip(self.columns, self._keep, self._widest, self._headers, strict=True):
            if kept:
                word = max((cell_len(w) for w in header.split()), default=0)
                column.width = max(cells, cell_len(header) if fits else word)
        yield from super().__rich_console__(console, options)
