//! Callisto's piece placements, compiled: the searches the rules make most
//! often (every placement of the pieces in hand, whether any fits, whether
//! one given placement fits, every column move), on bitmasks of the board's
//! cells.
//!
//! No rule of the game is decided here. The Python rules
//! (gamehost_callisto/rules.py) stay the reference: they build the table
//! this module searches (every orientation of every piece with the anchors
//! that keep it inside the playable area, and the move of each anchor), name
//! the marks that count as free and as a seat's own colour, and check every
//! move a player sends. This module only answers, faster, the questions
//! their `piece_placements`, `some_piece_fits` and `column_placements`
//! answer, with the very move objects of that table, in the same order.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;

/// Words of a cell set: 7 x 64 = 448 bits, room for a 20 x 20 frame and
/// for every shift of a piece's offsets inside it.
const WORDS: usize = 7;
const MAX_CELLS: usize = WORDS * 64;

/// A set of cells, bit i = cell i (cell = y * frame + x), as the Python
/// rules' integers are.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Cells([u64; WORDS]);

impl Cells {
    fn with(cells: impl IntoIterator<Item = usize>) -> Cells {
        let mut set = Cells::default();
        for cell in cells {
            set.0[cell / 64] |= 1 << (cell % 64);
        }
        set
    }

    /// The cells of `board` (one byte a cell) whose mark `table` accepts.
    fn marked(board: &[u8], table: &MarkTable) -> Cells {
        let mut set = Cells::default();
        for (cell, mark) in board.iter().enumerate() {
            if table[*mark as usize] {
                set.0[cell / 64] |= 1 << (cell % 64);
            }
        }
        set
    }

    /// Every cell moved `by` cells down the numbering (Python's `>>`).
    fn down(&self, by: usize) -> Cells {
        let (words, bits) = (by / 64, by % 64);
        let mut moved = Cells::default();
        for index in 0..WORDS - words.min(WORDS) {
            let mut word = self.0[index + words] >> bits;
            if bits > 0 && index + words + 1 < WORDS {
                word |= self.0[index + words + 1] << (64 - bits);
            }
            moved.0[index] = word;
        }
        moved
    }

    /// Every cell moved `by` cells up the numbering (Python's `<<`); cells
    /// moved past the last word fall off, as no board cell lies there.
    fn up(&self, by: usize) -> Cells {
        let (words, bits) = (by / 64, by % 64);
        let mut moved = Cells::default();
        for index in words..WORDS {
            let mut word = self.0[index - words] << bits;
            if bits > 0 && index > words {
                word |= self.0[index - words - 1] >> (64 - bits);
            }
            moved.0[index] = word;
        }
        moved
    }

    fn and(&self, other: &Cells) -> Cells {
        let mut both = *self;
        for (word, other) in both.0.iter_mut().zip(other.0.iter()) {
            *word &= other;
        }
        both
    }

    fn or(&self, other: &Cells) -> Cells {
        let mut either = *self;
        for (word, other) in either.0.iter_mut().zip(other.0.iter()) {
            *word |= other;
        }
        either
    }

    fn is_empty(&self) -> bool {
        self.0.iter().all(|word| *word == 0)
    }

    /// The cells in increasing order.
    fn each(&self, mut visit: impl FnMut(usize)) {
        for (index, word) in self.0.iter().enumerate() {
            let mut rest = *word;
            while rest != 0 {
                visit(index * 64 + rest.trailing_zeros() as usize);
                rest &= rest - 1;
            }
        }
    }
}

type MarkTable = [bool; 256];

fn mark_table(marks: &[u8]) -> MarkTable {
    let mut table = [false; 256];
    for mark in marks {
        table[*mark as usize] = true;
    }
    table
}

/// One orientation of a piece kind: its cells as offsets from the anchor,
/// the anchors that keep it inside the playable area, the move of each.
struct Orientation {
    offsets: Vec<usize>,
    anchors: Cells,
    moves: Vec<Option<Py<PyAny>>>,
}

