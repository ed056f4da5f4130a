//! The Python module `grimoire.games.zavandor._native`: the engine behind a small handle (`Core`).
//! The Python wrapper (`grimoire/games/zavandor/native.py`) turns it into a full `GameState`.

use crate::batch;
use crate::data::data;
use crate::evaluate;
use crate::heuristic;
use crate::legal::{code_text, Act, BID_BASE};
use crate::mlp::{Dense, Mlp, Scratch};
use crate::rng::Rng;
use crate::search;
use crate::serial;
use crate::state::{Flags, Items, State};
use crate::tensor::{tensor_size, IDS};
use pyo3::buffer::{Element, PyBuffer};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::Arc;

type PyWhy = Option<(String, Option<&'static str>)>;

#[pyclass(module = "grimoire.games.zavandor._native", name = "Core", freelist = 64)]
#[derive(Clone)]
pub struct Core {
    s: State,
}

#[allow(clippy::too_many_arguments)]
/// The table's rule options as Python passes them, one tuple (`native._flags`): strict, combine,
/// sages_dust, druid_l3, free_new_track, whole_dust, turn_limit, max_rounds.
#[derive(FromPyObject)]
struct RuleArgs(bool, bool, bool, bool, bool, bool, i64, Option<i64>);

impl From<RuleArgs> for Flags {
    fn from(a: RuleArgs) -> Flags {
        let RuleArgs(strict, combine, sages_dust, druid_l3, free_new_track, whole_dust, turn_limit, max_rounds) = a;
        Flags { strict, combine, sages_dust, druid_l3, free_new_track, whole_dust, turn_limit, max_rounds }
    }
}

fn items_act(kind: &str, cards: Vec<(i64, i64)>, conc: [i64; 4], dust: i64) -> PyResult<Act> {
    let it = Items { cards, conc, dust };
    match kind {
        "pay" => Ok(Act::Pay(Some(it))),
        "discard" => Ok(Act::Discard(Some(it))),
        _ => Err(PyValueError::new_err("items go with 'pay' or 'discard'")),
    }
}

#[pymethods]
impl Core {
    #[new]
    fn new(players: usize, seed: u64, chars: Option<Vec<i64>>, rules: RuleArgs) -> PyResult<Core> {
        let d = data();
        if !(d.min_players..=d.max_players).contains(&players) {
            return Err(PyValueError::new_err("bad player count"));
        }
        Ok(Core { s: State::new(players, seed, chars.as_deref(), rules.into()) })
    }

    /// A state from the "state" part of a saved game (JSON text); ValueError with the reason.
    #[staticmethod]
    fn load(players: usize, rng: u64, state_json: &str, rules: RuleArgs) -> PyResult<Core> {
        let v: serde_json::Value =
            serde_json::from_str(state_json).map_err(|e| PyValueError::new_err(e.to_string()))?;
        serial::load(players, rng, rules.into(), &v).map(|s| Core { s }).map_err(PyValueError::new_err)
    }

    fn copy(&self) -> Core {
        self.clone()
    }

    fn legal(&self) -> Vec<u32> {
        self.s.legal()
    }

    fn apply_code(&mut self, code: u32) -> PyWhy {
        self.s.apply_code(code)
    }

    fn check_code(&self, code: u32) -> PyWhy {
        match Act::from_code(code) {
            Some(a) => self.s.check_lazy(&a, || code_text(code)),
            None => Some(("cannot read that action".into(), None)),
        }
    }

    fn apply_items(
        &mut self,
        kind: &str,
        cards: Vec<(i64, i64)>,
        conc: [i64; 4],
        dust: i64,
        text: &str,
    ) -> PyResult<PyWhy> {
        let a = items_act(kind, cards, conc, dust)?;
        Ok(self.s.apply(&a, text))
    }

    fn check_items(
        &self,
        kind: &str,
        cards: Vec<(i64, i64)>,
        conc: [i64; 4],
        dust: i64,
        text: &str,
    ) -> PyResult<PyWhy> {
        let a = items_act(kind, cards, conc, dust)?;
        Ok(self.s.check(&a, text))
    }

    #[getter]
    fn current_player(&self) -> Option<usize> {
        self.s.current_player()
    }

    fn is_terminal(&self) -> bool {
        self.s.over
    }

    fn scores(&self) -> Vec<i64> {
        self.s.scores()
    }

    fn winners(&self) -> Vec<usize> {
        self.s.winners()
    }

    #[getter]
    fn round(&self) -> i64 {
        self.s.round
    }

    /// Each seat's character (its index in the data's list): fixed for the game, read without the
    /// Python reference state (the expert's `hard_leaf` asks at every decision).
    #[getter]
    fn characters(&self) -> Vec<usize> {
        (0..self.s.n).map(|j| self.s.players[j].ch).collect()
    }

    #[getter]
    fn revealed(&self) -> i64 {
        self.s.revealed
    }

    #[getter]
    fn rng_state(&self) -> u64 {
        self.s.rng.state
    }

    #[setter]
    fn set_rng_state(&mut self, v: u64) {
        self.s.rng = Rng::from_state(v);
    }

    /// The open auction as the Python state holds it: [item, high bid or None, high bidder, passes].
    #[getter]
    fn auc(&self) -> Option<(usize, Option<i64>, i64, i64)> {
        self.s.auc.map(|a| (a.item, a.high, a.high_seat, a.passed))
    }

    /// The state part of to_dict() (JSON text).
    fn state_json(&self) -> String {
        serial::state_json_string(&self.s)
    }

    /// The game part of the observations (see `State::observe_json`).
    fn observe_json(&self, seats: Vec<usize>) -> String {
        self.s.observe_json(&seats)
    }

    /// A determinization for `seat` and the caller's RNG state afterwards.
    fn sample_hidden(&self, seat: usize, rng_state: u64) -> PyResult<(Core, u64)> {
        if seat >= self.s.n {
            return Err(PyValueError::new_err(format!("no seat {seat}")));
        }
        let mut rng = Rng::from_state(rng_state);
        let c = self.s.sample_hidden(seat, &mut rng);
        Ok((Core { s: c }, rng.state))
    }

    /// Plays to the end with one uniformly random agent per seat (the contract's RandomAgent: seat i's
    /// generator seeded with seat_seeds[i], the action legal[rng.below(len(legal))]); the codes played.
    fn play_random(&mut self, seat_seeds: Vec<u64>) -> PyResult<Vec<u32>> {
        if seat_seeds.len() != self.s.n {
            return Err(PyValueError::new_err("one seed per seat"));
        }
        let mut rngs: Vec<Rng> = seat_seeds.iter().map(|&x| Rng::new(x)).collect();
        let mut played = Vec::with_capacity(1024);
        let mut legal = Vec::with_capacity(64);
        while let Some(seat) = self.s.current_player() {
            self.s.legal_codes(&mut legal);
            let code = legal[rngs[seat].below(legal.len() as u64) as usize];
            self.s.apply_code(code);
            played.push(code);
        }
        Ok(played)
    }

    /// Seconds for `count` clones of this state inside the core (what a native search pays).
    fn time_clones(&self, count: usize) -> f64 {
        let t = std::time::Instant::now();
        let mut keep = self.s.clone();
        for _ in 0..count {
            keep = std::hint::black_box(&self.s).clone();
        }
        std::hint::black_box(keep);
        t.elapsed().as_secs_f64()
    }

    fn __eq__(&self, other: &Core) -> bool {
        self.s == other.s
    }

    /// Writes the observation tensor of `seat` (None: a spectator) into `out` (a writable contiguous
    /// float32 buffer of `tensor_size(players)` numbers), bit for bit the Python tensor.
    #[pyo3(signature = (seat, out))]
    fn tensor_into(&self, seat: Option<usize>, out: &Bound<'_, PyAny>) -> PyResult<()> {
        if seat.is_some_and(|x| x >= self.s.n) {
            return Err(PyValueError::new_err("no such seat"));
        }
        let buf = PyBuffer::<f32>::get(out)?;
        let o = writable(&buf, tensor_size(self.s.n))?;
        self.s.write_tensor(seat, o);
        Ok(())
    }

    /// Writes the legal-id mask (int8 0/1 per id of the action table) into `out`.
    fn mask_into(&self, out: &Bound<'_, PyAny>) -> PyResult<()> {
        let buf = PyBuffer::<i8>::get(out)?;
        let o = writable(&buf, IDS.num)?;
        self.s.write_mask(&self.s.legal(), o);
        Ok(())
    }

    /// The action code of an action id here (None: no such id here).
    fn code_of_id(&self, i: usize) -> Option<u32> {
        self.s.code_of_id(i)
    }
}

/// A writable C-contiguous buffer of at least `len` items, as a slice of exactly `len` (the memory is
/// the exporter's, writable through the buffer protocol: hence a mutable slice from a shared handle).
#[allow(clippy::mut_from_ref)]
fn writable<'a, T: Element>(buf: &'a PyBuffer<T>, len: usize) -> PyResult<&'a mut [T]> {
    if buf.readonly() || !buf.is_c_contiguous() || buf.item_count() < len {
        return Err(PyValueError::new_err(format!(
            "need a writable contiguous buffer of {len} {}",
            std::any::type_name::<T>()
        )));
    }
    // SAFETY: the buffer is writable, contiguous and holds `len` items of T (checked above); the
    // caller keeps the PyBuffer (and so the exporter's memory) alive while the slice is used.
    Ok(unsafe { std::slice::from_raw_parts_mut(buf.buf_ptr() as *mut T, len) })
}

