//! A static evaluation for race rule sets, learned from solved tables.
//!
//! [`Evaluator::value`] estimates the win probability of the side to move at
//! the start of its turn (before it rolls), the quantity a solved table
//! stores. It is a logistic model over features that mean the same thing on
//! every race rule set (counts are divided by the number of pieces, path
//! positions by the path length), so weights fitted on small solvable games
//! carry over to full-size and unsolvable ones. `docs/bots.md` describes the
//! features and the fit; `ur train-eval` reproduces `weights/race.json`.
//!
//! The file is long but one thing: the features, the weights that read them
//! and the evaluator that computes them change together, feature by feature.

use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};
use ur_rules::{Extra, Options, RuleSetFile, Rules, Side, SquareKind, State, Throw};

use crate::chance::merged_throws;

/// Per-side feature names, in order; the vector holds them for the side to
/// move (`me.`), then for its opponent (`opp.`), then the global ones.
pub const SIDE_FEATURES: [&str; 15] = [
    "off",
    "reserve",
    "progress",
    "progress2",
    "safe_contested",
    "home",
    "danger",
    "danger_progress",
    "capture_any",
    "exposed_progress",
    "extra_chance",
    "pass",
    "pressure",
    "pressure_progress",
    "turns",
];
const PS: usize = SIDE_FEATURES.len();
/// Features after the per-side ones.
pub const GLOBAL_FEATURES: [&str; 8] =
    ["race", "race_turn", "race_pips", "contact", "contact_race", "race_only", "race_only_race", "race_only_turn"];
/// The number of features.
pub const NF: usize = 2 * PS + GLOBAL_FEATURES.len();

/// The format tag of a weights file.
pub const FORMAT: &str = "ur-race-eval-v2";
/// How many pieces beyond its training a specialised model still serves.
/// On `masters` with 7 pieces (trained to 4), its own model extrapolated
/// made `expectimax:2` beat `expectimax:1` 61.4 % of the time, where the
/// generic model made depth hurt (31.9 %).
pub const EXTRAPOLATE_PIECES: u64 = 3;

/// Every feature name, in vector order.
pub fn feature_names() -> Vec<String> {
    let mut names: Vec<String> = Vec::with_capacity(NF);
    for side in ["me", "opp"] {
        names.extend(SIDE_FEATURES.iter().map(|f| format!("{side}.{f}")));
    }
    names.extend(GLOBAL_FEATURES.iter().map(|f| (*f).to_string()));
    names
}

/// Fitted models: `P(win) = 1 / (1 + exp(-(b + w . features)))` with
/// `b = bias + bias_inv_pieces / N` and `w = weights + weights_inv_pieces / N`
/// for rules with `N` pieces per side.
///
/// `bias` and `weights` are the generic model, fitted to every training
/// rule set at once, for any race rules. `rules` holds models specialised to
/// the training rule sets (fitted to that rule set's positions alone, pulled
/// towards the generic weights); a rule set uses its own model when its
/// geometry (paths, squares, dice and extra rolls; any piece count) is the
/// one the model was fitted for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Weights {
    pub format: String,
    pub features: Vec<String>,
    pub bias: f64,
    pub weights: Vec<f64>,
    pub bias_inv_pieces: f64,
    pub weights_inv_pieces: Vec<f64>,
    #[serde(default)]
    pub rules: Vec<RulesWeights>,
    /// How the weights were made: data, settings and measured errors.
    #[serde(default)]
    pub training: serde_json::Value,
}

/// A model specialised to one rule set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RulesWeights {
    pub id: String,
    /// [`geometry_key`] of the rules it was fitted for.
    pub geometry: String,
    /// [`family_key`] of the rules it was fitted for.
    pub family: String,
    pub path_len: u8,
    pub bias: f64,
    pub weights: Vec<f64>,
    pub bias_inv_pieces: f64,
    pub weights_inv_pieces: Vec<f64>,
    /// Weights of the piece-square features ([`Evaluator::square_features`],
    /// `4 * path_len` of them), for models fitted by self-play; empty for
    /// the others.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub squares: Vec<f64>,
}

