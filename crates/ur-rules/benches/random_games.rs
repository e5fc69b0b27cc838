//! Random-play throughput and move generation speed.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use ur_rules::{Rules, Side, State};

fn random_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_game");
    group.throughput(Throughput::Elements(1));
    for id in ["finkel", "masters", "blitz", "aseb", "regency-murray"] {
        let rules = Rules::builtin(id).unwrap();
        let start = State::start(&rules, Side::Light);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        group.bench_function(id, |b| b.iter(|| rules.random_playout(black_box(&start), &mut rng)));
    }
    group.finish();
}

fn move_generation(c: &mut Criterion) {
    let rules = Rules::builtin("finkel").unwrap();
    let setup = ur_rules::Setup {
        to_move: Side::Light,
        light: ur_rules::SideSetup { reserve: 2, off: 1, path: vec![1, 4, 6, 9], birds: None },
        dark: ur_rules::SideSetup { reserve: 3, off: 0, path: vec![2, 7, 8, 12], birds: None },
    };
    let st = rules.validate(&setup).unwrap();
    let throw = rules.throw(2).unwrap();
    c.bench_function("legal_moves/finkel", |b| b.iter(|| rules.legal_moves(black_box(&st), &throw)));
}

criterion_group!(benches, random_games, move_generation);
criterion_main!(benches);