/// Native states addressed by index (`grimoire.games.zavandor.native.StatePool`): a search clones,
/// plays and reads states without a Python object per state. Freed slots are reused.
#[pyclass(module = "grimoire.games.zavandor._native", name = "Pool")]
pub struct PyPool {
    states: Vec<State>,
    free: Vec<usize>,
    live: Vec<bool>,
}

impl PyPool {
    fn get(&self, i: usize) -> PyResult<&State> {
        match self.live.get(i) {
            Some(true) => Ok(&self.states[i]),
            _ => Err(PyValueError::new_err(format!("no state {i} in the pool"))),
        }
    }

    fn get_mut(&mut self, i: usize) -> PyResult<&mut State> {
        match self.live.get(i) {
            Some(true) => Ok(&mut self.states[i]),
            _ => Err(PyValueError::new_err(format!("no state {i} in the pool"))),
        }
    }

    fn put(&mut self, s: State) -> usize {
        match self.free.pop() {
            Some(i) => {
                self.states[i] = s;
                self.live[i] = true;
                i
            }
            None => {
                self.states.push(s);
                self.live.push(true);
                self.states.len() - 1
            }
        }
    }
}

#[pymethods]
impl PyPool {
    #[new]
    fn new() -> PyPool {
        PyPool { states: Vec::new(), free: Vec::new(), live: Vec::new() }
    }