impl Weights {
    /// The committed weights (`crates/ur-bots/weights/race.json`), or the
    /// weights [`Weights::install`]ed in their place.
    pub fn builtin() -> &'static Weights {
        WEIGHTS.get_or_init(|| {
            let w: Weights = serde_json::from_str(include_str!("../weights/race.json")).expect("weights/race.json parses");
            w.check().expect("weights/race.json matches the features");
            w
        })
    }

    /// Makes `weights` the ones every evaluation built afterwards uses
    /// instead of the committed file (`ur arena --weights FILE`, to measure
    /// a candidate without rebuilding). Call it before any bot is made.
    ///
    /// # Errors
    /// The weights do not fit the features, or weights are already in use.
    pub fn install(weights: Weights) -> Result<(), String> {
        weights.check()?;
        WEIGHTS.set(weights).map_err(|_| "the weights are already in use".to_string())
    }

    /// Adds a model fitted at the rules' piece count (by self-play, or to a
    /// table of the full game) as `id`, its `1/N` terms 0, replacing an
    /// earlier model of that name; `record` (with that `id`) replaces the
    /// earlier one in the array `training.<key>`.
    pub fn put_model(
        &mut self,
        rules: &Rules,
        id: &str,
        (bias, w, squares): (f64, [f64; NF], Vec<f64>),
        key: &str,
        record: serde_json::Value,
    ) {
        self.rules.retain(|r| r.id != id);
        self.rules.push(RulesWeights {
            id: id.to_string(),
            geometry: geometry_key(rules),
            family: family_key(rules),
            path_len: rules.path_len(),
            bias,
            weights: w.to_vec(),
            bias_inv_pieces: 0.0,
            weights_inv_pieces: vec![0.0; NF],
            squares,
        });
        let mut records = self.training.get(key).and_then(|s| s.as_array()).cloned().unwrap_or_default();
        records.retain(|r| r.get("id").and_then(|i| i.as_str()) != Some(id));
        records.push(record);
        match self.training.as_object_mut() {
            Some(t) => {
                t.insert(key.into(), serde_json::Value::Array(records));
            }
            None => self.training = serde_json::json!({ key: records }),
        }
    }

    /// Checks that the weights fit the features this build computes.
    ///
    /// # Errors
    /// Another format, or other features.
    pub fn check(&self) -> Result<(), String> {
        if self.format != FORMAT {
            return Err(format!("weights format '{}' is not '{FORMAT}'", self.format));
        }
        let bad = |w: &[f64], n: &[f64]| w.len() != NF || n.len() != NF;
        if self.features != feature_names()
            || bad(&self.weights, &self.weights_inv_pieces)
            || self.rules.iter().any(|r| bad(&r.weights, &r.weights_inv_pieces))
            || self.rules.iter().any(|r| !r.squares.is_empty() && r.squares.len() != square_feature_count(r.path_len))
        {
            return Err("the weights were fitted for other features; run `ur train-eval` again".into());
        }
        Ok(())
    }

    /// The model for these rules at their piece count: the bias, the
    /// weights, and the rule set whose model it is. Rules use their own
    /// model; rules without one use the model of a rule set of the same
    /// family (the same dice, throws, extra rolls, square kinds and stops:
    /// only the path differs), the one with the nearest path length; other
    /// rules use the generic model.
    ///
    /// A specialised model serves only piece counts near those it was
    /// trained on (see [`Weights::serves`]): fitted to 2 and 3 pieces of
    /// `regency-murray`, its own model played 7 pieces worse than random.
    pub fn model_for(&self, rules: &Rules) -> (f64, [f64; NF], Option<&str>) {
        match self.specialised_for(rules) {
            Some(r) => {
                let (b, w) = at_pieces(r.bias, &r.weights, r.bias_inv_pieces, &r.weights_inv_pieces, rules.pieces());
                (b, w, Some(&r.id))
            }
            None => {
                let (b, w) = self.generic_for(rules.pieces());
                (b, w, None)
            }
        }
    }

    /// The piece-square weights of the model [`Weights::model_for`] picks
    /// (empty for most models).
    pub fn squares_for(&self, rules: &Rules) -> &[f64] {
        self.specialised_for(rules).map_or(&[], |r| &r.squares)
    }

    /// The specialised model for these rules, if one serves (see [`Weights::model_for`]).
    fn specialised_for(&self, rules: &Rules) -> Option<&RulesWeights> {
        let key = geometry_key(rules);
        let pieces = rules.pieces();
        // Of several own models (fitted to tables and by self-play), one not
        // extrapolated past the most pieces it was trained with, then the one
        // trained nearest this piece count; the first on a tie. On
        // `regency-murray` the model of its 2- and 3-piece tables, nearest at
        // 5 pieces, made `expectimax:1` score 5 % against `greedy` there,
        // where the 7-piece self-play model scores 70 %.
        let n = u64::from(pieces);
        let own = self
            .rules
            .iter()
            .filter(|r| r.geometry == key && self.serves(r, pieces))
            .min_by_key(|r| self.trained_pieces(r).map_or((false, 0), |t| (n > t, t.abs_diff(n))));
        let family = family_key(rules);
        let len = i32::from(rules.path_len());
        let kin = || {
            self.rules
                .iter()
                .filter(|r| r.family == family && self.serves(r, pieces) && (i32::from(r.path_len) - len).abs() <= 4)
                .min_by_key(|r| (i32::from(r.path_len) - len).abs())
        };
        own.or_else(kin)
    }

    /// Whether a specialised model may be used at `pieces`: up to
    /// [`EXTRAPOLATE_PIECES`] more than the most pieces it was trained with (its `1/N` terms are
    /// extrapolated beyond them), or any count when that is unrecorded.
    ///
    /// A model fitted by self-play (`ur train-selfplay`, recorded under
    /// `training.self_play`) serves piece counts within
    /// [`EXTRAPOLATE_PIECES`] of the one it was played with, either way.
    pub fn serves(&self, model: &RulesWeights, pieces: u8) -> bool {
        let pieces = u64::from(pieces);
        if let Some(p) = self.fixed_pieces(model) {
            return pieces.abs_diff(p) <= EXTRAPOLATE_PIECES;
        }
        self.trained_pieces(model).is_none_or(|t| pieces <= t + EXTRAPOLATE_PIECES)
    }

    /// The most pieces a specialised model was trained with, if recorded:
    /// its tables' (`training.held_out`), or its self-play games'.
    pub fn trained_pieces(&self, model: &RulesWeights) -> Option<u64> {
        if let Some(p) = self.fixed_pieces(model) {
            return Some(p);
        }
        let held_out = self.training.get("held_out").and_then(|h| h.as_array())?;
        held_out
            .iter()
            .filter(|h| h.get("rules").and_then(|r| r.as_str()).is_some_and(|r| model.id.split('+').any(|id| id == r)))
            .filter_map(|h| h.get("pieces").and_then(serde_json::Value::as_u64))
            .max()
    }

    /// The piece count of a model fitted at one piece count, by self-play
    /// or to a table of the full game (its record in `training.self_play`
    /// or `training.table_fits`).
    fn fixed_pieces(&self, model: &RulesWeights) -> Option<u64> {
        ["self_play", "table_fits"]
            .iter()
            .filter_map(|key| self.training.get(*key).and_then(|h| h.as_array()))
            .flatten()
            .find(|r| r.get("id").and_then(|i| i.as_str()) == Some(model.id.as_str()))
            .and_then(|r| r.get("pieces").and_then(serde_json::Value::as_u64))
    }

    /// The generic model at a piece count.
    pub fn generic_for(&self, pieces: u8) -> (f64, [f64; NF]) {
        at_pieces(self.bias, &self.weights, self.bias_inv_pieces, &self.weights_inv_pieces, pieces)
    }
}

