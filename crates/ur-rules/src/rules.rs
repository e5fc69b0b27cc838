//! Compiled rules: the tables move generation works from.

use crate::board::{adjacent, named_path, Board, Cell, PATH_NAMES};
use crate::dice::{DiceModel, Extra, Throw};
use crate::spec::{Options, PathSpec, PotSpec, Problem, RaceSpec, RuleSetFile, SpecError, SquareKind};
use crate::Side;

/// Longest supported path (positions 1..=MAX_PATH; MAX_PATH + 1 is off).
pub const MAX_PATH: usize = 29;
/// Largest move value a throw may give.
pub const MAX_THROW: u8 = 7;
/// Most physical squares a board may have.
pub const MAX_SQUARES: usize = 64;

/// A rule set ready to play: the spec with options applied, compiled into tables.
///
/// # Examples
/// ```
/// use ur_rules::Rules;
/// let rules = Rules::builtin("finkel").unwrap();
/// assert_eq!(rules.path_len(), 14);
/// assert_eq!(rules.pieces(), 7);
/// ```
#[derive(Clone, Debug)]
pub struct Rules {
    pub spec: RaceSpec,
    pub options: Options,
    pub board: Board,
    len: u8,
    /// Physical squares, indexed by square number.
    squares: Vec<Cell>,
    kinds: Vec<SquareKind>,
    /// `path_sq[side][pos]`: the square of a path position (1..=len).
    path_sq: [[u8; MAX_PATH + 2]; 2],
    /// `at_sq[side][square]`: the side's path positions on a square (0 = none).
    at_sq: [[[u8; 2]; MAX_SQUARES]; 2],
    /// Bit `pos`: the position is a rosette that grants the rosette extra roll.
    rosette_mask: [u32; 2],
    /// Bit `pos`: a piece may not pass over this position.
    stop_mask: [u32; 2],
    /// `stop_block[side][v]`: destinations a move of `v` cannot reach
    /// without passing over a compulsory stop.
    stop_block: [[u32; 8]; 2],
    /// Bit `square`: the square holds at most one piece.
    exclusive: u64,
    /// Bit `square`: an opposing piece there cannot be landed on.
    safe: u64,
    /// `sq_bit[side][pos]`: the bit of the position's square when the square
    /// is exclusive; 0 for shared squares and for positions off the path.
    sq_bit: [[u64; 32]; 2],
    /// `own_block[side][pos]`: the side's positions on the square of `pos`
    /// when it is exclusive (a piece there blocks them all), else 0.
    own_block: [[u32; 32]; 2],
    /// `opp_block[side][pos]`: the opponent's positions on the square of
    /// `pos` when it is safe (a piece there blocks them), else 0.
    opp_block: [[u32; 32]; 2],
    throws: Vec<Throw>,
    capture_extra: Extra,
    rosette_extra: Extra,
    eagle_call: u8,
}

impl Rules {
    /// A built-in rule set with its default options.
    ///
    /// # Errors
    /// An unknown id.
    pub fn builtin(id: &str) -> Result<Rules, SpecError> {
        Rules::from_file(&RuleSetFile::builtin(id)?, &Options::new())
    }

    /// A built-in rule set with options.
    ///
    /// # Errors
    /// An unknown id, option or option value.
    pub fn builtin_with(id: &str, options: &Options) -> Result<Rules, SpecError> {
        Rules::from_file(&RuleSetFile::builtin(id)?, options)
    }

    /// Compiles a rule-set file with options.
    ///
    /// # Errors
    /// An unknown option or value, or rules that break an invariant (the error names the field).
    pub fn from_file(file: &RuleSetFile, options: &Options) -> Result<Rules, SpecError> {
        let spec = file.resolve(options)?;
        let options = file.full_options(options)?;
        Rules::compile(spec, options)
    }

    /// The same rules with `pieces` pieces per side.
    ///
    /// # Errors
    /// A piece count the rules cannot take (named birds: at most five).
    pub fn with_pieces(&self, pieces: u8) -> Result<Rules, SpecError> {
        let mut spec = self.spec.clone();
        spec.pieces = pieces;
        let mut options = self.options.clone();
        options.insert("pieces".into(), crate::spec::OptionValue::Int(i64::from(pieces)));
        Rules::compile(spec, options)
    }

