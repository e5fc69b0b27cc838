//! A multilayer perceptron with one hidden layer of rectified units (plain,
//! or leaky: a negative sum passes at a small slope) and one logistic
//! output: the win probability of the side to move.
//!
//! Inference is written by hand over `f32` slices. The first layer's
//! weights are stored input by input, so a position's input adds one
//! contiguous row to the hidden sums (which the compiler vectorises) and
//! the many zero inputs of an occupancy encoding cost nothing, as in GNU
//! Backgammon's evaluation.

use serde::{Deserialize, Serialize};

/// The widest hidden layer [`Mlp::value`] evaluates without allocating.
pub const MAX_HIDDEN: usize = 256;

/// The network: `inputs → hidden (ReLU) → 1 (logistic)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mlp {
    pub inputs: usize,
    pub hidden: usize,
    /// The rectifier's slope below zero: 0 for a plain one (files without
    /// the field), a small share for a leaky one, whose units keep a
    /// gradient on every position and so cannot die.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub leak: f32,
    /// All parameters in one vector (see [`Layout`]): the first layer's
    /// weights input by input, its biases, the output weights, the output bias.
    pub params: Vec<f32>,
}

/// Where each group of parameters starts in [`Mlp::params`].
#[derive(Clone, Copy, Debug)]
struct Layout {
    b1: usize,
    w2: usize,
    b2: usize,
    len: usize,
}

impl Mlp {
    /// A network with small random weights from `seed` (He initialisation
    /// of the hidden layer, a zero output layer: every position starts at 0.5).
    pub fn new(inputs: usize, hidden: usize, seed: u64) -> Mlp {
        use rand::{Rng, SeedableRng};
        assert!((1..=MAX_HIDDEN).contains(&hidden), "a hidden layer of 1 to {MAX_HIDDEN} units");
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut net = Mlp { inputs, hidden, leak: 0.0, params: Vec::new() };
        let l = net.layout();
        net.params = vec![0.0; l.len];
        let scale = (2.0 / inputs.max(1) as f32).sqrt();
        for w in &mut net.params[..l.b1] {
            *w = (rng.gen::<f32>() * 2.0 - 1.0) * scale * 1.7;
        }
        for w in &mut net.params[l.w2..l.b2] {
            *w = (rng.gen::<f32>() * 2.0 - 1.0) * 0.01;
        }
        net
    }

    /// The same network with a leaky rectifier of slope `leak` below zero.
    pub fn with_leak(mut self, leak: f32) -> Mlp {
        self.leak = leak;
        self
    }

    /// The hidden unit's output for its sum `h`.
    #[inline]
    fn rectify(&self, h: f32) -> f32 {
        h.max(self.leak * h)
    }

    fn layout(&self) -> Layout {
        let b1 = self.inputs * self.hidden;
        Layout { b1, w2: b1 + self.hidden, b2: b1 + 2 * self.hidden, len: b1 + 2 * self.hidden + 1 }
    }

    /// Whether the parameter count matches the shape.
    pub fn check(&self) -> Result<(), String> {
        let want = self.layout().len;
        if self.hidden == 0 || self.hidden > MAX_HIDDEN {
            return Err(format!("a hidden layer of {} units; 1 to {MAX_HIDDEN} are supported", self.hidden));
        }
        if !(0.0..1.0).contains(&self.leak) {
            return Err(format!("a rectifier slope (leak) of {}; give 0 (plain) up to below 1", self.leak));
        }
        if self.params.len() != want {
            return Err(format!(
                "{} parameters where {} inputs and {} hidden units need {want}",
                self.params.len(),
                self.inputs,
                self.hidden
            ));
        }
        if let Some(i) = self.params.iter().position(|p| !p.is_finite()) {
            return Err(format!("parameter {i} is not a finite number"));
        }
        Ok(())
    }

    /// The hidden layer's sums before the rectifier, into `h`.
    #[inline]
    fn hidden_sums(&self, x: &[f32], h: &mut [f32]) {
        let l = self.layout();
        let n = self.hidden;
        h.copy_from_slice(&self.params[l.b1..l.w2]);
        for (i, &xi) in x.iter().enumerate() {
            if xi != 0.0 {
                let row = &self.params[i * n..(i + 1) * n];
                for (hj, wj) in h.iter_mut().zip(row) {
                    *hj += xi * wj;
                }
            }
        }
    }