    /// A copy of `core` joins the pool: its index.
    fn add(&mut self, core: PyRef<'_, Core>) -> usize {
        self.put(core.s.clone())
    }

    /// A copy of state `i` joins the pool: its index.
    fn clone(&mut self, i: usize) -> PyResult<usize> {
        let s = self.get(i)?.clone();
        Ok(self.put(s))
    }

    /// Overwrites state `dst` with a copy of state `src` (no new slot).
    fn copy_into(&mut self, src: usize, dst: usize) -> PyResult<()> {
        self.get(dst)?;
        let s = self.get(src)?.clone();
        self.states[dst].clone_from(&s);
        Ok(())
    }

    /// `count` copies of state `i`: their indices.
    fn clone_many(&mut self, i: usize, count: usize) -> PyResult<Vec<usize>> {
        let s = self.get(i)?.clone();
        Ok((0..count).map(|_| self.put(s.clone())).collect())
    }

    /// Frees slot `i` (reused by the next clone).
    fn release(&mut self, i: usize) -> PyResult<()> {
        self.get(i)?;
        self.live[i] = false;
        self.free.push(i);
        Ok(())
    }

    /// Empties the pool.
    fn clear(&mut self) {
        self.states.clear();
        self.live.clear();
        self.free.clear();
    }

    fn __len__(&self) -> usize {
        self.states.len() - self.free.len()
    }

    /// A `Core` holding a copy of state `i`.
    fn core(&self, i: usize) -> PyResult<Core> {
        Ok(Core { s: self.get(i)?.clone() })
    }

    fn legal(&self, i: usize) -> PyResult<Vec<u32>> {
        Ok(self.get(i)?.legal())
    }

    /// Plays an action code on state `i` (the reason, or None).
    fn apply_code(&mut self, i: usize, code: u32) -> PyResult<PyWhy> {
        Ok(self.get_mut(i)?.apply_code(code))
    }

    /// Plays action id `a` (the action table's) on state `i`; the reason when it is not legal.
    fn apply_id(&mut self, i: usize, a: usize) -> PyResult<PyWhy> {
        let s = self.get_mut(i)?;
        let mut legal = Vec::with_capacity(64);
        s.legal_codes(&mut legal);
        let mut mask = vec![0i8; IDS.num];
        s.write_mask(&legal, &mut mask);
        if a >= mask.len() || mask[a] == 0 {
            return Ok(Some((format!("action id {a} is not legal here"), None)));
        }
        let code = s.code_of_id(a).expect("a legal id decodes");
        Ok(s.apply_code(code))
    }

    fn current_player(&self, i: usize) -> PyResult<Option<usize>> {
        Ok(self.get(i)?.current_player())
    }

    fn is_terminal(&self, i: usize) -> PyResult<bool> {
        Ok(self.get(i)?.over)
    }