    fn compile(spec: RaceSpec, options: Options) -> Result<Rules, SpecError> {
        let id = spec.id.clone();
        let invalid = |field: &str, problem: String| SpecError::Invalid { rules: id.clone(), field: field.into(), problem };
        let problems = |problems: Vec<Problem>| SpecError::Problems { rules: id.clone(), problems };
        let (board, light, dark) = check_geometry(&spec).map_err(problems)?;
        let mut squares: Vec<Cell> = light.iter().chain(&dark).copied().collect();
        squares.sort();
        squares.dedup();
        let kinds: Vec<SquareKind> = squares
            .iter()
            .map(|&c| {
                let base = if board.is_rosette(c) { spec.rosettes.kind } else { SquareKind::Plain };
                spec.squares.iter().rev().find(|s| s.at == c).map_or(base, |s| s.kind)
            })
            .collect();
        let len = light.len() as u8;
        let mut rules = Rules {
            board,
            len,
            kinds,
            path_sq: [[0; MAX_PATH + 2]; 2],
            at_sq: [[[0; 2]; MAX_SQUARES]; 2],
            rosette_mask: [0; 2],
            stop_mask: [0; 2],
            stop_block: [[0; 8]; 2],
            exclusive: 0,
            safe: 0,
            sq_bit: [[0; 32]; 2],
            own_block: [[0; 32]; 2],
            opp_block: [[0; 32]; 2],
            throws: Vec::new(),
            capture_extra: spec.capture_extra_roll,
            rosette_extra: spec.rosettes.extra_roll,
            eagle_call: 0,
            squares,
            options,
            spec,
        };
        let mut found = Vec::new();
        for (side, path) in [(Side::Light, &light), (Side::Dark, &dark)] {
            if let Err(p) = rules.index_path(side, path) {
                found.push(Problem::new(if side == Side::Dark && rules.spec.dark_path.is_some() { "dark_path" } else { "path" }, p));
            }
        }
        match build_throws(&rules.spec) {
            Ok(throws) => rules.throws = throws,
            Err(mut p) => found.append(&mut p),
        }
        if !found.is_empty() {
            return Err(problems(found));
        }
        for (i, k) in rules.kinds.iter().enumerate() {
            if *k != SquareKind::Shared {
                rules.exclusive |= 1 << i;
            }
            if *k == SquareKind::Safe {
                rules.safe |= 1 << i;
            }
        }
        for side in Side::BOTH {
            for pos in 1..=len {
                let sq = rules.square(side, pos);
                let positions = |s: Side| rules.positions_on(s, sq).iter().fold(0u32, |m, &p| m | (1 << p) & !1);
                let (own, opp) = (positions(side), positions(side.other()));
                let (i, p) = (side.index(), pos as usize);
                if rules.is_exclusive(sq) {
                    rules.sq_bit[i][p] = 1 << sq;
                    rules.own_block[i][p] = own;
                }
                if rules.safe >> sq & 1 == 1 {
                    rules.opp_block[i][p] = opp;
                }
            }
        }
        for s in 0..2 {
            for v in 1..8 {
                rules.stop_block[s][v] = (1..v).fold(0, |m, k| m | rules.stop_mask[s] << k);
            }
        }
        rules.eagle_call = rules.check_birds().map_err(|p| invalid("birds", p))?;
        rules.check_finishable()?;
        Ok(rules)
    }

    fn index_path(&mut self, side: Side, path: &[Cell]) -> Result<(), String> {
        let s = side.index();
        for (i, cell) in path.iter().enumerate() {
            let pos = i as u8 + 1;
            let sq = self.squares.binary_search(cell).expect("path cells are squares") as u8;
            self.path_sq[s][pos as usize] = sq;
            let slot = &mut self.at_sq[s][sq as usize];
            if slot[0] == 0 {
                slot[0] = pos;
            } else if slot[1] == 0 {
                slot[1] = pos;
            } else {
                return Err(format!(
                    "square [{}, {}] is visited more than twice; a path may cross a square at most twice",
                    cell.row, cell.col
                ));
            }
            if self.board.is_rosette(*cell) {
                self.rosette_mask[s] |= 1 << pos;
                if self.spec.rosettes.stop {
                    self.stop_mask[s] |= 1 << pos;
                }
            }
        }
        Ok(())
    }

