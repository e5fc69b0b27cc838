//! `ur_engine.VecEnv`: many games stepped together in Rust, the GIL
//! released, writing into numpy arrays that Python reads without a copy.
//!
//! Each step takes one action per game for the seat to play. Chance is
//! sampled inside the step unless `explicit_chance`, and the opponent's
//! turns are played inside it when there is an opponent bot. A finished game
//! is started again at once: its step reports `done` and its reward, and the
//! observation is already the new game's.

use std::sync::Mutex;

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use ur_bots::net::observe::Observer;
use ur_bots::Bot;
use ur_rules::{ActionSpace, AnyGame, Playable, Side, Turn};

use crate::errors::{illegal, rules_error};
use crate::game::option_pairs;
use crate::table::Table;

/// One game of the batch.
struct Env {
    game: AnyGame,
    /// The decisions open when the outputs were last written (the mask's).
    open: Vec<ur_rules::AnyAction>,
    rng: Xoshiro256PlusPlus,
    /// The opponent, when the learner does not play both seats.
    bot: Option<Box<dyn Bot>>,
    /// The learner's seat when there is a bot (it alternates by game).
    learner: Side,
    games: u64,
}

/// The shape every game of the batch shares.
struct Shape {
    /// Every game's start (cloned: building a game from its rule set reads the rule set again).
    start: AnyGame,
    observer: Observer,
    space: ActionSpace,
    explicit_chance: bool,
    /// A table of the rules, for the exact values.
    oracle: Option<ur_bots::Oracle>,
}

/// Rows of the output arrays for one game.
struct Rows<'a> {
    obs: &'a mut [f32],
    mask: &'a mut [bool],
}

/// Pointers into numpy buffers, handed to worker threads while the GIL is
/// released. Each game writes only its own rows.
#[derive(Clone, Copy)]
struct Buffers {
    obs: *mut f32,
    mask: *mut bool,
    rewards: *mut f32,
    dones: *mut bool,
    players: *mut i8,
    exact: *mut f64,
}
// SAFETY: the buffers outlive the step (the VecEnv owns the arrays), and
// each worker writes the disjoint rows of its own games.
unsafe impl Send for Buffers {}
unsafe impl Sync for Buffers {}

impl Shape {
    /// Plays chance and the opponent until the learner decides or the game ends.
    fn advance(&self, env: &mut Env) {
        loop {
            match env.game.turn() {
                Turn::Over(_) => return,
                Turn::Roll(_) if self.explicit_chance => return,
                Turn::Roll(_) => {
                    env.game.roll_with(&mut env.rng).expect("a roll at a roll");
                }
                Turn::Decide(s) => match &mut env.bot {
                    Some(bot) if s != env.learner => {
                        let a = bot.decide(&env.game);
                        env.game.apply_unchecked(&a);
                    }
                    _ => return,
                },
            }
        }
    }

    fn reset(&self, env: &mut Env) {
        env.games += 1;
        env.learner = if env.games.is_multiple_of(2) { Side::Light } else { Side::Dark };
        env.game = self.start.clone();
        self.advance(env);
    }

    /// The seat whose turn it is (-1 when over).
    fn player(env: &Env) -> i8 {
        match env.game.turn() {
            Turn::Roll(s) | Turn::Decide(s) => s.index() as i8,
            Turn::Over(_) => -1,
        }
    }

    /// The exact win probability of the seat to play, where a table gives one.
    fn exact(&self, env: &Env) -> f64 {
        let (Some(oracle), Some(race)) = (&self.oracle, env.game.as_race()) else { return f64::NAN };
        oracle.game_value(race).unwrap_or(f64::NAN)
    }

    fn write(&self, env: &mut Env, rows: Rows<'_>) {
        self.observer.encode(&env.game, rows.obs);
        rows.mask.fill(false);
        env.open.clear();
        match env.game.turn() {
            Turn::Decide(_) => {
                env.open = env.game.actions();
                for a in &env.open {
                    rows.mask[self.space.index(a)] = true;
                }
            }
            Turn::Roll(_) => {
                for (raw, p) in env.game.outcomes() {
                    if p > 0.0 {
                        rows.mask[usize::from(raw)] = true;
                    }
                }
            }
            Turn::Over(_) => {}
        }
    }