    fn scores(&self, i: usize) -> PyResult<Vec<i64>> {
        Ok(self.get(i)?.scores())
    }

    fn winners(&self, i: usize) -> PyResult<Vec<usize>> {
        Ok(self.get(i)?.winners())
    }

    #[pyo3(signature = (i, seat, out))]
    fn tensor_into(&self, i: usize, seat: Option<usize>, out: &Bound<'_, PyAny>) -> PyResult<()> {
        let s = self.get(i)?;
        if seat.is_some_and(|x| x >= s.n) {
            return Err(PyValueError::new_err("no such seat"));
        }
        let buf = PyBuffer::<f32>::get(out)?;
        s.write_tensor(seat, writable(&buf, tensor_size(s.n))?);
        Ok(())
    }

    fn mask_into(&self, i: usize, out: &Bound<'_, PyAny>) -> PyResult<()> {
        let s = self.get(i)?;
        let buf = PyBuffer::<i8>::get(out)?;
        s.write_mask(&s.legal(), writable(&buf, IDS.num)?);
        Ok(())
    }

    /// Plays state `i` to the end with uniformly random legal codes from a generator seeded with
    /// `seed` (a playout); the number of actions.
    fn playout(&mut self, i: usize, seed: u64) -> PyResult<usize> {
        let s = self.get_mut(i)?;
        let mut rng = Rng::new(seed);
        let mut legal = Vec::with_capacity(64);
        let mut k = 0;
        while !s.over {
            s.legal_codes(&mut legal);
            let code = legal[rng.below(legal.len() as u64) as usize];
            s.apply_code(code);
            k += 1;
        }
        Ok(k)
    }
}

/// The tensor's length for `players` players.
#[pyfunction]
#[pyo3(name = "tensor_size")]
fn py_tensor_size(players: usize) -> usize {
    tensor_size(players)
}

/// Many games stepped in one call (batch.rs): `grimoire.rl.vector_env` on the native engine.
#[pyclass(module = "grimoire.games.zavandor._native", name = "Batch")]
pub struct PyBatch {
    cfg: batch::Config,
    slots: Vec<batch::Slot>,
}

struct Rows<'a> {
    obs: &'a mut [f32],
    mask: &'a mut [i8],
    rewards: &'a mut [f32],
    terminated: &'a mut [u8],
    truncated: &'a mut [u8],
    to_move: &'a mut [i64],
}

#[pymethods]
impl PyBatch {
    #[new]
    #[pyo3(signature = (num_envs, players, chars, rules, seat, limit, invalid_reward, key_episode, key_opponent))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        num_envs: usize,
        players: usize,
        chars: Option<Vec<i64>>,
        rules: RuleArgs,
        seat: Option<usize>,
        limit: Option<i64>,
        invalid_reward: f64,
        key_episode: u64,
        key_opponent: u64,
    ) -> PyResult<PyBatch> {
        let d = data();
        if !(d.min_players..=d.max_players).contains(&players) || seat.is_some_and(|x| x >= players) {
            return Err(PyValueError::new_err("bad player count or seat"));
        }
        let cfg = batch::Config {
            n: players,
            chars,
            flags: rules.into(),
            seat,
            limit,
            invalid_reward,
            key_episode,
            key_opponent,
        };
        let slots = (0..num_envs).map(|_| batch::Slot::new(&cfg, 0)).collect();
        Ok(PyBatch { cfg, slots })
    }

    #[getter]
    fn obs_size(&self) -> usize {
        tensor_size(self.cfg.n)
    }

    #[getter]
    fn num_actions(&self) -> usize {
        IDS.num
    }

    /// Resets every game: game i plays episode 0 of seed `seeds[i]` (None: each its next episode).
    /// Outputs as in `step`.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (seeds, obs, mask, rewards, terminated, truncated, to_move))]
    fn reset(
        &mut self,
        py: Python<'_>,
        seeds: Option<Vec<u64>>,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
        rewards: &Bound<'_, PyAny>,
        terminated: &Bound<'_, PyAny>,
        truncated: &Bound<'_, PyAny>,
        to_move: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        if seeds.as_ref().is_some_and(|v| v.len() != self.slots.len()) {
            return Err(PyValueError::new_err("one seed per game"));
        }
        self.with_rows(py, obs, mask, rewards, terminated, truncated, to_move, |cfg, slot, i, out| {
            slot.reset(cfg, seeds.as_ref().map(|v| v[i]), out)
        })
    }

    /// One step of every game: `actions` (int64, one id per game) in; observations (float32
    /// [N, size]), masks (int8 [N, ids]), rewards (float32 [N] or [N, players] in self-play),
    /// terminated and truncated (uint8 [N]) and the seat to decide (int64 [N], -1: none) written.
    #[allow(clippy::too_many_arguments)]
    fn step(
        &mut self,
        py: Python<'_>,
        actions: &Bound<'_, PyAny>,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
        rewards: &Bound<'_, PyAny>,
        terminated: &Bound<'_, PyAny>,
        truncated: &Bound<'_, PyAny>,
        to_move: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let abuf = PyBuffer::<i64>::get(actions)?;
        if !abuf.is_c_contiguous() || abuf.item_count() != self.slots.len() {
            return Err(PyValueError::new_err("actions: one int64 id per game"));
        }
        // SAFETY: a contiguous buffer of N int64 (checked), only read while `abuf` lives
        let acts = unsafe { std::slice::from_raw_parts(abuf.buf_ptr() as *const i64, self.slots.len()) };
        self.with_rows(py, obs, mask, rewards, terminated, truncated, to_move, |cfg, slot, i, out| {
            slot.step(cfg, acts[i], out)
        })
    }

    /// Writes into `actions` (int64, one per game) a uniformly random id among each game's masked
    /// ids (0 where none), from a generator seeded with `seed`: random play without Python in the loop.
    fn random_actions(&self, py: Python<'_>, actions: &Bound<'_, PyAny>, seed: u64) -> PyResult<()> {
        let buf = PyBuffer::<i64>::get(actions)?;
        let out = writable(&buf, self.slots.len())?;
        let slots = &self.slots;
        py.allow_threads(move || {
            let mut rng = Rng::new(seed);
            for (slot, a) in slots.iter().zip(out.iter_mut()) {
                *a = slot.ids().random(&mut rng);
            }
        });
        Ok(())
    }

    /// The game seed each game plays now (to replay it: `grimoire.new_game(..., seed)`).
    fn game_seeds(&self) -> Vec<u64> {
        self.slots.iter().map(|s| s.game_seed(&self.cfg)).collect()
    }

    /// A copy of game i's state (a `Core`).
    fn core(&self, i: usize) -> PyResult<Core> {
        self.slots.get(i).map(|s| Core { s: s.s.clone() }).ok_or_else(|| PyValueError::new_err("no such game"))
    }
}