static WEIGHTS: OnceLock<Weights> = OnceLock::new();

/// The number of piece-square features for a path of `len` squares: for
/// the side to move, then its opponent, the pieces on each position, then
/// the same weighted by the chance that the other side's next throw can
/// capture them.
pub fn square_feature_count(len: u8) -> usize {
    4 * usize::from(len)
}

fn at_pieces(bias: f64, w: &[f64], bias_n: f64, w_n: &[f64], pieces: u8) -> (f64, [f64; NF]) {
    let inv = 1.0 / f64::from(pieces.max(1));
    let mut out = [0.0; NF];
    for (o, (a, b)) in out.iter_mut().zip(w.iter().zip(w_n)) {
        *o = a + b * inv;
    }
    (bias + bias_n * inv, out)
}

/// The name of a model fitted to `rules` at their piece count: `ID@N`,
/// followed by the options that differ from the rule set's defaults
/// (`v1-simple@7[dice=D4]`), so that a variant's model never replaces the
/// default game's in a weights file. Rule sets that are not built in list
/// every option.
///
/// # Examples
/// ```
/// use ur_rules::{OptionValue, Options, Rules};
/// let d4: Options = [("dice".to_string(), OptionValue::Text("D4".into()))].into();
/// assert_eq!(ur_bots::eval::model_id(&Rules::builtin("v1-simple").unwrap()), "v1-simple@7");
/// assert_eq!(ur_bots::eval::model_id(&Rules::builtin_with("v1-simple", &d4).unwrap()), "v1-simple@7[dice=D4]");
/// ```
pub fn model_id(rules: &Rules) -> String {
    let defaults = RuleSetFile::builtin(rules.id()).and_then(|f| f.full_options(&Options::new())).ok();
    let changed: Vec<String> = rules
        .options
        .iter()
        .filter(|(k, v)| *k != "pieces" && defaults.as_ref().is_none_or(|d| d.get(*k) != Some(*v)))
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let id = format!("{}@{}", rules.id(), rules.pieces());
    if changed.is_empty() {
        id
    } else {
        format!("{id}[{}]", changed.join(","))
    }
}

