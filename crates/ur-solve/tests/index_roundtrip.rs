//! Every index names exactly one valid position, for both schemes.

use ur_rules::{OptionValue, Options, Rules, Side};
use ur_solve::Indexer;

fn rules(id: &str, pieces: i64) -> Rules {
    let opts: Options = [("pieces".to_string(), OptionValue::Int(pieces))].into();
    Rules::builtin_with(id, &opts).unwrap()
}

#[test]
fn rank_inverts_unrank_for_every_index() {
    let cases = [
        ("finkel", 3, "bits-v1"),
        ("masters", 2, "bits-v1"),
        ("blitz", 2, "bits-v1"),
        ("aseb", 2, "bits-v1"),
        ("regency-bell", 2, "bits-v1"),
        ("walker-cyningstan", 2, "bits-v1"),
        ("ludens-planet", 2, "slots-v1"),
        ("v1-simple", 2, "slots-v1"),
        ("regency-murray", 1, "slots-v1"),
    ];
    for (id, pieces, scheme) in cases {
        let r = rules(id, pieces);
        let index = Indexer::new(&r).unwrap();
        assert_eq!(index.scheme(), scheme, "{id}");
        for i in 0..index.len() {
            for side in Side::BOTH {
                let st = index.unrank(&r, i, side);
                assert_eq!(index.rank(&st), i, "{id} index {i} ({side})");
                let setup = st.to_setup(&r);
                assert_eq!(r.validate(&setup).unwrap(), st, "{id} index {i}");
            }
        }
    }
}

#[test]
fn both_schemes_count_the_same_positions() {
    // Counts from the closed form for Finkel-like boards (see docs/solver.md).
    assert_eq!(Indexer::new(&rules("finkel", 2)).unwrap().len(), 12_869);
    assert_eq!(Indexer::new(&rules("finkel", 3)).unwrap().len(), 263_121);
}