impl PyBatch {
    #[allow(clippy::too_many_arguments)]
    fn with_rows<F>(
        &mut self,
        py: Python<'_>,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
        rewards: &Bound<'_, PyAny>,
        terminated: &Bound<'_, PyAny>,
        truncated: &Bound<'_, PyAny>,
        to_move: &Bound<'_, PyAny>,
        f: F,
    ) -> PyResult<()>
    where
        F: Fn(&batch::Config, &mut batch::Slot, usize, batch::Out) + Send + Sync,
    {
        let n = self.slots.len();
        let size = tensor_size(self.cfg.n);
        let na = IDS.num;
        let nr = if self.cfg.seat.is_some() { 1 } else { self.cfg.n };
        let (b_obs, b_mask, b_rew) =
            (PyBuffer::<f32>::get(obs)?, PyBuffer::<i8>::get(mask)?, PyBuffer::<f32>::get(rewards)?);
        let (b_term, b_trunc, b_tm) =
            (PyBuffer::<u8>::get(terminated)?, PyBuffer::<u8>::get(truncated)?, PyBuffer::<i64>::get(to_move)?);
        let rows = Rows {
            obs: writable(&b_obs, n * size)?,
            mask: writable(&b_mask, n * na)?,
            rewards: writable(&b_rew, n * nr)?,
            terminated: writable(&b_term, n)?,
            truncated: writable(&b_trunc, n)?,
            to_move: writable(&b_tm, n)?,
        };
        let cfg = &self.cfg;
        let slots = &mut self.slots;
        py.allow_threads(move || {
            let Rows { obs, mask, rewards, terminated, truncated, to_move } = rows;
            let it = obs
                .chunks_mut(size)
                .zip(mask.chunks_mut(na))
                .zip(rewards.chunks_mut(nr))
                .zip(terminated.iter_mut().zip(truncated.iter_mut()).zip(to_move.iter_mut()));
            for (i, (((o, m), r), ((te, tr), tm))) in it.enumerate() {
                batch::prefetch_ahead(slots, i);
                let out = batch::Out { obs: o, mask: m, rewards: r, terminated: te, truncated: tr, to_move: tm };
                f(cfg, &mut slots[i], i, out);
            }
        });
        Ok(())
    }
}