/// A hash of what the evaluation's meaning depends on, piece count aside:
/// both paths with their squares' kinds, rosettes and stops, the throws
/// with their weights, and the extra rolls.
pub fn geometry_key(rules: &Rules) -> String {
    let mut text = String::new();
    for side in Side::BOTH {
        for p in 1..=rules.path_len() {
            let c = rules.cell(side, p);
            text += &format!("{},{},{:?},{};", c.row, c.col, rules.kind(side, p), rules.is_rosette(side, p));
        }
        text += "|";
    }
    hash(&format!("{text}{}|{}", family_text(rules), rules.named_pieces()))
}

/// A hash of the rules without their paths and without whether pieces are
/// named: the throws with their weights, the extra rolls, the kinds of the
/// rosettes and other squares, and stops. (`v1-named-birds` is thus of
/// `v1-simple`'s family.)
pub fn family_key(rules: &Rules) -> String {
    let mut kinds: Vec<String> =
        (1..=rules.path_len()).map(|p| format!("{:?}{}", rules.kind(Side::Light, p), rules.is_rosette(Side::Light, p))).collect();
    kinds.sort();
    kinds.dedup();
    hash(&(kinds.join(",") + &family_text(rules)))
}

fn family_text(rules: &Rules) -> String {
    let mut text = String::new();
    for (t, w) in rules.throws() {
        text += &format!("{},{},{:?},{},{w};", t.raw, t.value, t.extra, t.enter);
    }
    text += &format!("|{:?},{:?},{}", rules.capture_extra(), rules.rosette_extra(), rules.spec.rosettes.stop);
    text
}

fn hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Geometry of one side's path, as the features need it. Masks are by path
/// position (bit `pos`).
#[derive(Clone, Debug, Default)]
struct SideGeo {
    /// The other side's positions on the square of each position.
    other_pos: [u32; 32],
    /// A piece here can be captured.
    capturable: u32,
    /// The other side visits this square but cannot capture here.
    safe_contested: u32,
    /// The square holds one piece at most.
    exclusive: u32,
    /// Landing here earns a rosette's extra roll.
    extra_land: u32,
    /// Pieces beyond this position can never be captured.
    last_contested: u8,
    /// Destinations a throw of `v` cannot reach without passing a compulsory stop.
    stop_block: [u32; 8],
    /// Expected turns for a lone piece at each position (0 = reserve) to
    /// bear off, landing exactly, and the variance of that number.
    turns: [f64; 32],
    turns_var: [f64; 32],
    /// Named pieces: expected turns for bird `b` in reserve to be summoned
    /// and borne off (its call roll's chance sets the wait), and their variance.
    summon_turns: [f64; 6],
    summon_var: [f64; 6],
    /// Squares where captures can happen that a piece at each position
    /// (0 = reserve) occupies or will pass, by square bit.
    ahead: [u64; 32],
}

/// The learned evaluation, ready for one rule set.
#[derive(Clone, Debug)]
pub struct Evaluator {
    rules: Arc<Rules>,
    geo: [SideGeo; 2],
    throws: Vec<(Throw, f64)>,
    len: u8,
    pieces: u8,
    inv_n: f64,
    inv_off: f64,
    inv_mean: f64,
    /// `reach2[d]`: the chance that a piece `d` squares behind lands on
    /// the square within two throws (moving it both times).
    reach2: Vec<f64>,
    named: bool,
    capture_extra: bool,
    w: [f64; NF],
    b: f64,
    /// Piece-square weights (empty: none).
    squares: Vec<f64>,
}

impl Evaluator {
    /// The evaluation with the committed weights.
    pub fn new(rules: Arc<Rules>) -> Evaluator {
        Evaluator::with_weights(rules, Weights::builtin())
    }

    /// The evaluation with other weights (they must pass [`Weights::check`]):
    /// the model specialised to the rules if there is one, else the generic one.
    pub fn with_weights(rules: Arc<Rules>, weights: &Weights) -> Evaluator {
        let (b, w, _) = weights.model_for(&rules);
        let squares = weights.squares_for(&rules).to_vec();
        Evaluator::build(rules, b, &w).with_squares(squares)
    }

    /// The evaluation with piece-square weights added (`4 * path_len` of
    /// them, see [`square_feature_count`]; empty for none).
    ///
    /// # Panics
    /// Another number of weights.
    pub fn with_squares(mut self, squares: Vec<f64>) -> Evaluator {
        assert!(squares.is_empty() || squares.len() == square_feature_count(self.len), "piece-square weights for another path");
        self.squares = squares;
        self
    }

    /// The evaluation with the generic model only.
    pub fn generic(rules: Arc<Rules>, weights: &Weights) -> Evaluator {
        let (b, w) = weights.generic_for(rules.pieces());
        Evaluator::build(rules, b, &w)
    }

