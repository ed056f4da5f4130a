//! The Python module `grimoire.games.shuluri._native` (the `python` feature): a saved game behind a
//! small handle (`Core`), wrapped into a full `GameState` by `grimoire/games/shuluri/native.py`.
//!
//! The rules never read the event log or the history's texts (only its length, for the secret setup
//! actions), so the handle keeps them out of the copied state: the events in a shared persistent
//! list (one chunk per action), the history as empty strings (its texts live in Python). A copy is
//! then the rules' state alone, whatever the game's length.
//!
//! The crate's apply is whole, so an action is applied in place, with no backup: the wrapper checks that
//! an action is listed (`is_legal`, against the position's listing, made once and kept until the next
//! action) before it is applied. An error of apply after that (a corrupt save) leaves the handle's state
//! undefined, and the wrapper raises.

use crate::actions::table;
use crate::apply::apply;
use crate::legal::legal_actions;
use crate::state::{Event, Phase, Saved};
use grimoire_rng::Rng;
use pyo3::buffer::PyBuffer;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::Arc;

/// The events of a game, oldest chunk last: each action's new events share the earlier ones.
struct Chunk {
    prev: Option<Arc<Chunk>>,
    items: Vec<Event>,
    /// the events up to and including this chunk's
    total: usize,
}

fn chunk(prev: Option<Arc<Chunk>>, items: Vec<Event>) -> Option<Arc<Chunk>> {
    let total = prev.as_ref().map_or(0, |c| c.total) + items.len();
    Some(Arc::new(Chunk { prev, items, total }))
}

#[pyclass(module = "grimoire.games.shuluri._native", name = "Core", freelist = 64)]
#[derive(Clone)]
pub struct Core {
    s: Saved,
    events: Option<Arc<Chunk>>,
    /// the position's legal ids in the listing's order, once listed (cleared by every change)
    listed: Option<Vec<u32>>,
}

impl Core {
    fn from_saved(mut s: Saved) -> Core {
        let items = std::mem::take(&mut s.state.events);
        let events = if items.is_empty() { None } else { chunk(None, items) };
        s.history = vec![String::new(); s.history.len()];
        Core { s, events, listed: None }
    }

    /// The position's legal ids in the listing's order (listed once per position).
    fn listing(&mut self) -> &[u32] {
        let s = &self.s;
        self.listed.get_or_insert_with(|| {
            let mut out = Vec::new();
            legal_actions(s, &mut out);
            out
        })
    }

    /// Moves the events the last action logged into the shared list, and drops its text.
    fn settle(&mut self) {
        if let Some(h) = self.s.history.last_mut() {
            *h = String::new();
        }
        if !self.s.state.events.is_empty() {
            let items = std::mem::take(&mut self.s.state.events);
            self.events = chunk(self.events.take(), items);
        }
    }

    /// Applies a legal action's text in place; an error (a corrupt save) leaves the state undefined.
    fn apply_text(&mut self, text: &str) -> Option<String> {
        self.listed = None;
        match apply(&mut self.s, text) {
            Ok(()) => {
                self.settle();
                None
            }
            Err(e) => Some(e),
        }
    }

    /// The events from the `since`-th on, oldest first.
    fn events_since(&self, since: usize) -> Vec<&Event> {
        let mut chunks = Vec::new();
        let mut at = self.events.as_deref();
        while let Some(c) = at {
            if c.total <= since {
                break;
            }
            chunks.push(c);
            at = c.prev.as_deref();
        }
        let skip = since - at.map_or(0, |c| c.total);
        chunks.iter().rev().flat_map(|c| c.items.iter()).skip(skip).collect()
    }
}

#[pymethods]
impl Core {
    /// A state from a saved game (`ShuluriState.to_dict()` as JSON text); ValueError with the reason.
    #[staticmethod]
    fn load(json: &str) -> PyResult<Core> {
        Saved::from_json(json).map(Core::from_saved).map_err(PyValueError::new_err)
    }

    fn copy(&self) -> Core {
        self.clone()
    }

    /// The legal action ids in the Python listing's order (`legal_actions()`; duplicates kept).
    fn legal(&mut self) -> Vec<u32> {
        self.listing().to_vec()
    }

    /// Whether the action of id `id` is listed in this position.
    fn is_legal(&mut self, id: u32) -> bool {
        self.listing().contains(&id)
    }

    /// The legal ids ascending, each once (`legal_action_ids()`).
    fn legal_ids(&mut self) -> Vec<u32> {
        let mut out = self.listing().to_vec();
        out.sort_unstable();
        out.dedup();
        out
    }