    /// Every open action of game `i` with the kind and observation of the position it leads to.
    fn afterstates(&self, i: usize, env: &Env) -> Vec<(i64, i64, i8, Vec<f32>)> {
        let Turn::Decide(mover) = env.game.turn() else { return Vec::new() };
        let mut out = Vec::new();
        for a in env.game.actions() {
            let mut next = env.game.clone();
            next.apply_unchecked(&a);
            let kind = match next.turn() {
                Turn::Over(Some(w)) if w == mover => 3,
                Turn::Over(Some(_)) => 1,
                Turn::Over(None) => 4,
                Turn::Roll(s) | Turn::Decide(s) if s == mover => 2,
                _ => 1,
            };
            let mut obs = vec![0.0; self.observer.len()];
            self.observer.encode(&next, &mut obs);
            out.push((i as i64, self.space.index(&a) as i64, kind, obs));
        }
        out
    }

    /// Writes game `i`'s observation, mask, reward, end, seat and exact value.
    ///
    /// # Safety
    /// `i` is a game of the batch `b` points into, and no one else writes its rows now.
    unsafe fn publish(&self, env: &mut Env, b: Buffers, i: usize, reward: f32, done: bool) {
        self.write(env, rows(b, i, self.observer.len(), self.space.len()));
        *b.rewards.add(i) = reward;
        *b.dones.add(i) = done;
        *b.players.add(i) = Shape::player(env);
        *b.exact.add(i) = self.exact(env);
    }

    /// Takes `action` in `env`; returns the reward to the seat that acted
    /// and whether the game ended, or why the action is not open.
    fn step(&self, env: &mut Env, action: i64) -> Result<(f32, bool), String> {
        let actor = match env.game.turn() {
            Turn::Roll(s) => {
                let raw = u8::try_from(action).ok().filter(|&r| env.game.outcomes().iter().any(|&(o, p)| o == r && p > 0.0));
                env.game.roll(raw.ok_or_else(|| format!("the dice cannot show {action}"))?).map_err(|e| e.to_string())?;
                s
            }
            Turn::Decide(s) => {
                let chosen = usize::try_from(action).ok().and_then(|i| self.space.find(&env.open, i));
                env.game.apply_unchecked(&chosen.ok_or_else(|| format!("action {action} is not open"))?);
                s
            }
            Turn::Over(_) => return Err("the game is over".into()),
        };
        self.advance(env);
        match env.game.turn() {
            Turn::Over(w) => {
                let seat = if env.bot.is_some() { env.learner } else { actor };
                let reward = w.map_or(0.0, |w| if w == seat { 1.0 } else { -1.0 });
                Ok((reward, true))
            }
            _ => Ok((0.0, false)),
        }
    }
}

/// Many games of one rule set, stepped together.
#[pyclass(module = "ur_engine._ur")]
pub struct VecEnv {
    shape: Shape,
    envs: Mutex<Vec<Env>>,
    pool: rayon::ThreadPool,
    obs: Py<PyArray2<f32>>,
    mask: Py<PyArray2<bool>>,
    rewards: Py<PyArray1<f32>>,
    dones: Py<PyArray1<bool>>,
    players: Py<PyArray1<i8>>,
    exact: Py<PyArray1<f64>>,
    seed: u64,
}

impl VecEnv {
    fn buffers(&self, py: Python<'_>) -> Buffers {
        // SAFETY: the arrays are ours, C-contiguous, and not resized.
        unsafe {
            Buffers {
                obs: self.obs.bind(py).as_slice_mut().expect("contiguous").as_mut_ptr(),
                mask: self.mask.bind(py).as_slice_mut().expect("contiguous").as_mut_ptr(),
                rewards: self.rewards.bind(py).as_slice_mut().expect("contiguous").as_mut_ptr(),
                dones: self.dones.bind(py).as_slice_mut().expect("contiguous").as_mut_ptr(),
                players: self.players.bind(py).as_slice_mut().expect("contiguous").as_mut_ptr(),
                exact: self.exact.bind(py).as_slice_mut().expect("contiguous").as_mut_ptr(),
            }
        }
    }

