//! Exact values of small variants of any rule family, over the explicit
//! graph of the situations a game can reach.
//!
//! The race sets have a position index and a layered solver ([`crate::solve`]).
//! The marker and tower games carry more state than a race position (faces,
//! Twins, Warriors, stacks with prisoners, multi-step turns), so here every
//! situation reachable from the start is found by walking the game itself
//! ([`AnyGame::situation_key`] names them), and value iteration (Gauss-Seidel,
//! last found first) runs over that graph: a roll averages its outcomes, a
//! decision takes the best for the side deciding. Values are light's chance
//! to win; a drawn game counts one half.
//!
//! The tower games' T10 rule counts history, which a situation does not hold:
//! they are solved with `no_progress_turns=0` and `repetition_limit=0`, so
//! endless play has no value of its own (value iteration then keeps the
//! starting guess of one half on such cycles, weighted by how likely they are).
//! Ben's simultaneous start hides each side's choice from the other, which one
//! value per situation cannot describe: it is solved with `start_procedure=none`.

use std::collections::{HashMap, VecDeque};
use std::hash::BuildHasherDefault;
use std::io::Read;
use std::path::Path;

use serde::{Deserialize, Serialize};
use ur_rules::{AnyAction, AnyGame, Options, Playable, Side, Turn};
use xxhash_rust::xxh3::Xxh3Default;

type KeyMap = HashMap<Box<[u8]>, u32, BuildHasherDefault<Xxh3Default>>;

/// The file's first bytes.
const MAGIC: &[u8; 8] = b"URGRAPH1";

/// How far to explore and how exactly to solve.
#[derive(Clone, Debug)]
pub struct GraphSettings {
    /// Refuse variants with more situations than this.
    pub max_situations: usize,
    /// Stop when no value changes by more than this in a sweep.
    pub tolerance: f64,
    /// Give up after this many sweeps.
    pub max_sweeps: u32,
}

impl Default for GraphSettings {
    fn default() -> Self {
        GraphSettings { max_situations: 50_000_000, tolerance: 1e-13, max_sweeps: 1_000_000 }
    }
}

/// What the solver is doing, for a progress display.
#[derive(Clone, Copy, Debug)]
pub enum GraphProgress {
    /// Situations found so far, and how many of them are expanded.
    Exploring { found: usize, expanded: usize },
    /// A sweep of value iteration finished with this largest change.
    Sweep { sweep: u32, change: f64 },
}

/// Why a variant cannot be solved or a table read.
#[derive(Debug, thiserror::Error)]
pub enum GraphError {
    #[error("{rules}: T10 counts the game's history, which a solved situation cannot hold; solve with --option no_progress_turns=0 --option repetition_limit=0")]
    HistoryRule { rules: String },
    #[error("bens-ur: the simultaneous start hides each side's jump from the other, which one value per situation cannot describe; solve with --option start_procedure=none")]
    HiddenStart,
    #[error("{rules} has more than {limit} situations under these options; try fewer pieces (markers=, pieces=, tokens_per_player=)")]
    TooBig { rules: String, limit: usize },
    #[error(transparent)]
    Rules(#[from] ur_rules::SpecError),
    #[error("value iteration did not settle in {sweeps} sweeps (last change {change:e})")]
    NotSettled { sweeps: u32, change: f64 },
    #[error("{path}: {why}")]
    File { path: String, why: String },
}

/// A roll, a decision by either side, or the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Chance,
    Decide(Side),
    Over,
}

/// The situations of a variant, numbered as found, with their successors.
struct Graph {
    keys: KeyMap,
    kinds: Vec<Kind>,
    /// The value of an ended game (light's), else one half to start.
    start_values: Vec<f64>,
    /// Successors of situation `i`: `first[i]..first[i + 1]`.
    first: Vec<u32>,
    to: Vec<u32>,
    /// The outcome's probability (rolls only; 0 for decisions).
    probability: Vec<f64>,
}

/// Light's exact chance to win from every situation of a small variant.
pub struct GraphTable {
    header: GraphHeader,
    keys: KeyMap,
    values: Vec<f64>,
}

/// What a table file says of itself.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GraphHeader {
    pub rules: String,
    pub options: Options,
    pub situations: u64,
    /// Light's chance to win from the start, light to roll first.
    pub start_value: f64,
    /// Sweeps of value iteration and the last largest change.
    pub sweeps: u32,
    pub last_change: f64,
}

/// Refuses the options under which a situation does not decide the game's future.
fn check_variant(game: &AnyGame, options: &Options) -> Result<(), GraphError> {
    let given = |name: &str| options.get(name).map(ToString::to_string);
    match game {
        AnyGame::Tower(t) if t.rules().no_progress_turns > 0 || t.rules().repetition_limit > 0 => {
            Err(GraphError::HistoryRule { rules: game.rule_id().into() })
        }
        AnyGame::Bens(_) if given("start_procedure").as_deref() != Some("none") => Err(GraphError::HiddenStart),
        _ => Ok(()),
    }
}

