//! The forward pass of a learned network (`grimoire/agents/net.py`, format "grimoire-mlp/1") in plain
//! Rust: a ReLU trunk `h = relu(x W + b)` per layer, `value = sigmoid(h Wv + bv)`, `logits = h Wp + bp`,
//! W stored [inputs, outputs] row-major as the file has it. Plain loops, no crate: the networks are
//! small (a few hundred inputs, mostly zeros: a row of W is skipped where its input is 0), and the
//! inner loop over a row's outputs is contiguous, which the compiler vectorizes.

/// One dense layer: `w` is [n_in, n_out] row-major.
#[derive(Clone, Debug)]
pub struct Dense {
    pub n_in: usize,
    pub n_out: usize,
    pub w: Vec<f32>,
    pub b: Vec<f32>,
}

impl Dense {
    pub fn new(n_in: usize, n_out: usize, w: Vec<f32>, b: Vec<f32>) -> Result<Dense, String> {
        if w.len() != n_in * n_out || b.len() != n_out {
            return Err(format!(
                "a layer of {n_in}x{n_out} needs {} weights and {n_out} biases, got {} and {}",
                n_in * n_out,
                w.len(),
                b.len()
            ));
        }
        Ok(Dense { n_in, n_out, w, b })
    }

    /// out = x W + b (out has n_out numbers).
    #[inline]
    fn apply(&self, x: &[f32], out: &mut [f32]) {
        out.copy_from_slice(&self.b);
        for (i, &xi) in x.iter().enumerate() {
            if xi == 0.0 {
                continue; // (one-hot and count fields: most inputs are zero)
            }
            let row = &self.w[i * self.n_out..(i + 1) * self.n_out];
            for (o, &wij) in out.iter_mut().zip(row) {
                *o += xi * wij;
            }
        }
    }
}

/// A network: the trunk's layers, the value head (one output) and the policy head.
#[derive(Clone, Debug)]
pub struct Mlp {
    pub trunk: Vec<Dense>,
    pub value: Dense,
    pub policy: Dense,
}

/// Reusable buffers of one caller (a search keeps one, so a leaf costs no allocation).
#[derive(Default, Clone, Debug)]
pub struct Scratch {
    a: Vec<f32>,
    b: Vec<f32>,
}

impl Mlp {
    pub fn new(trunk: Vec<Dense>, value: Dense, policy: Dense) -> Result<Mlp, String> {
        let mut n = trunk.first().map(|d| d.n_in).unwrap_or(value.n_in);
        for (k, d) in trunk.iter().enumerate() {
            if d.n_in != n {
                return Err(format!("layer {k} takes {} inputs, the one before gives {n}", d.n_in));
            }
            n = d.n_out;
        }
        if value.n_in != n || value.n_out != 1 {
            return Err(format!("the value head must be {n}x1, not {}x{}", value.n_in, value.n_out));
        }
        if policy.n_in != n {
            return Err(format!("the policy head takes {n} inputs, not {}", policy.n_in));
        }
        Ok(Mlp { trunk, value, policy })
    }

    pub fn obs_size(&self) -> usize {
        self.trunk.first().map(|d| d.n_in).unwrap_or(self.value.n_in)
    }

    pub fn num_actions(&self) -> usize {
        self.policy.n_out
    }

    /// The trunk's output for `x`, left in `s.a`.
    fn trunk_into(&self, x: &[f32], s: &mut Scratch) {
        s.a.clear();
        s.a.extend_from_slice(x);
        for d in &self.trunk {
            s.b.resize(d.n_out, 0.0);
            d.apply(&s.a, &mut s.b);
            for v in s.b.iter_mut() {
                if *v < 0.0 {
                    *v = 0.0;
                }
            }
            std::mem::swap(&mut s.a, &mut s.b);
        }
    }

    /// The value of observation `x` (the seat's expected share of the win, in [0, 1]).
    pub fn value(&self, x: &[f32], s: &mut Scratch) -> f32 {
        self.trunk_into(x, s);
        let mut v = [0.0f32];
        self.value.apply(&s.a, &mut v);
        sigmoid(v[0])
    }

    /// The value and the policy logits (written into `logits`, `num_actions` numbers).
    pub fn forward(&self, x: &[f32], logits: &mut [f32], s: &mut Scratch) -> f32 {
        self.trunk_into(x, s);
        let mut v = [0.0f32];
        self.value.apply(&s.a, &mut v);
        self.policy.apply(&s.a, logits);
        sigmoid(v[0])
    }
}

#[inline]
fn sigmoid(v: f32) -> f32 {
    1.0 / (1.0 + (-v).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dense(n_in: usize, n_out: usize, seed: u32) -> Dense {
        let mut x = seed;
        let mut next = || {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            ((x >> 8) % 2001) as f32 / 1000.0 - 1.0
        };
        let w = (0..n_in * n_out).map(|_| next()).collect();
        let b = (0..n_out).map(|_| next()).collect();
        Dense::new(n_in, n_out, w, b).unwrap()
    }

    /// The textbook definition, in f64, to hold the fast path to.
    fn reference(m: &Mlp, x: &[f32]) -> (f64, Vec<f64>) {
        let mut h: Vec<f64> = x.iter().map(|&v| v as f64).collect();
        let layer = |d: &Dense, h: &[f64]| -> Vec<f64> {
            (0..d.n_out)
                .map(|j| d.b[j] as f64 + (0..d.n_in).map(|i| h[i] * d.w[i * d.n_out + j] as f64).sum::<f64>())
                .collect()
        };
        for d in &m.trunk {
            h = layer(d, &h).into_iter().map(|v| v.max(0.0)).collect();
        }
        let v = layer(&m.value, &h)[0];
        (1.0 / (1.0 + (-v).exp()), layer(&m.policy, &h))
    }

    #[test]
    fn the_forward_pass_matches_the_definition() {
        let m = Mlp::new(vec![dense(7, 5, 1), dense(5, 4, 2)], dense(4, 1, 3), dense(4, 3, 4)).unwrap();
        let mut s = Scratch::default();
        for k in 0..20u32 {
            let x: Vec<f32> =
                (0..7).map(|i| if (i + k) % 3 == 0 { 0.0 } else { (i as f32 - k as f32) / 5.0 }).collect();
            let mut logits = vec![0.0; 3];
            let v = m.forward(&x, &mut logits, &mut s);
            let (rv, rl) = reference(&m, &x);
            assert!((v as f64 - rv).abs() < 1e-5, "{v} vs {rv}");
            for (a, b) in logits.iter().zip(&rl) {
                assert!((*a as f64 - b).abs() < 1e-4, "{a} vs {b}");
            }
            assert_eq!(m.value(&x, &mut s), v);
        }
    }

    #[test]
    fn shapes_that_do_not_chain_are_refused() {
        assert!(Dense::new(3, 2, vec![0.0; 5], vec![0.0; 2]).is_err());
        assert!(Mlp::new(vec![dense(7, 5, 1)], dense(4, 1, 3), dense(5, 3, 4)).is_err());
        assert!(Mlp::new(vec![dense(7, 5, 1)], dense(5, 2, 3), dense(5, 3, 4)).is_err());
        assert!(Mlp::new(vec![dense(7, 5, 1), dense(4, 4, 1)], dense(4, 1, 3), dense(4, 3, 4)).is_err());
        let m = Mlp::new(vec![], dense(6, 1, 3), dense(6, 2, 4)).unwrap(); // no hidden layer: a linear model
        assert_eq!((m.obs_size(), m.num_actions()), (6, 2));
    }
}
