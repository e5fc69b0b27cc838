//! The dice as chance nodes: distinct throws with exact probabilities.

use ur_rules::{Rules, Throw};

/// Every throw of the rules with its probability, throws with the same
/// effect (value, extra roll and entry) merged, in the order the dice list
/// them. Null throws (value 0) are kept: they pass the turn.
pub fn merged_throws(rules: &Rules) -> Vec<(Throw, f64)> {
    let total = f64::from(rules.dice().total_weight());
    let mut out: Vec<(Throw, f64)> = Vec::new();
    for (t, w) in rules.throws() {
        let key = |x: &Throw| (x.value, x.extra, x.enter);
        let p = f64::from(w) / total;
        match out.iter_mut().find(|(x, _)| key(x) == key(&t)) {
            Some((_, q)) => *q += p,
            None => out.push((t, p)),
        }
    }
    out
}