impl Graph {
    /// Every situation reachable from `start`.
    fn explore(start: &AnyGame, settings: &GraphSettings, progress: &mut dyn FnMut(GraphProgress)) -> Result<Graph, GraphError> {
        let mut g = Graph {
            keys: KeyMap::default(),
            kinds: Vec::new(),
            start_values: Vec::new(),
            first: vec![0],
            to: Vec::new(),
            probability: Vec::new(),
        };
        let mut queue = VecDeque::new();
        let mut key = Vec::new();
        g.intern(start.without_history(), &mut key, &mut queue);
        let mut expanded = 0usize;
        while let Some(game) = queue.pop_front() {
            match game.turn() {
                Turn::Roll(_) => {
                    for (raw, p) in game.outcomes() {
                        let mut child = game.clone();
                        child.roll(raw).expect("an outcome of the dice rolls");
                        let id = g.intern(child, &mut key, &mut queue);
                        g.push_edge(id, p);
                    }
                }
                Turn::Decide(_) => {
                    for action in game.actions() {
                        let mut child = game.clone();
                        child.apply_unchecked(&action);
                        let id = g.intern(child, &mut key, &mut queue);
                        g.push_edge(id, 0.0);
                    }
                }
                Turn::Over(_) => {}
            }
            g.first.push(g.to.len() as u32);
            expanded += 1;
            if g.kinds.len() > settings.max_situations {
                return Err(GraphError::TooBig { rules: start.rule_id().into(), limit: settings.max_situations });
            }
            if expanded.is_multiple_of(65_536) {
                progress(GraphProgress::Exploring { found: g.kinds.len(), expanded });
            }
        }
        progress(GraphProgress::Exploring { found: g.kinds.len(), expanded });
        Ok(g)
    }

    /// The number of `game`'s situation, found now or before.
    fn intern(&mut self, game: AnyGame, key: &mut Vec<u8>, queue: &mut VecDeque<AnyGame>) -> u32 {
        game.situation_key(key);
        if let Some(&id) = self.keys.get(key.as_slice()) {
            return id;
        }
        let id = self.kinds.len() as u32;
        self.keys.insert(key.as_slice().into(), id);
        let (kind, value) = match game.turn() {
            Turn::Roll(_) => (Kind::Chance, 0.5),
            Turn::Decide(side) => (Kind::Decide(side), 0.5),
            Turn::Over(winner) => (Kind::Over, winner.map_or(0.5, |w| f64::from(u8::from(w == Side::Light)))),
        };
        self.kinds.push(kind);
        self.start_values.push(value);
        queue.push_back(game);
        id
    }

    fn push_edge(&mut self, to: u32, probability: f64) {
        self.to.push(to);
        self.probability.push(probability);
    }

    /// The value of situation `i` from its successors' values now.
    #[inline]
    fn backup(&self, i: usize, values: &[f64]) -> f64 {
        let edges = self.first[i] as usize..self.first[i + 1] as usize;
        let next = self.to[edges.clone()].iter().map(|&t| values[t as usize]);
        match self.kinds[i] {
            Kind::Over => values[i],
            Kind::Chance => next.zip(&self.probability[edges]).map(|(v, p)| v * p).sum(),
            Kind::Decide(Side::Light) => next.fold(0.0, f64::max),
            Kind::Decide(Side::Dark) => next.fold(1.0, f64::min),
        }
    }

    /// Gauss-Seidel sweeps, last found first, until no value moves by more than the tolerance.
    fn iterate(&self, settings: &GraphSettings, progress: &mut dyn FnMut(GraphProgress)) -> Result<(Vec<f64>, u32, f64), GraphError> {
        let mut values = self.start_values.clone();
        let mut change = f64::INFINITY;
        for sweep in 1..=settings.max_sweeps {
            change = 0.0;
            for i in (0..values.len()).rev() {
                let v = self.backup(i, &values);
                change = f64::max(change, (v - values[i]).abs());
                values[i] = v;
            }
            progress(GraphProgress::Sweep { sweep, change });
            if change <= settings.tolerance {
                return Ok((values, sweep, change));
            }
        }
        Err(GraphError::NotSettled { sweeps: settings.max_sweeps, change })
    }
}

impl GraphTable {
    /// Solves the variant `id` with `options`, from its start with light to roll.
    ///
    /// # Errors
    /// Options under which situations do not decide the future (T10, Ben's
    /// simultaneous start), too many situations, or no convergence.
    pub fn solve(
        id: &str,
        options: &Options,
        settings: &GraphSettings,
        progress: &mut dyn FnMut(GraphProgress),
    ) -> Result<GraphTable, GraphError> {
        let start = AnyGame::new(id, options, Side::Light)?;
        check_variant(&start, options)?;
        let graph = Graph::explore(&start, settings, progress)?;
        let (values, sweeps, last_change) = graph.iterate(settings, progress)?;
        let header = GraphHeader {
            rules: id.into(),
            options: options.clone(),
            situations: values.len() as u64,
            start_value: values[0],
            sweeps,
            last_change,
        };
        Ok(GraphTable { header, keys: graph.keys, values })
    }