    /// Runs `f` on every game with its index and rows, in parallel, without the GIL.
    fn each<F>(&mut self, py: Python<'_>, f: F) -> Vec<(usize, String)>
    where
        F: Fn(&Shape, usize, &mut Env, Buffers) -> Result<(), String> + Sync,
    {
        let buffers = self.buffers(py);
        let shape = &self.shape;
        let envs = self.envs.get_mut().expect("not poisoned");
        let pool = &self.pool;
        py.detach(|| {
            pool.install(|| {
                envs.par_iter_mut().enumerate().filter_map(|(i, env)| f(shape, i, env, buffers).err().map(|e| (i, e))).collect()
            })
        })
    }

    fn outputs<'py>(&self, py: Python<'py>) -> (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<bool>>) {
        (self.obs.bind(py).clone(), self.mask.bind(py).clone())
    }
}

/// The rows of game `i` in `b`.
///
/// # Safety
/// `i` is a game of the batch, and no one else writes its rows now.
unsafe fn rows(b: Buffers, i: usize, obs_len: usize, n_actions: usize) -> Rows<'static> {
    Rows {
        obs: std::slice::from_raw_parts_mut(b.obs.add(i * obs_len), obs_len),
        mask: std::slice::from_raw_parts_mut(b.mask.add(i * n_actions), n_actions),
    }
}