    fn check_birds(&self) -> Result<u8, String> {
        let Some(birds) = &self.spec.birds else { return Ok(0) };
        if usize::from(self.spec.pieces) > birds.names.len() || self.spec.pieces > 5 {
            return Err(format!("{} pieces but only {} named birds (at most 5)", self.spec.pieces, birds.names.len().min(5)));
        }
        let has_zero = self.spec.dice.outcomes().iter().any(|o| o.0 == 0);
        let call = birds.eagle_call_value.unwrap_or(if has_zero { 0 } else { 4 });
        if !self.spec.dice.outcomes().iter().any(|o| o.0 == call) {
            return Err(format!("eagle_call_value {call} cannot be thrown with {}", self.spec.dice.name()));
        }
        Ok(call)
    }

    /// Refuses rules in which a piece somewhere can never come home, so a
    /// game could run forever: for every path position (and the reserve),
    /// some sequence of throws must reach home (L + 1) exactly (bearing off
    /// takes the exact throw), never passing over a compulsory stop.
    /// Entering uses only the throws that may enter (any throw places a
    /// named bird).
    fn check_finishable(&self) -> Result<(), SpecError> {
        let home = self.len + 1;
        let mut values: Vec<u8> = self.throws.iter().map(|t| t.value).filter(|&v| v > 0).collect();
        values.sort_unstable();
        values.dedup();
        let mut entering: Vec<u8> =
            self.throws.iter().filter(|t| t.value > 0 && (t.enter || self.named_pieces())).map(|t| t.value).collect();
        entering.sort_unstable();
        entering.dedup();
        let mut stuck = Vec::new();
        for side in Side::BOTH {
            let mut home_from = [false; MAX_PATH + 2];
            home_from[home as usize] = true;
            for from in (0..=self.len).rev() {
                let moves = if from == 0 { &entering } else { &values };
                home_from[from as usize] = moves.iter().any(|&v| {
                    let to = from + v;
                    to <= home && home_from[to as usize] && !self.stops_between(side, from, to)
                });
                if !home_from[from as usize] && !stuck.contains(&from) {
                    stuck.push(from);
                }
            }
        }
        if stuck.is_empty() {
            return Ok(());
        }
        stuck.sort_unstable();
        let list = |v: &[u8]| v.iter().map(u8::to_string).collect::<Vec<_>>().join(", ");
        let mut detail = if values.is_empty() {
            "no throw moves a piece".to_owned()
        } else {
            format!("bearing off takes the exact throw, and the throws move {}", list(&values))
        };
        if stuck == [0] {
            detail = if entering.is_empty() {
                "no throw may bring a piece onto the board".to_owned()
            } else {
                format!("{detail}; the throws that enter move {}", list(&entering))
            };
        }
        let fix = if values.is_empty() {
            "give some throw a move value above 0 in `throws`".to_owned()
        } else if !values.contains(&1) {
            "let some throw move 1 square (for example throws = [{ raw = 1, value = 1 }]), \
             or change the path length or the throws so that every square is an exact number of throws from home"
                .to_owned()
        } else if stuck == [0] && entering.is_empty() {
            "let some throw enter (enter = true in `throws`)".to_owned()
        } else if stuck == [0] && entering[0] > home {
            format!(
                "let a throw of at most {home} enter (enter = true in `throws`), or make the path at least {} squares long",
                entering[0] - 1
            )
        } else {
            "change the throws, the path or the compulsory stops (rosettes.stop) so that no stop bars every way home".to_owned()
        };
        Err(SpecError::Unfinishable { rules: self.spec.id.clone(), positions: stuck, home, detail, fix })
    }