    /// How many hidden units fire (a positive sum) on an average one of
    /// `xs`. A network where few fire values most positions alike, and a
    /// plain unit that fires on none gets no gradient and stays dead.
    pub fn mean_active_units<'a>(&self, xs: impl IntoIterator<Item = &'a [f32]>) -> f64 {
        let mut h = vec![0.0f32; self.hidden];
        let (mut fired, mut n) = (0usize, 0usize);
        for x in xs {
            self.hidden_sums(x, &mut h);
            fired += h.iter().filter(|&&s| s > 0.0).count();
            n += 1;
        }
        fired as f64 / n.max(1) as f64
    }

    /// The output's logit for input `x` (`x.len() == inputs`).
    #[inline]
    pub fn logit(&self, x: &[f32]) -> f32 {
        debug_assert_eq!(x.len(), self.inputs);
        let mut buf = [0.0f32; MAX_HIDDEN];
        let h = &mut buf[..self.hidden];
        self.hidden_sums(x, h);
        let l = self.layout();
        let w2 = &self.params[l.w2..l.b2];
        let mut z = self.params[l.b2];
        for (hj, wj) in h.iter().zip(w2) {
            z += self.rectify(*hj) * wj;
        }
        z
    }

    /// The win probability for input `x`.
    #[inline]
    pub fn value(&self, x: &[f32]) -> f32 {
        sigmoid(self.logit(x))
    }

    /// The same as [`Mlp::value`] computed the plain way, weight by weight
    /// in `f64`: the reference the fast path is tested against.
    pub fn value_reference(&self, x: &[f32]) -> f64 {
        let l = self.layout();
        let p = |i: usize| f64::from(self.params[i]);
        let mut z = p(l.b2);
        for j in 0..self.hidden {
            let mut s = p(l.b1 + j);
            for (i, &xi) in x.iter().enumerate() {
                s += f64::from(xi) * p(i * self.hidden + j);
            }
            z += s.max(f64::from(self.leak) * s) * p(l.w2 + j);
        }
        1.0 / (1.0 + (-z).exp())
    }

    /// Adds to `grad` the gradient of the cross-entropy between the output
    /// for `x` and the soft target `y`; returns the output.
    pub fn add_gradient(&self, x: &[f32], y: f32, grad: &mut [f32]) -> f32 {
        let l = self.layout();
        let n = self.hidden;
        let mut buf = [0.0f32; MAX_HIDDEN];
        let h = &mut buf[..n];
        self.hidden_sums(x, h);
        let w2 = &self.params[l.w2..l.b2];
        let mut z = self.params[l.b2];
        for (hj, wj) in h.iter().zip(w2) {
            z += self.rectify(*hj) * wj;
        }
        let out = sigmoid(z);
        let dz = out - y;
        grad[l.b2] += dz;
        let mut dh = [0.0f32; MAX_HIDDEN];
        let dh = &mut dh[..n];
        for j in 0..n {
            let slope = if h[j] > 0.0 { 1.0 } else { self.leak };
            grad[l.w2 + j] += dz * slope * h[j];
            dh[j] = dz * slope * w2[j];
        }
        for (g, d) in grad[l.b1..l.w2].iter_mut().zip(dh.iter()) {
            *g += d;
        }
        for (i, &xi) in x.iter().enumerate() {
            if xi != 0.0 {
                for (g, d) in grad[i * n..(i + 1) * n].iter_mut().zip(dh.iter()) {
                    *g += xi * d;
                }
            }
        }
        out
    }
}

fn is_zero(x: &f32) -> bool {
    *x == 0.0
}

#[inline]
pub fn sigmoid(z: f32) -> f32 {
    1.0 / (1.0 + (-z).exp())
}

/// Adam's moments for a parameter vector.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Adam {
    pub m: Vec<f32>,
    pub v: Vec<f32>,
    pub steps: u64,
}

impl Adam {
    pub fn new(len: usize) -> Adam {
        Adam { m: vec![0.0; len], v: vec![0.0; len], steps: 0 }
    }

    /// One step of size `lr` along the mean gradient `grad`.
    pub fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.steps += 1;
        let t = self.steps.min(1 << 20) as i32;
        let c1 = 1.0 - B1.powi(t);
        let c2 = 1.0 - B2.powi(t);
        for (((p, g), m), v) in params.iter_mut().zip(grad).zip(&mut self.m).zip(&mut self.v) {
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *p -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};

    use super::*;

    fn random_input(rng: &mut impl Rng, n: usize) -> Vec<f32> {
        (0..n).map(|_| if rng.gen_bool(0.4) { rng.gen::<f32>() * 2.0 - 0.5 } else { 0.0 }).collect()
    }

