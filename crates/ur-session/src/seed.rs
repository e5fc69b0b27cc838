//! Seeds derived from a master seed, so that every game of a measurement is
//! fixed by its number alone, whatever the order or thread it is played in.

/// Mixes 64 bits (splitmix64's finaliser).
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A seed derived from a master seed and a path of numbers only.
pub fn derive_seed(seed: u64, parts: &[u64]) -> u64 {
    parts.iter().fold(mix(seed), |h, &p| mix(h ^ mix(p)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_depend_on_every_part() {
        let s = derive_seed(1, &[0, 1, 2, 0]);
        assert_eq!(s, derive_seed(1, &[0, 1, 2, 0]));
        assert_ne!(s, derive_seed(2, &[0, 1, 2, 0]));
        assert_ne!(s, derive_seed(1, &[1, 0, 2, 0]));
        assert_ne!(s, derive_seed(1, &[0, 1, 2, 1]));
    }
}