/// The placements of one player count and piece set, searched on a board
/// given as its marks, one byte a cell in cell order.
#[pyclass(frozen, module = "gamehost_callisto_native")]
struct PlacementTable {
    frame: usize,
    free: MarkTable,
    own: Vec<MarkTable>,
    kinds: Vec<Vec<Orientation>>,
    column_free: MarkTable,
    column_moves: Vec<Option<Py<PyAny>>>,
    not_left_edge: Cells,
    not_right_edge: Cells,
}

impl PlacementTable {
    fn board<'a>(&self, board: &'a [u8]) -> PyResult<&'a [u8]> {
        if board.len() != self.frame * self.frame {
            return Err(PyValueError::new_err(format!(
                "a board of {} cells was given to a table of {} cells",
                board.len(),
                self.frame * self.frame
            )));
        }
        Ok(board)
    }

    fn own(&self, seat: usize) -> PyResult<&MarkTable> {
        self.own
            .get(seat)
            .ok_or_else(|| PyValueError::new_err(format!("no seat {seat} in this table")))
    }

    fn kind(&self, kind: usize) -> PyResult<&Vec<Orientation>> {
        self.kinds
            .get(kind)
            .ok_or_else(|| PyValueError::new_err(format!("no piece kind {kind} in this table")))
    }

    /// The cells sharing a full edge with a cell of `cells`.
    fn edge_neighbours(&self, cells: &Cells) -> Cells {
        cells
            .up(1)
            .and(&self.not_left_edge)
            .or(&cells.down(1).and(&self.not_right_edge))
            .or(&cells.up(self.frame))
            .or(&cells.down(self.frame))
    }

    /// The free cells, and those of them next to the seat's own colour.
    fn free_and_frontier(&self, board: &[u8], seat: usize) -> PyResult<(Cells, Cells)> {
        let free = Cells::marked(board, &self.free);
        let own = Cells::marked(board, self.own(seat)?);
        Ok((free, self.edge_neighbours(&own).and(&free)))
    }

    /// The anchors where `orientation` covers only free cells and at least
    /// one frontier cell.
    fn anchors(orientation: &Orientation, free: &Cells, frontier: &Cells) -> Cells {
        let mut fits = orientation.anchors;
        let mut touches = Cells::default();
        for offset in &orientation.offsets {
            fits = fits.and(&free.down(*offset));
            touches = touches.or(&frontier.down(*offset));
        }
        fits.and(&touches)
    }
}

#[pymethods]
impl PlacementTable {
    /// `frame`: the board's width and height; `free_marks`: the marks of
    /// the cells a piece may cover; `own_marks[seat]`: the marks of a seat's
    /// own colour; `kinds[k][o]`: orientation o of piece kind k, as its
    /// offsets and its (anchor, move) pairs; `column_marks`: the marks of
    /// the cells a column may take; `columns`: the (cell, move) pairs of the
    /// column moves.
    #[new]
    fn new(
        frame: usize,
        free_marks: &[u8],
        own_marks: Vec<Vec<u8>>,
        kinds: Vec<Vec<(Vec<usize>, Vec<(usize, Py<PyAny>)>)>>,
        column_marks: &[u8],
        columns: Vec<(usize, Py<PyAny>)>,
    ) -> PyResult<Self> {
        let cells = frame * frame;
        if frame == 0 || cells > MAX_CELLS {
            return Err(PyValueError::new_err(format!(
                "a frame of {frame} x {frame} cells: 1 to {MAX_CELLS} cells are supported"
            )));
        }
        let mut table = Vec::with_capacity(kinds.len());
        for orientations in kinds {
            let mut found = Vec::with_capacity(orientations.len());
            for (offsets, placements) in orientations {
                let mut moves: Vec<Option<Py<PyAny>>> = (0..cells).map(|_| None).collect();
                let mut anchors = Vec::with_capacity(placements.len());
                for (anchor, placement) in placements {
                    if anchor >= cells || offsets.iter().any(|offset| anchor + offset >= cells) {
                        return Err(PyValueError::new_err(format!(
                            "anchor {anchor} puts a cell off the {frame} x {frame} frame"
                        )));
                    }
                    anchors.push(anchor);
                    moves[anchor] = Some(placement);
                }
                found.push(Orientation { offsets, anchors: Cells::with(anchors), moves });
            }
            table.push(found);
        }
        let mut column_moves: Vec<Option<Py<PyAny>>> = (0..cells).map(|_| None).collect();
        for (cell, column) in columns {
            if cell >= cells {
                return Err(PyValueError::new_err(format!("column cell {cell} is off the {frame} x {frame} frame")));
            }
            column_moves[cell] = Some(column);
        }
        Ok(PlacementTable {
            frame,
            free: mark_table(free_marks),
            own: own_marks.iter().map(|marks| mark_table(marks)).collect(),
            kinds: table,
            column_free: mark_table(column_marks),
            column_moves,
            not_left_edge: Cells::with((0..cells).filter(|cell| cell % frame != 0)),
            not_right_edge: Cells::with((0..cells).filter(|cell| cell % frame != frame - 1)),
        })
    }

