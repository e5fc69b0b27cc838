//! Diagnostics for the evaluation fit (development aid).
use std::sync::Arc;
use ur_bots::eval::{feature_names, NF};
use ur_bots::train;
use ur_rules::{OptionValue, Options, Rules, Side};
use ur_solve::{solve, Indexer, Silent, SolveConfig};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // DIAG_REKEY=FILE: recompute the rule keys of a weights file with this build.
    if let Ok(path) = std::env::var("DIAG_REKEY") {
        let mut w: ur_bots::Weights = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for r in &mut w.rules {
            let rules = Rules::builtin(r.id.split('+').next().unwrap()).unwrap();
            r.geometry = ur_bots::eval::geometry_key(&rules);
            r.family = ur_bots::eval::family_key(&rules);
        }
        std::fs::write(&path, serde_json::to_string_pretty(&w).unwrap() + "\n").unwrap();
        return;
    }
    let id = args.get(1).map_or("finkel", |s| s.as_str());
    let n: i64 = args.get(2).map_or(3, |s| s.parse().unwrap());
    let (rules, index, values): (Arc<Rules>, Indexer, Box<dyn ur_solve::Values>) = if id.ends_with(".urt") {
        let t = ur_solve::Table::open(std::path::Path::new(id)).unwrap();
        let rules = Arc::new(Rules::builtin_with(&t.header.rules_id, &t.header.options).unwrap());
        let index = Indexer::new(&rules).unwrap();
        (rules, index, Box::new(t))
    } else {
        let opts: Options = [("pieces".to_string(), OptionValue::Int(n))].into();
        let rules = Arc::new(Rules::builtin_with(id, &opts).unwrap());
        let index = Indexer::new(&rules).unwrap();
        let sol = solve(&rules, &index, &SolveConfig::default(), &Silent).unwrap();
        (rules, index, Box::new(sol.values))
    };
    let s = train::sample_positions(&rules, &index, &*values, 40000, 1);
    let data = train::Data::of(&rules, &s);
    let (x, y) = (data.x.clone(), data.y.clone());
    let (b, w) = match std::env::var("DIAG_W") {
        Ok(path) => {
            let wt: ur_bots::Weights = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
            let (b, w, _) = wt.model_for(&rules);
            (b, w)
        }
        Err(_) => train::fit(&data, 1e-4, 1e-3, None).at(1.0 / f64::from(rules.pieces())),
    };
    let fixed = train::Model::fixed(b, w);
    println!("{}", serde_json::to_string(&train::errors(&fixed, &data)).unwrap());
    if let Ok(out) = std::env::var("DIAG_OUT") {
        std::fs::write(out, serde_json::to_string_pretty(&train::make_weights(&fixed, &[], serde_json::Value::Null)).unwrap()).unwrap();
    }
    for (name, wi) in feature_names().iter().zip(&w) {
        println!("{name:24} {wi:9.3}");
    }
    // calibration
    let mut bins = vec![(0.0, 0.0, 0usize); 10];
    let mut worst: Vec<(f64, usize)> = Vec::new();
    for (i, (xi, &yi)) in x.iter().zip(&y).enumerate() {
        let z = b + xi.iter().zip(&w).map(|(a, c)| a * c).sum::<f64>();
        let p = 1.0 / (1.0 + (-z).exp());
        let k = ((p * 10.0) as usize).min(9);
        bins[k].0 += p;
        bins[k].1 += yi;
        bins[k].2 += 1;
        worst.push(((p - yi).abs(), i));
    }
    let bias: f64 = bins.iter().map(|b| b.0 - b.1).sum::<f64>() / x.len() as f64;
    println!("mean(pred - true) = {:.4} pp", 100.0 * bias);
    for (k, bn) in bins.iter().enumerate() {
        if bn.2 > 0 {
            println!("bin {k}: n {} mean pred {:.3} mean true {:.3}", bn.2, bn.0 / bn.2 as f64, bn.1 / bn.2 as f64);
        }
    }
    let ri = feature_names().iter().position(|n| n == "race_only").unwrap();
    for flag in [0.0, 1.0] {
        let (mut se, mut c) = (0.0, 0);
        for (xi, &yi) in x.iter().zip(&y) {
            if xi[ri] != flag {
                continue;
            }
            let z = b + xi.iter().zip(&w).map(|(a, c)| a * c).sum::<f64>();
            let p = 1.0 / (1.0 + (-z).exp());
            se += (p - yi) * (p - yi);
            c += 1;
        }
        println!("race_only={flag}: n {c} rmse {:.3} pp", 100.0 * (se / c as f64).sqrt());
    }
    worst.retain(|&(_, i)| x[i][ri] == 0.0 && Side::BOTH.iter().all(|&sd| s[i].0.off(sd) + 2 <= rules.pieces()));
    worst.sort_by(|a, b| b.0.total_cmp(&a.0));
    for &(e, i) in worst.iter().take(15) {
        let st = &s[i].0;
        let setup = st.to_setup(&rules);
        let z = b + x[i].iter().zip(&w).map(|(a, c)| a * c).sum::<f64>();
        println!("err {e:.3} true {:.3} pred {:.3} {}", y[i], 1.0 / (1.0 + (-z).exp()), serde_json::to_string(&setup).unwrap());
        let _ = NF;
    }
}