    fn legal_texts(&mut self) -> Vec<&'static str> {
        let t = table();
        self.legal().into_iter().map(|i| t.text(i)).collect()
    }

    /// Writes the legal-id mask (int8 0/1 per id of data/actions.txt) into `out`.
    fn mask_into(&mut self, out: &Bound<'_, PyAny>) -> PyResult<()> {
        let buf = PyBuffer::<i8>::get(out)?;
        let o = writable(&buf, table().len(), "int8")?;
        o.fill(0);
        for &i in self.listing() {
            o[i as usize] = 1;
        }
        Ok(())
    }

    /// Writes the observation tensor of `seat` (None: a spectator) into `out` (a writable contiguous
    /// float32 buffer of `tensor_size(players)` numbers): the Python tensor, float for float.
    #[pyo3(signature = (seat, out))]
    fn tensor_into(&self, seat: Option<usize>, out: &Bound<'_, PyAny>) -> PyResult<()> {
        if seat.is_some_and(|x| x >= self.s.players as usize) {
            return Err(PyValueError::new_err("no such seat"));
        }
        let buf = PyBuffer::<f32>::get(out)?;
        crate::tensor::write(&self.s, seat, writable(&buf, crate::tensor::size(self.s.players as usize), "float32")?);
        Ok(())
    }

    /// Applies the action of id `id` (trusted to be legal: the wrapper checks it is listed). None, or
    /// the error (a corrupt save: the state is then undefined).
    fn apply_id(&mut self, id: u32) -> PyResult<Option<String>> {
        let t = table();
        if id as usize >= t.len() {
            return Err(PyValueError::new_err(format!("no action id {id}")));
        }
        Ok(self.apply_text(t.text(id)))
    }

    /// Plays to the end, each seat uniformly random among the listed actions from its own generator
    /// (the contract's `RandomAgent`: `actions[rng.below(len(actions))]`). Returns the ids played, the
    /// seats' generators after them, and the id the crate could not play (with why) if it stopped
    /// there (a corrupt save: the state is then undefined).
    fn play_random(&mut self, mut rngs: Vec<u64>) -> PyResult<(Vec<u32>, Vec<u64>, Option<(u32, String)>)> {
        if rngs.len() != self.s.players as usize {
            return Err(PyValueError::new_err("one generator per seat"));
        }
        let t = table();
        let mut played = Vec::new();
        let mut ids = Vec::new();
        while self.s.state.phase != Phase::Over {
            let Some(top) = self.s.state.stack.first() else { break };
            let seat = top.seat as usize;
            legal_actions(&self.s, &mut ids);
            if ids.is_empty() {
                return Err(PyValueError::new_err("no legal action in a running game"));
            }
            let mut r = Rng::from_state(rngs[seat]);
            let id = ids[r.below(ids.len() as u64) as usize];
            rngs[seat] = r.state;
            if let Some(why) = self.apply_text(t.text(id)) {
                return Ok((played, rngs, Some((id, why))));
            }
            played.push(id);
        }
        Ok((played, rngs, None))
    }

    /// The "state" part of the saved game as JSON (event texts null: the wrapper words them); without
    /// the events (an empty log) if `events` is false.
    #[pyo3(signature = (events = true))]
    fn state_json(&self, events: bool) -> PyResult<String> {
        let err = |e: serde_json::Error| PyValueError::new_err(e.to_string());
        if !events {
            return serde_json::to_string(&self.s.state).map_err(err); // (its own log is always empty)
        }
        let mut v = serde_json::to_value(&self.s.state).map_err(err)?;
        v["events"] = serde_json::to_value(self.events_since(0)).map_err(err)?;
        Ok(v.to_string())
    }

    /// The event log from its `since`-th entry on, as JSON (texts null).
    fn events_json(&self, since: usize) -> PyResult<String> {
        serde_json::to_string(&self.events_since(since)).map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The number of events logged.
    #[getter]
    fn events_len(&self) -> usize {
        self.events.as_ref().map_or(0, |c| c.total)
    }

    #[getter]
    fn rng_state(&self) -> u64 {
        self.s.rng
    }

    #[setter]
    fn set_rng_state(&mut self, state: u64) {
        self.s.rng = state;
    }

    #[getter]
    fn current_player(&self) -> Option<u8> {
        if self.s.state.phase == Phase::Over {
            return None;
        }
        self.s.state.stack.first().map(|d| d.seat)
    }

    #[getter]
    fn round(&self) -> i64 {
        self.s.state.round
    }

    #[getter]
    fn history_len(&self) -> usize {
        self.s.history.len()
    }

    /// What an undo must not cross (Python `undo_barrier`: the RNG, preset dice used, reveals).
    fn undo_barrier(&self) -> (u64, i64, i64) {
        (self.s.rng, self.s.state.dice_i, self.s.state.reveals)
    }

    fn is_terminal(&self) -> bool {
        self.s.state.phase == Phase::Over
    }

    fn winners(&self) -> Vec<u32> {
        if self.s.state.phase == Phase::Over {
            self.s.state.winners_.iter().map(|&w| w as u32).collect()
        } else {
            Vec::new()
        }
    }
}

/// A writable C-contiguous buffer of at least `len` items, as a slice of exactly `len` (the memory is
/// the exporter's, writable through the buffer protocol: hence a mutable slice from a shared handle).
#[allow(clippy::mut_from_ref)]
fn writable<'a, T: pyo3::buffer::Element>(buf: &'a PyBuffer<T>, len: usize, what: &str) -> PyResult<&'a mut [T]> {
    if buf.readonly() || !buf.is_c_contiguous() || buf.item_count() < len {
        return Err(PyValueError::new_err(format!("need a writable contiguous {what} buffer of {len}")));
    }
    // SAFETY: writable, contiguous and at least len items (checked); `buf` keeps the memory alive
    Ok(unsafe { std::slice::from_raw_parts_mut(buf.buf_ptr() as *mut T, len) })
}

/// The observation tensor's size for a player count.
#[pyfunction]
fn tensor_size(players: usize) -> usize {
    crate::tensor::size(players)
}

/// The action table's texts (id = position), for the wrapper's id <-> text maps.
#[pyfunction]
fn action_texts() -> Vec<&'static str> {
    table().texts.iter().map(String::as_str).collect()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Core>()?;
    m.add_function(wrap_pyfunction!(action_texts, m)?)?;
    m.add_function(wrap_pyfunction!(tensor_size, m)?)?;
    Ok(())
}