    /// The evaluation with one model's bias and weights (for this piece count).
    pub fn with_model(rules: Arc<Rules>, bias: f64, weights: &[f64; NF]) -> Evaluator {
        Evaluator::build(rules, bias, weights)
    }

    /// An evaluation with every weight 0, for computing features only.
    pub fn new_unweighted(rules: Arc<Rules>) -> Evaluator {
        Evaluator::build(rules, 0.0, &[0.0; NF])
    }

    fn build(rules: Arc<Rules>, bias: f64, weights: &[f64]) -> Evaluator {
        let mut w = [0.0; NF];
        w.copy_from_slice(weights);
        let len = rules.path_len();
        let throws = merged_throws(&rules);
        let geo = [side_geo(&rules, Side::Light, &throws), side_geo(&rules, Side::Dark, &throws)];
        Evaluator {
            geo,
            len,
            pieces: rules.pieces(),
            inv_n: 1.0 / f64::from(rules.pieces()),
            inv_off: 1.0 / f64::from(len + 1),
            inv_mean: 1.0 / throws.iter().map(|(t, p)| f64::from(t.value) * p).sum::<f64>().max(0.25),
            reach2: reach_in_two(&throws),
            named: rules.named_pieces(),
            capture_extra: rules.capture_extra() != Extra::None,
            throws,
            w,
            b: bias,
            squares: Vec::new(),
            rules,
        }
    }

    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// Positions of `side`'s path where landing earns a rosette's extra roll.
    pub(crate) fn extra_land(&self, side: Side) -> u32 {
        self.geo[side.index()].extra_land
    }

    /// The estimated win probability of the side to move, before it rolls:
    /// exactly 1 or 0 once a side has borne off every piece.
    #[inline]
    pub fn value(&self, st: &State) -> f64 {
        let me = st.to_move();
        if st.off(me) == self.pieces {
            return 1.0;
        }
        if st.off(me.other()) == self.pieces {
            return 0.0;
        }
        let mut f = [0.0; NF];
        self.features(st, &mut f);
        let mut z = self.b + f.iter().zip(&self.w).map(|(x, w)| x * w).sum::<f64>();
        if !self.squares.is_empty() {
            z += self.squares_dot(st);
        }
        1.0 / (1.0 + (-z).exp())
    }

    /// The piece-square features (see [`square_feature_count`]), each
    /// count divided by the number of pieces.
    pub fn square_features(&self, st: &State, out: &mut Vec<f64>) {
        out.clear();
        out.resize(square_feature_count(self.len), 0.0);
        let len = usize::from(self.len);
        let me = st.to_move();
        for (k, side) in [me, me.other()].into_iter().enumerate() {
            let base = 2 * k * len;
            self.for_each_piece(st, side, |p, c, hit| {
                out[base + p - 1] += c * self.inv_n;
                out[base + len + p - 1] += c * hit * self.inv_n;
            });
        }
    }

    /// The piece-square weights' share of the logit.
    fn squares_dot(&self, st: &State) -> f64 {
        let len = usize::from(self.len);
        let me = st.to_move();
        let mut z = 0.0;
        for (k, side) in [me, me.other()].into_iter().enumerate() {
            let w = &self.squares[2 * k * len..2 * (k + 1) * len];
            self.for_each_piece(st, side, |p, c, hit| z += c * self.inv_n * (w[p - 1] + hit * w[len + p - 1]));
        }
        z
    }

    /// Calls `f(position, count, hit)` for each occupied position of
    /// `side`'s path, `hit` being the chance that the other side's next
    /// throw can capture there.
    fn for_each_piece(&self, st: &State, side: Side, mut f: impl FnMut(usize, f64, f64)) {
        let g = &self.geo[side.index()];
        let mut dy = [0u32; 8];
        let mut mask = st.occupied_positions(side);
        if mask & g.capturable != 0 {
            self.destinations(st, side.other(), &mut dy);
        }
        while mask != 0 {
            let p = mask.trailing_zeros();
            mask &= mask - 1;
            if p == 0 || p > u32::from(self.len) {
                continue;
            }
            let c = f64::from(st.count_at(side, p as u8));
            let mut hit = 0.0;
            if g.capturable & (1 << p) != 0 {
                let q = g.other_pos[p as usize];
                for (i, (_, pr)) in self.throws.iter().enumerate() {
                    if dy[i] & q != 0 {
                        hit += pr;
                    }
                }
            }
            f(p as usize, c, hit);
        }
    }