    /// The rule set's id.
    pub fn id(&self) -> &str {
        &self.spec.id
    }
    /// Path length L: positions 1..=L are on the board, L + 1 is borne off.
    pub fn path_len(&self) -> u8 {
        self.len
    }
    pub fn pieces(&self) -> u8 {
        self.spec.pieces
    }
    pub fn dice(&self) -> DiceModel {
        self.spec.dice
    }
    pub fn pot(&self) -> Option<PotSpec> {
        self.spec.pot
    }
    /// Whether pieces are named birds summoned in order.
    pub fn named_pieces(&self) -> bool {
        self.spec.birds.is_some()
    }
    /// The meaning of a raw outcome, if the dice can show it.
    pub fn throw(&self, raw: u8) -> Option<Throw> {
        self.throws.iter().find(|t| t.raw == raw).copied()
    }
    /// Every throw, with its raw outcome's weight out of `dice().total_weight()`.
    pub fn throws(&self) -> impl Iterator<Item = (Throw, u32)> + '_ {
        self.spec.dice.outcomes().iter().map(|&(raw, w)| (self.throw(raw).expect("every outcome maps"), w))
    }
    /// The raw outcome for a move value, when exactly one raw outcome gives it.
    pub fn raw_for_value(&self, value: u8) -> Result<u8, String> {
        let raws: Vec<u8> = self.throws.iter().filter(|t| t.value == value).map(|t| t.raw).collect();
        match raws.as_slice() {
            [raw] => Ok(*raw),
            [] => Err(format!("no throw moves {value} under {}", self.id())),
            _ => Err(format!("several throws move {value} under {}; give the raw outcome instead", self.id())),
        }
    }
    /// Call roll that summons a bird (`v1-named-birds`).
    pub fn call_value(&self, bird: u8) -> u8 {
        if bird == 5 {
            self.eagle_call
        } else {
            bird
        }
    }
    /// The physical cell of a path position for a side (`pos` in 1..=L).
    pub fn cell(&self, side: Side, pos: u8) -> Cell {
        self.squares[self.square(side, pos) as usize]
    }
    #[inline]
    /// The square number (index into [`Rules::squares`]) of a path position.
    pub fn square(&self, side: Side, pos: u8) -> u8 {
        self.path_sq[side.index()][pos as usize]
    }
    /// The bit of the square at `pos` if it is exclusive, else 0.
    #[inline(always)]
    pub(crate) fn exclusive_bit(&self, side: Side, pos: u8) -> u64 {
        self.sq_bit[side.index()][pos as usize & 31]
    }
    #[inline(always)]
    pub(crate) fn own_block(&self, side: Side, pos: u8) -> u32 {
        self.own_block[side.index()][pos as usize & 31]
    }
    #[inline(always)]
    pub(crate) fn opp_block(&self, side: Side, pos: u8) -> u32 {
        self.opp_block[side.index()][pos as usize & 31]
    }
    #[inline(always)]
    pub(crate) fn stop_block(&self, side: Side, value: u8) -> u32 {
        self.stop_block[side.index()][value as usize & 7]
    }
    #[inline]
    /// The side's path positions on a square (0 = none).
    pub fn positions_on(&self, side: Side, square: u8) -> [u8; 2] {
        self.at_sq[side.index()][square as usize]
    }
    #[inline]
    /// Whether a square holds at most one piece.
    pub fn is_exclusive(&self, square: u8) -> bool {
        self.exclusive >> square & 1 == 1
    }
    pub fn kind(&self, side: Side, pos: u8) -> SquareKind {
        self.kinds[self.square(side, pos) as usize]
    }
    #[inline]
    pub fn is_rosette(&self, side: Side, pos: u8) -> bool {
        self.rosette_mask[side.index()] >> pos & 1 == 1
    }
    #[inline(always)]
    pub(crate) fn stops_between(&self, side: Side, from: u8, to: u8) -> bool {
        let between = (1u32 << (to & 31)) - (2u32 << (from & 31));
        self.stop_mask[side.index()] & between != 0
    }
    pub fn capture_extra(&self) -> Extra {
        self.capture_extra
    }
    pub fn rosette_extra(&self) -> Extra {
        self.rosette_extra
    }
    /// Squares of the board that some path uses, for display.
    pub fn squares(&self) -> &[Cell] {
        &self.squares
    }
    /// Whether a cell is on either path.
    pub fn has_cell(&self, cell: Cell) -> bool {
        self.squares.binary_search(&cell).is_ok()
    }
}

fn resolve_path(spec: &PathSpec) -> Result<Vec<Cell>, String> {
    match spec {
        PathSpec::Named(name) => named_path(name).ok_or_else(|| format!("unknown path '{name}'; use one of {}", PATH_NAMES.join(", "))),
        PathSpec::Cells(cells) => Ok(cells.clone()),
    }
}