/// The constants of the heuristic's `Params` (ai/evaluate.py) as Python passes them, one tuple
/// (`native._params_args`): end_round (7 numbers), sentinel_rounds, sentinel_share, sentinel_extra,
/// denial, tie_income, tie_energy, kappa, and one plan row of 13 numbers per character.
#[derive(FromPyObject)]
struct ParamArgs(Vec<f64>, f64, f64, f64, f64, f64, f64, f64, Vec<[f64; 13]>);

fn params(a: ParamArgs) -> PyResult<evaluate::Params> {
    let end_round: [f64; 7] = a.0.try_into().map_err(|_| PyValueError::new_err("end_round: 7 numbers"))?;
    let plans: Vec<evaluate::Plan> =
        a.8.into_iter()
            .map(|r| evaluate::Plan {
                vp_per_energy: r[0],
                hand_unit: r[1],
                hand_unit_min: r[2],
                hand_unit_max: r[3],
                gem_spend: r[4],
                sink_rate: r[5],
                art_rate: r[6],
                art_budget: r[7],
                art_share: r[8],
                sentinel_surcharge: r[9],
                payback: r[10],
                advance_first: r[11] != 0.0, // round_plan starts with "advance"
                fire_step: r[12],
            })
            .collect();
    let plans: [evaluate::Plan; 6] = plans.try_into().map_err(|_| PyValueError::new_err("one plan per character"))?;
    Ok(evaluate::Params {
        end_round,
        sentinel_rounds: a.1,
        sentinel_share: a.2,
        sentinel_extra: a.3,
        denial: a.4,
        tie_income: a.5,
        tie_energy: a.6,
        kappa: a.7,
        plans,
    })
}

/// The medium/easy heuristic (`ai/heuristic.py`) with its memory: the Python glue passes the
/// constants of its `Params` (ai/evaluate.py) and the agent's RNG state in and out.
#[pyclass(module = "grimoire.games.zavandor._native", name = "Policy", unsendable)]
pub struct PyPolicy {
    p: heuristic::Policy,
}

#[pymethods]
impl PyPolicy {
    #[new]
    fn new(prm: ParamArgs, noise: f64, bid_noise: f64, lookahead: bool) -> PyResult<PyPolicy> {
        let prm = params(prm)?;
        Ok(PyPolicy { p: heuristic::Policy::new(prm, noise, bid_noise, lookahead) })
    }

    /// The action code the heuristic plays on the determinization `core` (legal codes `actions`,
    /// `last`: the code of the last action or -1), and the agent's RNG state afterwards.
    #[pyo3(signature = (core, seat, actions, last, rng_state))]
    fn decide(
        &mut self,
        core: PyRef<'_, Core>,
        seat: usize,
        actions: Option<Vec<u32>>,
        last: i64,
        rng_state: u64,
    ) -> PyResult<(u32, u64)> {
        // (None: the legal actions of the determinization, which are the deciding seat's own)
        let actions = actions.unwrap_or_else(|| core.s.legal());
        if actions.is_empty() || core.s.current_player() != Some(seat) {
            return Err(PyValueError::new_err("the heuristic decides for the current player, who must have actions"));
        }
        self.p.rng = Rng::from_state(rng_state);
        let code = self.p.decide(&core.s, seat, &actions, last);
        Ok((code, self.p.rng.state))
    }

    /// Forget the memory (the bid-limit cache, the turn guard): the next decision is a new policy's.
    fn forget(&mut self) {
        self.p.forget();
    }

    /// The whole `HeuristicAgent.choose` in the core: the legal actions (one: played without a
    /// draw), a determinization for `seat` from the agent's RNG, the decision on it.
    fn choose(&mut self, core: PyRef<'_, Core>, seat: usize, last: i64, rng_state: u64) -> PyResult<(u32, u64)> {
        let actions = core.s.legal();
        if actions.is_empty() || core.s.current_player() != Some(seat) {
            return Err(PyValueError::new_err("the heuristic decides for the current player, who must have actions"));
        }
        if actions.len() == 1 {
            return Ok((actions[0], rng_state));
        }
        let mut rng = Rng::from_state(rng_state);
        let det = core.s.sample_hidden(seat, &mut rng);
        self.p.rng = rng;
        let code = self.p.decide(&det, seat, &actions, last);
        Ok((code, self.p.rng.state))
    }
}

/// The hard level (`ai/search.py`'s hooks on the generic IS-MCTS) with the hooks' memory.
#[pyclass(module = "grimoire.games.zavandor._native", name = "Search", unsendable)]
pub struct PySearch {
    hooks: search::Hooks,
}