    /// The features of a position, from the side to move's point of view.
    pub fn features(&self, st: &State, f: &mut [f64; NF]) {
        let me = st.to_move();
        let opp = me.other();
        let mut dm = [0u32; 8];
        let mut dy = [0u32; 8];
        self.destinations(st, me, &mut dm);
        self.destinations(st, opp, &mut dy);
        let targets = [self.capture_targets(st, Side::Light), self.capture_targets(st, Side::Dark)];
        let (head, tail) = f.split_at_mut(PS);
        self.side_features(st, me, &dm, &dy, &targets, head);
        self.side_features(st, opp, &dy, &dm, &targets, &mut tail[..PS]);
        let (t_me, v_me) = self.turns(st, me);
        let (t_opp, v_opp) = self.turns(st, opp);
        f[PS - 1] = t_me * self.inv_n / self.geo[me.index()].turns[0];
        f[2 * PS - 1] = t_opp * self.inv_n / self.geo[opp.index()].turns[0];
        let sd = (v_me + v_opp + 0.25).sqrt();
        let race = (t_opp - t_me) / sd;
        let turn = 0.5 / sd;
        let (r_me, r_opp) = (self.pips(st, me), self.pips(st, opp));
        let race_pips = (r_opp - r_me) * self.inv_mean / ((r_me + r_opp) * self.inv_mean + 1.0).sqrt();
        let pairs = self.contact_pairs(st);
        let contact = pairs * self.inv_n * self.inv_n;
        let race_only = f64::from(u8::from(pairs == 0.0));
        f[2 * PS..].copy_from_slice(&[race, turn, race_pips, contact, contact * race, race_only, race_only * race, race_only * turn]);
    }

    /// Expected turns for a side to bear off every piece, one piece at a
    /// time, and its variance.
    fn turns(&self, st: &State, side: Side) -> (f64, f64) {
        let g = &self.geo[side.index()];
        let (mut t, mut v) = if self.named {
            (1..=self.pieces).filter(|&b| st.bird(side, b) == 0).fold((0.0, 0.0), |(t, v), b| {
                let b = usize::from(b);
                (t + g.summon_turns[b], v + g.summon_var[b])
            })
        } else {
            let r = f64::from(st.reserve(side));
            (r * g.turns[0], r * g.turns_var[0])
        };
        let mut mask = st.occupied_positions(side);
        while mask != 0 {
            let p = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let c = f64::from(st.count_at(side, p as u8));
            t += c * g.turns[p];
            v += c * g.turns_var[p];
        }
        (t, v)
    }

    /// Squares a side's pieces have left to run.
    fn pips(&self, st: &State, side: Side) -> f64 {
        let off = u32::from(self.len) + 1;
        let mut r = u32::from(st.reserve(side)) * off;
        let mut mask = st.occupied_positions(side);
        while mask != 0 {
            let p = mask.trailing_zeros();
            mask &= mask - 1;
            r += u32::from(st.count_at(side, p as u8)) * (off - p);
        }
        f64::from(r)
    }

    /// Pairs of opposing pieces (reserve pieces included) that may still
    /// meet: both have a square where one could capture the other ahead of
    /// them (or under them).
    fn contact_pairs(&self, st: &State) -> f64 {
        let (gl, gd) = (&self.geo[0], &self.geo[1]);
        let mut pairs = 0u32;
        let mut lm = st.occupied_positions(Side::Light) | u32::from(st.reserve(Side::Light) > 0);
        let dm = st.occupied_positions(Side::Dark) | u32::from(st.reserve(Side::Dark) > 0);
        let count = |side: Side, p: u32| if p == 0 { u32::from(st.reserve(side)) } else { u32::from(st.count_at(side, p as u8)) };
        while lm != 0 {
            let a = lm.trailing_zeros();
            lm &= lm - 1;
            let ahead = gl.ahead[a as usize];
            let mut m = dm;
            while m != 0 {
                let b = m.trailing_zeros();
                m &= m - 1;
                if ahead & gd.ahead[b as usize] != 0 {
                    pairs += count(Side::Light, a) * count(Side::Dark, b);
                }
            }
        }
        f64::from(pairs)
    }

    /// Where `side` could land with each throw if it were its turn.
    fn destinations(&self, st: &State, side: Side, out: &mut [u32; 8]) {
        if !self.named {
            let mut s = *st;
            s.set_to_move(side);
            for (i, (t, _)) in self.throws.iter().enumerate() {
                out[i] = self.rules.destinations(&s, t);
            }
            return;
        }
        // Named pieces enter by summons, not by throws: moves on the board only.
        let g = &self.geo[side.index()];
        let mask = st.occupied_positions(side);
        let on_path = (2u32 << (self.len + 1)) - 1;
        let own = mask & g.exclusive;
        for (i, (t, _)) in self.throws.iter().enumerate() {
            let v = t.value;
            out[i] = if v == 0 { 0 } else { (mask << v) & on_path & !own & !g.stop_block[v as usize & 7] };
        }
    }

