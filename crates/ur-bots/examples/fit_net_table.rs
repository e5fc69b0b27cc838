//! Fits a race network to a solved table's exact values: a measure of what
//! the network can learn when its targets are right, beside what self-play
//! teaches it (`ur train-net`). A diagnostic, not a way to make the
//! shipped networks, which are trained by self-play alone.
//!
//! The table's positions are encoded as positions of the network's piece
//! count with the missing pieces borne off, as a shipped network judges them.
//!
//! `cargo run --release -p ur-bots --example fit_net_table -- regency-murray 4 murray4.urt 7 400000 20 fit.json [LEAK]`
//!
//! With 0 epochs it reads the network in OUT.json instead and prints how far
//! its values are from the exact ones.

use std::sync::Arc;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use ur_bots::net::mlp::Adam;
use ur_bots::net::{Mlp, NetFile, RaceEncoder};
use ur_bots::train::sample_positions;
use ur_rules::{OptionValue, Options, Rules, Side};

mod common;

fn main() -> std::process::ExitCode {
    common::exit(run())
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, id, pieces, path, net_pieces, n, epochs, out, rest @ ..] = args.as_slice() else {
        return Err("usage: fit_net_table RULES PIECES TABLE NET_PIECES POSITIONS EPOCHS OUT.json [LEAK]".into());
    };
    let number = |what: &str, v: &str| v.parse::<usize>().map_err(|_| format!("{what} must be a whole number, not '{v}'"));
    let (pieces, net_pieces) = (number("PIECES", pieces)?, number("NET_PIECES", net_pieces)?);
    let (n, epochs) = (number("POSITIONS", n)?, number("EPOCHS", epochs)?);
    let leak: f32 = rest.first().map_or(Ok(0.05), |s| s.parse()).map_err(|_| "LEAK must be a number")?;
    let with_pieces = |p: usize| -> Result<Arc<Rules>, Box<dyn std::error::Error>> {
        let options: Options = [("pieces".to_string(), OptionValue::Int(p as i64))].into();
        Ok(Arc::new(Rules::builtin_with(id, &options)?))
    };
    let (rules, full) = (with_pieces(pieces)?, with_pieces(net_pieces)?);
    let extra = u8::try_from(net_pieces.checked_sub(pieces).ok_or("NET_PIECES must be at least PIECES")?)?;
    let table = Arc::new(ur_solve::table::Table::open(path.as_ref())?);
    let oracle = ur_bots::Oracle::new(table, rules.clone(), path.as_ref())?;
    let encoder = RaceEncoder::new(full.clone());
    let samples: Vec<(Vec<f32>, f32)> = sample_positions(&rules, oracle.index(), &**oracle.table(), n, 7)
        .into_iter()
        .map(|(st, y)| {
            let mut st7 = st;
            for side in Side::BOTH {
                st7.set_counts(side, st.reserve(side), st.off(side) + extra);
            }
            let mut x = vec![0.0; encoder.len()];
            encoder.encode(&st7, &mut x);
            (x, y as f32)
        })
        .collect();
    if epochs == 0 {
        return measure(out, &samples);
    }
    let (test, train) = samples.split_at(samples.len() / 10);
    let mut net = Mlp::new(encoder.len(), 64, 1).with_leak(leak);
    let mut adam = Adam::new(net.params.len());
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut order: Vec<usize> = (0..train.len()).collect();
    for epoch in 0..epochs {
        order.shuffle(&mut rng);
        let lr = 1e-3 * (1.0 - 0.9 * epoch as f32 / epochs as f32);
        for batch in order.chunks(128) {
            let grad = batch
                .par_chunks(32)
                .map(|chunk| {
                    let mut g = vec![0.0f32; net.params.len()];
                    chunk.iter().for_each(|&i| _ = net.add_gradient(&train[i].0, train[i].1, &mut g));
                    g
                })
                .reduce(|| vec![0.0; net.params.len()], |a, b| a.iter().zip(b).map(|(x, y)| x + y).collect());
            let grad: Vec<f32> = grad.iter().map(|g| g / batch.len() as f32).collect();
            adam.step(&mut net.params, &grad, lr);
        }
        eprintln!("epoch {}: held-out rms error {:.3} pp, training {:.3} pp", epoch + 1, rms(&net, test), rms(&net, &train[..test.len()]));
    }
    let training = serde_json::json!({ "fitted_to": path, "positions": n, "epochs": epochs });
    let text = serde_json::to_string(&NetFile::new(&full, net, training))?;
    let partial = format!("{out}.partial");
    std::fs::write(&partial, text)?;
    std::fs::rename(&partial, out)?;
    Ok(())
}

/// With no epochs: how far a trained network's values are from the exact ones.
fn measure(path: &str, samples: &[(Vec<f32>, f32)]) -> Result<(), Box<dyn std::error::Error>> {
    let file = NetFile::parse(&std::fs::read_to_string(path)?)?;
    let bias: f64 = samples.iter().map(|(x, y)| f64::from(file.net.value(x) - y)).sum::<f64>() / samples.len().max(1) as f64;
    println!("{path}: rms error {:.3} pp, mean error {:+.3} pp over {} positions", rms(&file.net, samples), 100.0 * bias, samples.len());
    Ok(())
}

/// RMS error against the exact values, percentage points.
fn rms(net: &Mlp, samples: &[(Vec<f32>, f32)]) -> f64 {
    let sum: f64 = samples.par_iter().map(|(x, y)| f64::from(net.value(x) - y).powi(2)).sum();
    100.0 * (sum / samples.len().max(1) as f64).sqrt()
}