#[pymethods]
impl PySearch {
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        prm: ParamArgs,
        top_k: usize,
        scale: f64,
        clear_gap: f64,
        bid_band: f64,
        h_rng: u64,
        rng: u64,
    ) -> PyResult<PySearch> {
        let prm = params(prm)?;
        let cfg = search::SearchConfig { top_k, scale, clear_gap, bid_band, widen: None, round_horizon: false };
        Ok(PySearch { hooks: search::Hooks::new(cfg, prm, h_rng, rng) })
    }

    /// `ISMCTSAgent.choose` with these hooks: (code, the agent's RNG state, iterations, shortcut taken).
    /// `cpu_clock`: the time limit counts this thread's CPU seconds instead of wall seconds.
    /// `mode`: (top_k, widen, round_horizon, clear_gap) for this decision and the next ones (the
    /// hooks' search mode, `ai/search.py`); None keeps the current one.
    #[pyo3(signature = (core, seat, last, rng_state, iterations, time_limit, c, cpu_clock=false, mode=None))]
    #[allow(clippy::too_many_arguments)]
    fn choose(
        &mut self,
        core: PyRef<'_, Core>,
        seat: usize,
        last: i64,
        rng_state: u64,
        iterations: Option<i64>,
        time_limit: Option<f64>,
        c: f64,
        cpu_clock: bool,
        mode: Option<(usize, Option<(f64, f64)>, bool, f64)>,
    ) -> PyResult<(u32, u64, i64, bool)> {
        if let Some((top_k, widen, round_horizon, clear_gap)) = mode {
            let cfg = &mut self.hooks.cfg;
            (cfg.top_k, cfg.widen, cfg.round_horizon, cfg.clear_gap) = (top_k, widen, round_horizon, clear_gap);
        }
        self.hooks.root.clear();
        let actions = core.s.legal();
        if actions.is_empty() || core.s.current_player() != Some(seat) {
            return Err(PyValueError::new_err("the search decides for the current player, who must have actions"));
        }
        if self.hooks.leaf.as_ref().is_some_and(|l| l.net.obs_size() != tensor_size(core.s.n)) {
            return Err(PyValueError::new_err("the search's network is for another number of players"));
        }
        if actions.len() == 1 {
            return Ok((actions[0], rng_state, 0, false));
        }
        if let Some(a) = self.hooks.shortcut(&core.s, seat, &actions, last) {
            return Ok((a, rng_state, 0, true));
        }
        let mut rng = Rng::from_state(rng_state);
        let (a, it) = search::search(
            &mut self.hooks,
            &core.s,
            seat,
            &actions,
            last,
            &mut rng,
            iterations,
            time_limit,
            c,
            cpu_clock,
        );
        Ok((a, rng.state, it, false))
    }

    /// The expert level: leaves valued by `net` (blended with the heuristic's value by `weight`;
    /// 1: the network alone; `scaled`: the network's value moved onto the heuristic's scale first),
    /// or None for the hard level's evaluation.
    #[pyo3(signature = (net, weight=1.0, scaled=false))]
    fn set_leaf(&mut self, net: Option<PyRef<'_, PyNet>>, weight: f64, scaled: bool) -> PyResult<()> {
        if !(0.0..=1.0).contains(&weight) {
            return Err(PyValueError::new_err("the network's weight is between 0 and 1"));
        }
        self.hooks.leaf = net.map(|n| search::Leaf::new(n.net.clone(), weight, scaled));
        Ok(())
    }

    /// Search to the end of the round where one more sentinel sold ends the game (`Hooks::endgame_round`).
    #[setter]
    fn set_endgame_round(&mut self, on: bool) {
        self.hooks.endgame_round = on;
    }

    /// In that round also search what the shortcut would decide (`Hooks::endgame_search_all`).
    #[setter]
    fn set_endgame_search_all(&mut self, on: bool) {
        self.hooks.endgame_search_all = on;
    }

    /// The seats whose bids branch in the tree, as a bit mask (`Hooks::enemy_seats`).
    #[getter]
    fn enemy_seats(&self) -> u64 {
        self.hooks.enemy_seats
    }

    #[setter]
    fn set_enemy_seats(&mut self, mask: u64) {
        self.hooks.enemy_seats = mask;
    }

    /// How many remembered turn choices were found illegal and chosen anew (`Hooks::stale_choices`).
    #[getter]
    fn stale_choices(&self) -> i64 {
        self.hooks.stale_choices
    }

    /// The last search's root children: (code, visits, summed reward, summed value of the deciding
    /// seat: the network's chance of winning at the leaves, the win share where the game ended).
    #[getter]
    fn root(&self) -> Vec<(u32, i64, f64, f64)> {
        self.hooks.root.clone()
    }

    #[getter]
    fn decided(&self) -> i64 {
        self.hooks.decided
    }

    #[getter]
    fn searched(&self) -> i64 {
        self.hooks.searched
    }

    #[getter]
    fn rng_state(&self) -> u64 {
        self.hooks.rng.state
    }
}

