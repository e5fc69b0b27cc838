//! Board geometry: grid cells, named boards and named paths.
//!
//! The light side is SOUTH (its outer row is the bottom row); the dark side's
//! path is the light path mirrored across the middle row.

use serde::{Deserialize, Serialize};

/// One cell of the board grid, `(row, col)`, row 0 at the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(from = "[u8; 2]", into = "[u8; 2]")]
pub struct Cell {
    pub row: u8,
    pub col: u8,
}

impl From<[u8; 2]> for Cell {
    fn from([row, col]: [u8; 2]) -> Self {
        Cell { row, col }
    }
}

impl From<Cell> for [u8; 2] {
    fn from(c: Cell) -> Self {
        [c.row, c.col]
    }
}

const fn c(row: u8, col: u8) -> Cell {
    Cell { row, col }
}

/// A board: grid size, rosettes and the decoration letter of each cell (for display).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub name: &'static str,
    pub rows: u8,
    pub cols: u8,
    pub rosettes: Vec<Cell>,
    /// Decoration letters by row (see docs/rules/bens-ur.md#board-and-path); `-` for no cell.
    pub decorations: Vec<&'static str>,
}

impl Board {
    /// Looks up a named board: `standard` (3 x 8, 20 squares) or `aseb` (3 x 12).
    pub fn named(name: &str) -> Option<Board> {
        match name {
            "standard" => Some(Board {
                name: "standard",
                rows: 3,
                cols: 8,
                rosettes: vec![c(0, 0), c(2, 0), c(1, 3), c(0, 6), c(2, 6)],
                decorations: vec!["REFE--RZ", "TFPRFPEF", "REFE--RZ"],
            }),
            "aseb" => Some(Board {
                name: "aseb",
                rows: 3,
                cols: 12,
                rosettes: vec![c(0, 0), c(2, 0), c(1, 3), c(1, 7), c(1, 11)],
                decorations: vec!["R...--------", "...R...R...R", "R...--------"],
            }),
            _ => None,
        }
    }

    /// Mirrors a cell across the middle row.
    pub fn mirror(&self, cell: Cell) -> Cell {
        Cell { row: self.rows - 1 - cell.row, col: cell.col }
    }

    /// Whether the board has this square: inside the grid and not one of the
    /// missing cells (`-` in the decorations).
    pub fn contains(&self, cell: Cell) -> bool {
        cell.row < self.rows && cell.col < self.cols && self.decoration(cell) != '-'
    }

    /// The board's shape in words, for messages: its grid and missing cells.
    pub fn shape(&self) -> String {
        let missing: Vec<String> = (0..self.rows)
            .flat_map(|row| (0..self.cols).map(move |col| Cell { row, col }))
            .filter(|&cell| !self.contains(cell))
            .map(|cell| format!("[{}, {}]", cell.row, cell.col))
            .collect();
        let grid = format!("rows 0 to {} and columns 0 to {}", self.rows - 1, self.cols - 1);
        if missing.is_empty() {
            format!("the {} board has {grid}", self.name)
        } else {
            format!("the {} board has {grid}, without {}", self.name, missing.join(" "))
        }
    }

    pub fn is_rosette(&self, cell: Cell) -> bool {
        self.rosettes.contains(&cell)
    }

    /// The decoration letter of a cell, `.` when none is known.
    pub fn decoration(&self, cell: Cell) -> char {
        self.decorations.get(cell.row as usize).and_then(|r| r.as_bytes().get(cell.col as usize)).map_or('.', |&b| b as char)
    }
}

/// Whether two cells are neighbours in a row or a column.
pub fn adjacent(a: Cell, b: Cell) -> bool {
    a.row.abs_diff(b.row) + a.col.abs_diff(b.col) == 1
}

/// The light (SOUTH) path of a named path, in order. The dark path is its mirror.
pub fn named_path(name: &str) -> Option<Vec<Cell>> {
    let start = [c(2, 3), c(2, 2), c(2, 1), c(2, 0)];
    let middle = |to: u8| (0..=to).map(|col| c(1, col));
    let back = (0..=6).rev().map(|col| c(1, col));
    let mut p: Vec<Cell> = start.to_vec();
    match name {
        "PATH-14" => {
            p.extend(middle(7));
            p.extend([c(2, 7), c(2, 6)]);
        }
        "PATH-16" => {
            p.extend(middle(6));
            p.extend([c(0, 6), c(0, 7), c(1, 7), c(2, 7), c(2, 6)]);
        }
        "PATH-27" | "PATH-27-ALT" => {
            p.extend(middle(6));
            if name == "PATH-27" {
                p.extend([c(0, 6), c(0, 7), c(1, 7), c(2, 7), c(2, 6)]);
            } else {
                p.extend([c(2, 6), c(2, 7), c(1, 7), c(0, 7), c(0, 6)]);
            }
            p.extend(back);
            p.extend(start.iter().rev());
        }
        "PATH-23" | "PATH-23-ALT" => {
            p.extend(middle(6));
            if name == "PATH-23" {
                p.extend([c(2, 6), c(2, 7), c(1, 7), c(0, 7), c(0, 6)]);
            } else {
                p.extend([c(0, 6), c(0, 7), c(1, 7), c(2, 7), c(2, 6)]);
            }
            p.extend(back);
        }
        "ASEB" => p.extend(middle(11)),
        _ => return None,
    }
    Some(p)
}

/// Names accepted by [`named_path`].
pub const PATH_NAMES: [&str; 7] = ["PATH-14", "PATH-16", "PATH-27", "PATH-27-ALT", "PATH-23", "PATH-23-ALT", "ASEB"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_paths_have_spec_lengths_and_are_orthogonal_chains() {
        let lengths = [14, 16, 27, 27, 23, 23, 16];
        for (name, len) in PATH_NAMES.iter().zip(lengths) {
            let p = named_path(name).unwrap();
            assert_eq!(p.len(), len, "{name}");
            assert!(p.windows(2).all(|w| adjacent(w[0], w[1])), "{name} not a chain");
        }
    }

    #[test]
    fn named_paths_stay_on_their_boards_and_their_mirrors() {
        for name in PATH_NAMES {
            let board = Board::named(if name == "ASEB" { "aseb" } else { "standard" }).unwrap();
            for cell in named_path(name).unwrap() {
                assert!(board.contains(cell) && board.contains(board.mirror(cell)), "{name}: {cell:?}");
            }
        }
    }

    #[test]
    fn the_standard_board_has_twenty_squares() {
        let board = Board::named("standard").unwrap();
        let n = (0..4).flat_map(|row| (0..9).map(move |col| c(row, col))).filter(|&cell| board.contains(cell)).count();
        assert_eq!(n, 20);
        assert!(!board.contains(c(2, 5)) && board.contains(c(2, 6)));
        assert!(board.shape().contains("[2, 5]"), "{}", board.shape());
        let aseb = Board::named("aseb").unwrap();
        assert_eq!((0..3).flat_map(|row| (0..12).map(move |col| c(row, col))).filter(|&cell| aseb.contains(cell)).count(), 20);
    }

    #[test]
    fn path_27_returns_to_entry_square() {
        let p = named_path("PATH-27").unwrap();
        assert_eq!(p[26], c(2, 3));
        assert_eq!(p[11], c(0, 6));
    }
}