    #[test]
    fn mean_active_units_counts_the_units_that_fire_on_an_average_input() {
        let mut net = Mlp::new(2, 3, 1);
        let l = net.layout();
        net.params[..l.b1].fill(0.0);
        net.params[l.b1..l.w2].copy_from_slice(&[-1.0, -1.0, 0.5]);
        let xs = [[0.0f32, 0.0], [1.0, 0.0]];
        assert_eq!(net.mean_active_units(xs.iter().map(|x| x.as_slice())), 1.0);
        // Unit 0 fires on the second input once its weight lifts it over its bias.
        net.params[0] = 2.0;
        assert_eq!(net.mean_active_units(xs.iter().map(|x| x.as_slice())), 1.5);
        net.params[l.b1..l.w2].fill(-5.0);
        assert_eq!(net.mean_active_units(xs.iter().map(|x| x.as_slice())), 0.0, "a dead network: every position alike");
        // A leaky unit below zero still passes its input on, so positions still differ.
        net.params[l.w2..l.b2].fill(1.0);
        let leaky = net.clone().with_leak(0.05);
        assert_eq!(net.value(&xs[0]), net.value(&xs[1]));
        assert_ne!(leaky.value(&xs[0]), leaky.value(&xs[1]));
    }

    #[test]
    fn a_plain_network_file_reads_and_writes_without_a_leak() {
        let net = Mlp::new(2, 1, 1);
        let text = serde_json::to_string(&net).unwrap();
        assert!(!text.contains("leak"), "{text}");
        let leaky = net.clone().with_leak(0.01);
        let back: Mlp = serde_json::from_str(&serde_json::to_string(&leaky).unwrap()).unwrap();
        assert_eq!(back, leaky);
        assert!(Mlp { leak: 1.0, ..net }.check().is_err());
    }

    #[test]
    fn inference_matches_the_reference_to_1e_6() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        for (inputs, hidden, leak) in [(1, 1, 0.0), (7, 3, 0.0), (103, 64, 0.0), (300, 256, 0.0), (103, 64, 0.05)] {
            let mut net = Mlp::new(inputs, hidden, 9).with_leak(leak);
            // A trained-looking output layer, so the output is not 0.5 everywhere.
            for p in &mut net.params {
                *p += (rng.gen::<f32>() - 0.5) * 0.3;
            }
            for _ in 0..200 {
                let x = random_input(&mut rng, inputs);
                let (fast, slow) = (f64::from(net.value(&x)), net.value_reference(&x));
                assert!((fast - slow).abs() < 1e-6, "{inputs}x{hidden}: {fast} against {slow}");
            }
        }
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        for leak in [0.0, 0.1] {
            gradient_matches_finite_differences(leak);
        }
    }

    fn gradient_matches_finite_differences(leak: f32) {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(6);
        let mut net = Mlp::new(5, 4, 2).with_leak(leak);
        for p in &mut net.params {
            *p += (rng.gen::<f32>() - 0.5) * 0.5;
        }
        let x = vec![0.5, 0.0, 1.0, -0.3, 0.8];
        let y = 0.3f32;
        let mut grad = vec![0.0; net.params.len()];
        net.add_gradient(&x, y, &mut grad);
        let loss = |n: &Mlp| {
            let p = n.value_reference(&x);
            -(f64::from(y) * p.ln() + (1.0 - f64::from(y)) * (1.0 - p).ln())
        };
        for (i, &g) in grad.iter().enumerate() {
            let mut a = net.clone();
            let mut b = net.clone();
            a.params[i] += 1e-3;
            b.params[i] -= 1e-3;
            let numeric = (loss(&a) - loss(&b)) / 2e-3;
            assert!((numeric - f64::from(g)).abs() < 1e-3, "leak {leak}, parameter {i}: {numeric} against {g}");
        }
    }

    #[test]
    fn adam_fits_a_target() {
        let mut net = Mlp::new(3, 8, 1);
        let mut adam = Adam::new(net.params.len());
        let data = [([1.0, 0.0, 0.0], 0.9f32), ([0.0, 1.0, 0.0], 0.2), ([0.0, 0.0, 1.0], 0.5)];
        for _ in 0..2000 {
            let mut grad = vec![0.0; net.params.len()];
            for (x, y) in &data {
                net.add_gradient(x, *y, &mut grad);
            }
            adam.step(&mut net.params, &grad, 0.01);
        }
        for (x, y) in &data {
            assert!((net.value(x) - y).abs() < 0.01, "{} against {y}", net.value(x));
        }
    }
}