/// A learned network (`grimoire/agents/net.py`) for the core: `dims` = [inputs, hidden...], `arrays`
/// the float32 arrays in file order (w0, b0, ..., wv, bv, wp, bp), each C-contiguous.
#[pyclass(module = "grimoire.games.zavandor._native", name = "Net", frozen)]
pub struct PyNet {
    net: Arc<Mlp>,
}

fn floats(py: Python<'_>, a: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<f32>> {
    let buf = PyBuffer::<f32>::get(a).map_err(|e| PyValueError::new_err(format!("{what}: {e}")))?;
    buf.to_vec(py).map_err(|e| PyValueError::new_err(format!("{what}: {e}")))
}

#[pymethods]
impl PyNet {
    #[new]
    fn new(py: Python<'_>, dims: Vec<usize>, num_actions: usize, arrays: Vec<Bound<'_, PyAny>>) -> PyResult<PyNet> {
        if dims.is_empty() || arrays.len() != 2 * (dims.len() - 1) + 4 {
            return Err(PyValueError::new_err("arrays: a weight and a bias per layer, then wv, bv, wp, bp"));
        }
        let bad = PyValueError::new_err;
        let mut trunk = Vec::new();
        for k in 0..dims.len() - 1 {
            let (w, b) = (floats(py, &arrays[2 * k], "w")?, floats(py, &arrays[2 * k + 1], "b")?);
            trunk.push(Dense::new(dims[k], dims[k + 1], w, b).map_err(bad)?);
        }
        let h = *dims.last().unwrap();
        let j = 2 * (dims.len() - 1);
        let value = Dense::new(h, 1, floats(py, &arrays[j], "wv")?, floats(py, &arrays[j + 1], "bv")?).map_err(bad)?;
        let policy = Dense::new(h, num_actions, floats(py, &arrays[j + 2], "wp")?, floats(py, &arrays[j + 3], "bp")?)
            .map_err(bad)?;
        Ok(PyNet { net: Arc::new(Mlp::new(trunk, value, policy).map_err(bad)?) })
    }

    #[getter]
    fn obs_size(&self) -> usize {
        self.net.obs_size()
    }

    #[getter]
    fn num_actions(&self) -> usize {
        self.net.num_actions()
    }

    /// (value, logits) of one observation (a float32 buffer of `obs_size` numbers).
    fn forward(&self, py: Python<'_>, x: &Bound<'_, PyAny>) -> PyResult<(f32, Vec<f32>)> {
        let x = floats(py, x, "x")?;
        if x.len() != self.net.obs_size() {
            return Err(PyValueError::new_err(format!("x: {} numbers, expected {}", x.len(), self.net.obs_size())));
        }
        let mut logits = vec![0.0; self.net.num_actions()];
        let v = self.net.forward(&x, &mut logits, &mut Scratch::default());
        Ok((v, logits))
    }

    /// The value of the observation of `seat` in `core` (the tensor written and valued in the core).
    fn value_of(&self, core: PyRef<'_, Core>, seat: usize) -> PyResult<f32> {
        if seat >= core.s.n || tensor_size(core.s.n) != self.net.obs_size() {
            return Err(PyValueError::new_err("no such seat, or the network is for another number of players"));
        }
        let mut x = vec![0.0; self.net.obs_size()];
        core.s.write_tensor(Some(seat), &mut x);
        Ok(self.net.value(&x, &mut Scratch::default()))
    }
}

/// `grimoire.core.episode.derive_seed` with integer keys (the core's, for tests).
#[pyfunction]
fn derive_seed(seed: u64, keys: Vec<u64>) -> u64 {
    batch::derive_seed(seed, &keys)
}

/// The fixed action texts in code order (codes from BID_BASE on are "bid n").
#[pyfunction]
fn fixed_texts() -> Vec<String> {
    (0..BID_BASE).map(code_text).collect()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Core>()?;
    m.add_class::<PyPolicy>()?;
    m.add_class::<PySearch>()?;
    m.add_class::<PyBatch>()?;
    m.add_class::<PyPool>()?;
    m.add_class::<PyNet>()?;
    m.add_function(wrap_pyfunction!(py_tensor_size, m)?)?;
    m.add_function(wrap_pyfunction!(derive_seed, m)?)?;
    m.add_function(wrap_pyfunction!(fixed_texts, m)?)?;
    m.add("BID_BASE", BID_BASE)?;
    m.add("XBASE", crate::factored::XBASE)?;
    Ok(())
}