    pub fn header(&self) -> &GraphHeader {
        &self.header
    }

    /// A new game of the table's variant, light to roll.
    ///
    /// # Errors
    /// Rules or options this build does not know.
    pub fn new_game(&self) -> Result<AnyGame, ur_rules::SpecError> {
        AnyGame::new(&self.header.rules, &self.header.options, Side::Light)
    }

    /// Light's chance to win from `game`'s situation, if the table has it.
    pub fn light_value(&self, game: &AnyGame) -> Option<f64> {
        let mut key = Vec::new();
        game.situation_key(&mut key);
        self.keys.get(key.as_slice()).map(|&i| self.values[i as usize])
    }

    /// Every open action of `game` (waiting for a decision) with the
    /// decider's chance to win after it, best first; `None` when the table
    /// lacks a successor (another variant's game).
    pub fn action_values(&self, game: &AnyGame) -> Option<Vec<(AnyAction, f64)>> {
        let Turn::Decide(side) = game.turn() else { return Some(Vec::new()) };
        let mut out = Vec::new();
        for action in game.actions() {
            let mut child = game.clone();
            child.apply_unchecked(&action);
            let light = self.light_value(&child)?;
            out.push((action, if side == Side::Light { light } else { 1.0 - light }));
        }
        out.sort_by(|a, b| b.1.total_cmp(&a.1));
        Some(out)
    }

    /// Writes the table: a header line of JSON, then each situation's key and value.
    ///
    /// # Errors
    /// The file cannot be written (it is then untouched).
    pub fn save(&self, path: &Path) -> Result<(), GraphError> {
        let file_error = |e: std::io::Error| GraphError::File { path: path.display().to_string(), why: e.to_string() };
        let header = serde_json::to_vec(&self.header).expect("a header serialises");
        crate::atomic::write_atomic_with(path, |w| {
            w.write_all(MAGIC)?;
            w.write_all(&(header.len() as u32).to_le_bytes())?;
            w.write_all(&header)?;
            let mut order: Vec<(&[u8], u32)> = self.keys.iter().map(|(k, &i)| (&**k, i)).collect();
            order.sort_unstable_by_key(|&(_, i)| i);
            for (key, i) in order {
                w.write_all(&(key.len() as u16).to_le_bytes())?;
                w.write_all(key)?;
                w.write_all(&self.values[i as usize].to_le_bytes())?;
            }
            Ok(())
        })
        .map_err(file_error)
    }

    /// Whether the file at `path` begins as such a table does.
    pub fn is_graph_file(path: &Path) -> bool {
        let mut magic = [0u8; 8];
        std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut magic)).is_ok() && &magic == MAGIC
    }

    /// Reads a table written by [`GraphTable::save`].
    ///
    /// # Errors
    /// The file is missing, is not such a table, or is cut short.
    pub fn open(path: &Path) -> Result<GraphTable, GraphError> {
        let bad = |why: String| GraphError::File { path: path.display().to_string(), why };
        let bytes = std::fs::read(path).map_err(|e| bad(e.to_string()))?;
        let mut r = bytes.as_slice();
        let mut magic = [0u8; 8];
        r.read_exact(&mut magic).map_err(|_| bad("empty or cut short".into()))?;
        if &magic != MAGIC {
            return Err(bad("not a table of a small variant (made by `ur solve` for a marker or tower rule set)".into()));
        }
        let short = |_| bad("cut short; solve the variant again".into());
        let header_len = u32::from_le_bytes(take(&mut r).map_err(short)?) as usize;
        let header: GraphHeader = serde_json::from_slice(r.get(..header_len).ok_or_else(|| bad("cut short in its header".into()))?)
            .map_err(|e| bad(format!("its header does not read: {e}")))?;
        r = &r[header_len..];
        let mut keys = KeyMap::default();
        let mut values = Vec::with_capacity(header.situations as usize);
        for i in 0..header.situations {
            let len = u16::from_le_bytes(take(&mut r).map_err(short)?) as usize;
            let key = r.get(..len).ok_or_else(|| bad("cut short; solve the variant again".into()))?;
            keys.insert(key.into(), i as u32);
            r = &r[len..];
            values.push(f64::from_le_bytes(take(&mut r).map_err(short)?));
        }
        Ok(GraphTable { header, keys, values })
    }
}

/// The next `N` bytes of `r`.
fn take<const N: usize>(r: &mut &[u8]) -> std::io::Result<[u8; N]> {
    let mut b = [0u8; N];
    r.read_exact(&mut b)?;
    Ok(b)
}