    /// The other side's positions on squares where `side` has a piece that can be captured.
    pub(crate) fn capture_targets(&self, st: &State, side: Side) -> u32 {
        let g = &self.geo[side.index()];
        let mut mask = st.occupied_positions(side) & g.capturable;
        let mut t = 0;
        while mask != 0 {
            let p = mask.trailing_zeros();
            mask &= mask - 1;
            t |= g.other_pos[p as usize];
        }
        t
    }

    fn side_features(&self, st: &State, x: Side, dx: &[u32; 8], dy: &[u32; 8], targets: &[u32; 2], f: &mut [f64]) {
        let y = x.other();
        let g = &self.geo[x.index()];
        let n_off = f64::from(st.off(x));
        let mut progress = n_off;
        let mut progress2 = n_off;
        let (mut safe, mut home, mut danger, mut danger_p, mut exposed) = (0.0, 0.0, 0.0, 0.0, 0.0);
        let (mut pressure, mut pressure_p) = (0.0, 0.0);
        let y_mask = st.occupied_positions(y);
        let y_reserve = st.reserve(y) > 0 && !self.named;
        let mut mask = st.occupied_positions(x);
        while mask != 0 {
            let p = mask.trailing_zeros();
            mask &= mask - 1;
            let c = f64::from(st.count_at(x, p as u8));
            let xp = f64::from(p) * self.inv_off;
            progress += c * xp;
            progress2 += c * xp * xp;
            let bit = 1u32 << p;
            if g.safe_contested & bit != 0 {
                safe += c;
            }
            if p > u32::from(g.last_contested) {
                home += c;
            }
            if g.capturable & bit != 0 {
                let q = g.other_pos[p as usize];
                let mut hit = 0.0;
                for (i, (_, pr)) in self.throws.iter().enumerate() {
                    if dy[i] & q != 0 {
                        hit += pr;
                    }
                }
                danger += c * hit;
                danger_p += c * hit * xp;
                let qmax = 31 - q.leading_zeros();
                if y_reserve || y_mask & ((1u32 << qmax) - 1) != 0 {
                    exposed += c * xp;
                }
                // Attackers within two throws behind.
                let mut s = 0.0;
                let mut qs = q;
                while qs != 0 {
                    let qq = qs.trailing_zeros() as usize;
                    qs &= qs - 1;
                    for d in 1..self.reach2.len().min(qq + 1) {
                        let a = qq - d;
                        let n = if a == 0 {
                            if y_reserve {
                                1.0
                            } else {
                                0.0
                            }
                        } else {
                            f64::from(st.count_at(y, a as u8))
                        };
                        s += n * self.reach2[d];
                    }
                }
                let s = s.min(1.0);
                pressure += c * s;
                pressure_p += c * s * xp;
            }
        }
        let mine = targets[x.index()];
        let theirs = if self.capture_extra { targets[y.index()] } else { 0 };
        let (mut cap_any, mut extra, mut pass) = (0.0, 0.0, 0.0);
        for (i, (t, pr)) in self.throws.iter().enumerate() {
            if dy[i] & mine != 0 {
                cap_any += pr;
            }
            if dx[i] == 0 {
                pass += pr;
            } else if t.extra != Extra::None || dx[i] & (g.extra_land | theirs) != 0 {
                extra += pr;
            }
        }
        let n = self.inv_n;
        f[0] = n_off * n;
        f[1] = f64::from(st.reserve(x)) * n;
        f[2] = progress * n;
        f[3] = progress2 * n;
        f[4] = safe * n;
        f[5] = home * n;
        f[6] = danger * n;
        f[7] = danger_p * n;
        f[8] = cap_any;
        f[9] = exposed * n;
        f[10] = extra;
        f[11] = pass;
        f[12] = pressure * n;
        f[13] = pressure_p * n;
    }
}

/// `P(d)` for one throw plus `P(a) P(d - a)` for two, by distance `d`.
fn reach_in_two(throws: &[(Throw, f64)]) -> Vec<f64> {
    let mut one = [0.0f64; 8];
    for (t, p) in throws {
        if t.value > 0 {
            one[t.value as usize & 7] += p;
        }
    }
    let mut two = vec![0.0; 15];
    for d in 1..15 {
        if d < 8 {
            two[d] += one[d];
        }
        for a in 1..d.min(8) {
            if d - a < 8 {
                two[d] += one[a] * one[d - a];
            }
        }
    }
    two
}