    /// The moves placing a piece of `kinds` (indices, in the order to list
    /// them) for `seat` on `board`: every orientation in table order, every
    /// anchor in increasing order.
    fn placements<'py>(
        &self,
        py: Python<'py>,
        board: &[u8],
        seat: usize,
        kinds: Vec<usize>,
    ) -> PyResult<Bound<'py, PyList>> {
        let (free, frontier) = self.free_and_frontier(self.board(board)?, seat)?;
        let mut found: Vec<Py<PyAny>> = Vec::new();
        if !frontier.is_empty() {
            for kind in kinds {
                for orientation in self.kind(kind)? {
                    Self::anchors(orientation, &free, &frontier).each(|anchor| {
                        if let Some(placement) = &orientation.moves[anchor] {
                            found.push(placement.clone_ref(py));
                        }
                    });
                }
            }
        }
        PyList::new(py, found)
    }

    /// Whether `seat` may place a piece of `kinds` on `board` (tried in
    /// the order given).
    fn some_fits(&self, board: &[u8], seat: usize, kinds: Vec<usize>) -> PyResult<bool> {
        let (free, frontier) = self.free_and_frontier(self.board(board)?, seat)?;
        if frontier.is_empty() {
            return Ok(false);
        }
        for kind in kinds {
            for orientation in self.kind(kind)? {
                if !Self::anchors(orientation, &free, &frontier).is_empty() {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// Whether orientation `orientation` of kind `kind` placed at `anchor`
    /// fits for `seat` on `board`: inside the playable area, on free cells
    /// only, sharing an edge with the seat's own colour.
    fn fits(&self, board: &[u8], seat: usize, kind: usize, orientation: usize, anchor: usize) -> PyResult<bool> {
        let (free, frontier) = self.free_and_frontier(self.board(board)?, seat)?;
        let placed = self
            .kind(kind)?
            .get(orientation)
            .ok_or_else(|| PyValueError::new_err(format!("no orientation {orientation} of piece kind {kind}")))?;
        if anchor >= self.frame * self.frame || placed.moves[anchor].is_none() {
            return Ok(false);
        }
        let mut touches = false;
        for offset in &placed.offsets {
            let cell = Cells::with([anchor + offset]);
            if free.and(&cell).is_empty() {
                return Ok(false);
            }
            touches |= !frontier.and(&cell).is_empty();
        }
        Ok(touches)
    }

    /// The column moves on `board`: one per cell a column may take, in
    /// increasing order of cells.
    fn columns<'py>(&self, py: Python<'py>, board: &[u8]) -> PyResult<Bound<'py, PyList>> {
        let mut found: Vec<Py<PyAny>> = Vec::new();
        for (cell, mark) in self.board(board)?.iter().enumerate() {
            if self.column_free[*mark as usize] {
                if let Some(column) = &self.column_moves[cell] {
                    found.push(column.clone_ref(py));
                }
            }
        }
        PyList::new(py, found)
    }
}

#[pymodule]
fn gamehost_callisto_native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<PlacementTable>()?;
    Ok(())
}
