//! The pruned search (Star1, alpha-beta, move ordering) gives exactly the
//! values of plain expectiminimax.
use std::sync::Arc;
use ur_bots::chance::merged_throws;
use ur_bots::expectimax::Search;
use ur_bots::Evaluator;
use ur_rules::{Dice, Extra, Game, Move, Phase, Rules, SeededDice, Side, State, Throw};

fn naive(r: &Rules, ev: &Evaluator, th: &[(Throw, f64)], st: &State, d: u32) -> f64 {
    if d == 0 {
        return ev.value(st);
    }
    let mut sum = 0.0;
    for (t, p) in th {
        let moves = r.legal_moves(st, t);
        let v = if moves.is_empty() {
            let mut o = *st;
            o.set_to_move(st.to_move().other());
            1.0 - naive(r, ev, th, &o, d - 1)
        } else {
            moves.iter().map(|&m| after(r, ev, th, st, t, m, d - 1)).fold(0.0, f64::max)
        };
        sum += p * v;
    }
    sum
}
fn after(r: &Rules, ev: &Evaluator, th: &[(Throw, f64)], st: &State, t: &Throw, m: Move, d: u32) -> f64 {
    let mut n = *st;
    let e = r.apply_unchecked(&mut n, t, m);
    if r.finish_move(&mut n, &e).is_some() {
        return 1.0;
    }
    match e.extra {
        Extra::None => 1.0 - naive(r, ev, th, &n, d),
        Extra::Auto => naive(r, ev, th, &n, d),
        Extra::Optional => {
            let mut o = n;
            o.set_to_move(n.to_move().other());
            naive(r, ev, th, &n, d).max(1.0 - naive(r, ev, th, &o, d))
        }
    }
}
#[test]
fn pruned_search_equals_plain_expectiminimax() {
    for id in ["finkel", "blitz", "walker-cyningstan", "regency-bell"] {
        let rules = Arc::new(Rules::builtin(id).unwrap());
        let ev = Evaluator::new(rules.clone());
        let th = merged_throws(&rules);
        let mut game = Game::new(rules.clone(), Side::Light);
        let mut dice = SeededDice::new(3);
        let mut worst = 0.0f64;
        let mut n = 0;
        while game.phase() != Phase::Over && n < 60 {
            match game.phase() {
                Phase::Roll => {
                    game.roll(dice.throw(rules.dice())).unwrap();
                }
                Phase::Move => {
                    let t = game.throw().unwrap();
                    for &m in game.legal_moves() {
                        for d in 0..3u32 {
                            let mut s = Search::new(&rules, &ev, &th);
                            let a = s.after(game.state(), &t, m, d, 0.0, 1.0);
                            let b = after(&rules, &ev, &th, game.state(), &t, m, d);
                            worst = worst.max((a - b).abs());
                        }
                    }
                    n += 1;
                    let m = game.legal_moves()[n % game.legal_moves().len()];
                    game.play(m).unwrap();
                }
                _ => {
                    game.apply(ur_rules::Action::Choose(game.choices()[0])).unwrap();
                }
            }
        }
        assert!(worst < 1e-12, "{id}: {n} positions, worst difference {worst:e}");
        assert!(n >= 30, "{id}: {n}");
    }
}