fn side_geo(rules: &Rules, side: Side, throws: &[(Throw, f64)]) -> SideGeo {
    let other = side.other();
    let mut g = SideGeo::default();
    let stops = if rules.spec.rosettes.stop {
        (1..=rules.path_len()).filter(|&p| rules.is_rosette(side, p)).fold(0u32, |m, p| m | 1 << p)
    } else {
        0
    };
    for v in 1..8 {
        g.stop_block[v] = (1..v).fold(0, |m, k| m | stops << k);
    }
    for p in 1..=rules.path_len() {
        let sq = rules.square(side, p);
        let bit = 1u32 << p;
        let theirs = rules.positions_on(other, sq).iter().filter(|&&q| q != 0).fold(0u32, |m, &q| m | 1 << q);
        g.other_pos[p as usize] = theirs;
        let exclusive = rules.is_exclusive(sq);
        if exclusive {
            g.exclusive |= bit;
        }
        if theirs != 0 {
            g.last_contested = p;
            if exclusive && rules.kind(side, p) != SquareKind::Safe {
                g.capturable |= bit;
            } else {
                g.safe_contested |= bit;
            }
        }
        if rules.is_rosette(side, p) && rules.rosette_extra() != Extra::None {
            g.extra_land |= bit;
        }
    }
    lone_piece_turns(rules, &mut g, throws);
    if rules.named_pieces() {
        summon_turns(rules, &mut g, throws);
    }
    // Squares where a piece of either side can be captured.
    let capture_squares = (0..rules.squares().len() as u8)
        .filter(|&sq| {
            let on_both = rules.positions_on(side, sq)[0] != 0 && rules.positions_on(other, sq)[0] != 0;
            let p = rules.positions_on(side, sq)[0];
            on_both && rules.is_exclusive(sq) && rules.kind(side, p) != SquareKind::Safe
        })
        .fold(0u64, |m, sq| m | 1 << sq);
    let mut ahead = 0u64;
    for p in (0..=rules.path_len()).rev() {
        if p > 0 {
            ahead |= 1 << rules.square(side, p);
        }
        g.ahead[p as usize] = ahead & capture_squares;
    }
    g
}

/// Expected turns (and their variance) for each named bird in reserve: a
/// turn per call roll until the bird's number comes and the placement roll
/// puts it on the board (blocking ignored), then its placement square's turns.
fn summon_turns(rules: &Rules, g: &mut SideGeo, throws: &[(Throw, f64)]) {
    let landed: f64 = throws.iter().filter(|(t, _)| t.value > 0).map(|(_, p)| p).sum();
    let (mut after, mut after_sq) = (0.0, 0.0);
    for (t, p) in throws.iter().filter(|(t, _)| t.value > 0) {
        let (tw, vw) = (g.turns[t.value as usize], g.turns_var[t.value as usize]);
        after += p / landed * tw;
        after_sq += p / landed * (vw + tw * tw);
    }
    for b in 1..=rules.pieces().min(5) {
        let call: f64 = throws.iter().filter(|(t, _)| t.value == rules.call_value(b)).map(|(_, p)| p).sum();
        let s = (call * landed).max(1e-9);
        g.summon_turns[b as usize] = 1.0 / s + after;
        g.summon_var[b as usize] = (1.0 - s) / (s * s) + (after_sq - after * after).max(0.0);
    }
}

/// Expected turns (and their variance) for a lone piece to bear off from
/// each position, landing exactly on the square after the last: a throw
/// that cannot move it passes the turn; a move that earns an extra roll
/// (the throw's own or a rosette's) costs no turn. Blocking is ignored.
fn lone_piece_turns(rules: &Rules, g: &mut SideGeo, throws: &[(Throw, f64)]) {
    let off = rules.path_len() + 1;
    for p in (0..off).rev() {
        let (mut stay, mut t, mut s) = (0.0, 0.0, 0.0);
        for (th, pr) in throws {
            let to = p + th.value;
            let blocked = g.stop_block[th.value as usize & 7] >> to & 1 == 1;
            if th.value == 0 || to > off || (p == 0 && !th.enter) || blocked {
                stay += pr;
                continue;
            }
            let free = th.extra != Extra::None || g.extra_land >> to & 1 == 1;
            let cost = if free { 0.0 } else { 1.0 };
            let (tn, sn) = if to == off { (0.0, 0.0) } else { (g.turns[to as usize], g.turns_var[to as usize]) };
            t += pr * (cost + tn);
            // turns_var holds E[T^2] until the end.
            s += pr * (cost * cost + 2.0 * cost * tn + sn);
        }
        let keep = (1.0 - stay).max(1e-9);
        let tp = (t + stay) / keep;
        let sp = (s + stay * (1.0 + 2.0 * tp)) / keep;
        g.turns[p as usize] = tp;
        g.turns_var[p as usize] = sp;
    }
    for p in 0..off as usize {
        g.turns_var[p] = (g.turns_var[p] - g.turns[p] * g.turns[p]).max(0.0);
    }
}