/// The board and both paths, each square on the board and each step to a
/// neighbouring square (unless `non_adjacent_steps`); every problem found.
fn check_geometry(spec: &RaceSpec) -> Result<(Board, Vec<Cell>, Vec<Cell>), Vec<Problem>> {
    let mut problems = Vec::new();
    let board = Board::named(&spec.board);
    if board.is_none() {
        problems.push(Problem::new("board", format!("unknown board '{}'; use \"standard\" or \"aseb\"", spec.board)));
    }
    let mut read = |field: &str, path: &PathSpec| resolve_path(path).map_err(|p| problems.push(Problem::new(field, p))).ok();
    let light = read("path", &spec.path);
    let dark = spec.dark_path.as_ref().map(|p| read("dark_path", p));
    let (Some(board), Some(light)) = (board, light) else { return Err(problems) };
    let mut cells_ok = check_path(&board, "path", &light, spec.non_adjacent_steps, &mut problems);
    if light.is_empty() || light.len() > MAX_PATH {
        problems.push(Problem::new("path", format!("has {} squares; allowed: 1 to {MAX_PATH}", light.len())));
    }
    let dark = match dark {
        Some(Some(dark)) => {
            cells_ok &= check_path(&board, "dark_path", &dark, spec.non_adjacent_steps, &mut problems);
            if dark.len() != light.len() {
                let message = format!("has {} squares but path has {}; both sides need paths of the same length", dark.len(), light.len());
                problems.push(Problem::new("dark_path", message));
            }
            dark
        }
        Some(None) => Vec::new(),
        None if cells_ok => light.iter().map(|&c| board.mirror(c)).collect(),
        None => Vec::new(),
    };
    if cells_ok {
        for (i, sq) in spec.squares.iter().enumerate() {
            let field = format!("squares[{}].at", i + 1);
            let cell = format!("[{}, {}]", sq.at.row, sq.at.col);
            if !board.contains(sq.at) {
                problems.push(Problem::new(field, format!("{cell} is not a square of the board ({})", board.shape())));
            } else if !light.contains(&sq.at) && !dark.contains(&sq.at) {
                problems.push(Problem::new(field, format!("{cell} is on neither side's path, so its kind would change nothing")));
            }
        }
    }
    if problems.is_empty() {
        Ok((board, light, dark))
    } else {
        Err(problems)
    }
}

/// Checks one path's squares and steps; whether every square is on the board.
fn check_path(board: &Board, field: &str, path: &[Cell], non_adjacent: bool, problems: &mut Vec<Problem>) -> bool {
    let name = |i: usize| format!("square {} of the path, [{}, {}],", i + 1, path[i].row, path[i].col);
    let mut on_board = true;
    for (i, &cell) in path.iter().enumerate() {
        if !board.contains(cell) {
            on_board = false;
            problems.push(Problem::new(field, format!("{} is not on the board ({})", name(i), board.shape())));
        }
    }
    if !non_adjacent {
        for i in 1..path.len() {
            if !adjacent(path[i - 1], path[i]) {
                let message = format!(
                    "{} does not follow {} (a step goes to the next square in a row or column); \
                     fix the path, or set non_adjacent_steps = true if the jump is intended",
                    name(i),
                    name(i - 1).trim_end_matches(',')
                );
                problems.push(Problem::new(field, message));
            }
        }
    }
    on_board
}

/// The throw of every raw outcome; every problem found.
fn build_throws(spec: &RaceSpec) -> Result<Vec<Throw>, Vec<Problem>> {
    let outcomes = spec.dice.outcomes();
    let mut throws: Vec<Throw> = outcomes.iter().map(|&(raw, _)| Throw { raw, value: raw, extra: Extra::None, enter: true }).collect();
    let mut problems = Vec::new();
    for (i, t) in spec.throws.iter().enumerate() {
        let field = format!("throws[{}].raw", i + 1);
        if let Some(j) = spec.throws[..i].iter().position(|u| u.raw == t.raw) {
            problems.push(Problem::new(field, format!("raw outcome {} is given twice (also in throws[{}])", t.raw, j + 1)));
            continue;
        }
        let Some(slot) = throws.iter_mut().find(|x| x.raw == t.raw) else {
            let shows: Vec<String> = outcomes.iter().map(|o| o.0.to_string()).collect();
            let message = format!("raw outcome {} cannot be thrown with {} (it shows {})", t.raw, spec.dice.name(), shows.join(", "));
            problems.push(Problem::new(field, message));
            continue;
        };
        slot.value = t.value.unwrap_or(slot.value);
        if slot.value > MAX_THROW {
            let message = format!("raw outcome {} moves {}; at most {MAX_THROW} squares are supported", t.raw, slot.value);
            problems.push(Problem::new(format!("throws[{}].value", i + 1), message));
        }
        slot.extra = t.extra;
        slot.enter = t.enter.unwrap_or(true);
    }
    if problems.is_empty() {
        Ok(throws)
    } else {
        Err(problems)
    }
}