#[pymethods]
impl VecEnv {
    /// `num_envs` games of `rules`; `opponent` names a built-in bot that plays
    /// the other seat (None: the learner plays both); `threads` 0 uses every core.
    #[new]
    #[pyo3(signature = (rules = "finkel", num_envs = 64, seed = 0, threads = 0, options = None, opponent = None, explicit_chance = false, table = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        rules: &str,
        num_envs: usize,
        seed: u64,
        threads: usize,
        options: Option<&Bound<'_, pyo3::types::PyDict>>,
        opponent: Option<&str>,
        explicit_chance: bool,
        table: Option<PyRef<'_, Table>>,
    ) -> PyResult<VecEnv> {
        if num_envs == 0 {
            return Err(rules_error("num_envs must be at least 1".into()));
        }
        let options = ur_session::parse_options(&option_pairs(options)?).map_err(|e| rules_error(e.to_string()))?;
        let game = AnyGame::new(rules, &options, Side::Light).map_err(|e| rules_error(e.to_string()))?;
        let oracle = match table {
            None => None,
            Some(t) if t.game_value(&game).is_some() => Some(t.oracle.clone()),
            Some(t) => return Err(rules_error(format!("{} is not a table of these rules", t.__repr__()))),
        };
        let shape =
            Shape { start: game.clone(), observer: Observer::for_game(&game), space: ActionSpace::of(&game), explicit_chance, oracle };
        let mut envs = Vec::with_capacity(num_envs);
        for i in 0..num_envs {
            let env_seed = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(i as u64);
            let bot = match opponent {
                None => None,
                Some(name) => {
                    let bot = ur_bots::make_bot(name, env_seed).map_err(|e| rules_error(e.to_string()))?;
                    bot.check(&game).map_err(|e| rules_error(e.to_string()))?;
                    Some(bot)
                }
            };
            envs.push(Env {
                game: game.clone(),
                open: Vec::new(),
                rng: Xoshiro256PlusPlus::seed_from_u64(env_seed),
                bot,
                learner: Side::Light,
                games: 0,
            });
        }
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| rules_error(e.to_string()))?;
        let (obs_len, n_actions) = (shape.observer.len(), shape.space.len());
        Ok(VecEnv {
            obs: PyArray2::zeros(py, [num_envs, obs_len], false).unbind(),
            mask: PyArray2::zeros(py, [num_envs, n_actions], false).unbind(),
            rewards: PyArray1::zeros(py, num_envs, false).unbind(),
            dones: PyArray1::zeros(py, num_envs, false).unbind(),
            players: PyArray1::zeros(py, num_envs, false).unbind(),
            exact: PyArray1::from_vec(py, vec![f64::NAN; num_envs]).unbind(),
            shape,
            envs: Mutex::new(envs),
            pool,
            seed,
        })
    }

    #[getter]
    fn num_envs(&mut self) -> usize {
        self.envs.get_mut().expect("not poisoned").len()
    }

    #[getter]
    fn num_actions(&self) -> usize {
        self.shape.space.len()
    }

    #[getter]
    fn observation_size(&self) -> usize {
        self.shape.observer.len()
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The observations, `(num_envs, observation_size)` `float32`, rewritten in place by every step.
    #[getter]
    fn observations<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.obs.bind(py).clone()
    }

    /// The open actions, `(num_envs, num_actions)` `bool` (at a chance node: the throws the dice can show).
    #[getter]
    fn masks<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<bool>> {
        self.mask.bind(py).clone()
    }

    /// The last step's rewards, to the seat that acted (to the learner when there is an opponent).
    #[getter]
    fn rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        self.rewards.bind(py).clone()
    }

    /// Whether the last step ended each game (it has started again since).
    #[getter]
    fn dones<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.dones.bind(py).clone()
    }

    /// The seat to play in each game: 0 light, 1 dark.
    #[getter]
    fn players<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        self.players.bind(py).clone()
    }

    /// The exact win probability of the seat to play in each game, from the
    /// `table` given (NaN without one, or at a chance node).
    #[getter]
    fn exact_values<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        self.exact.bind(py).clone()
    }

    /// Starts every game afresh; returns `(observations, masks)`.
    fn reset<'py>(&mut self, py: Python<'py>) -> (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<bool>>) {
        let seed = self.seed;
        self.each(py, |shape, i, env, b| {
            env.rng = Xoshiro256PlusPlus::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(i as u64));
            env.games = 0;
            shape.reset(env);
            // SAFETY: game i's rows are written by this worker only.
            unsafe { shape.publish(env, b, i, 0.0, false) };
            Ok(())
        });
        self.outputs(py)
    }

    /// The positions each open action leads to, before the next throw, for
    /// learners that judge afterstates (TD-Gammon's way). Returns
    /// `(games, actions, observations, kinds)` over every open (game, action)
    /// pair: the game's index, the action's number, the observation of the
    /// position reached (from the seat to play there), and its kind: 1 the
    /// opponent plays next, 2 the mover plays again, 3 the action wins, 4 it
    /// draws (the observation of an ended game is the light seat's view).
    #[allow(clippy::type_complexity)]
    fn afterstates<'py>(
        &mut self,
        py: Python<'py>,
    ) -> (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i64>>, Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<i8>>) {
        let shape = &self.shape;
        let envs = self.envs.get_mut().expect("not poisoned");
        let pool = &self.pool;
        let per_env: Vec<Vec<(i64, i64, i8, Vec<f32>)>> =
            py.detach(|| pool.install(|| envs.par_iter_mut().enumerate().map(|(i, env)| shape.afterstates(i, env)).collect()));
        let rows: Vec<_> = per_env.into_iter().flatten().collect();
        let len = shape.observer.len();
        let mut obs = Vec::with_capacity(rows.len() * len);
        for r in &rows {
            obs.extend_from_slice(&r.3);
        }
        let obs = numpy::ndarray::Array2::from_shape_vec((rows.len(), len), obs).expect("rows of the observation's length");
        (
            PyArray1::from_iter(py, rows.iter().map(|r| r.0)),
            PyArray1::from_iter(py, rows.iter().map(|r| r.1)),
            numpy::PyArray2::from_owned_array(py, obs),
            PyArray1::from_iter(py, rows.iter().map(|r| r.2)),
        )
    }

    /// Takes one action per game (an action number, or at a chance node the
    /// throw); returns `(observations, masks, rewards, dones)`, the same
    /// arrays every time, rewritten in place.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: numpy::PyReadonlyArray1<'py, i64>,
    ) -> PyResult<(Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<bool>>, Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<bool>>)> {
        let actions = actions.as_slice().map_err(|e| illegal(format!("actions: {e}")))?.to_vec();
        let n = self.envs.get_mut().expect("not poisoned").len();
        if actions.len() != n {
            return Err(illegal(format!("{} actions for {n} games: give one per game", actions.len())));
        }
        let errors = self.each(py, |shape, i, env, b| {
            let (reward, done) = shape.step(env, actions[i])?;
            if done {
                shape.reset(env);
            }
            // SAFETY: game i's rows are written by this worker only.
            unsafe { shape.publish(env, b, i, reward, done) };
            Ok(())
        });
        if let Some((i, e)) = errors.first() {
            return Err(illegal(format!(
                "game {i}: {e}; the masks give the open actions ({} games refused, left as they were)",
                errors.len()
            )));
        }
        let (obs, mask) = self.outputs(py);
        Ok((obs, mask, self.rewards.bind(py).clone(), self.dones.bind(py).clone()))
    }
}
