//! Canonical forms: invariant under random symmetry transforms, reached by a
//! genuine transform of the input (so equal forms mean equivalent puzzles),
//! and different for puzzles that are not equivalent.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sudokit::canon::{canonical_form, canonicalize, Transform};
use sudokit::generate::{random_grid, random_puzzle};
use sudokit::grid::Shape;

fn cells(text: &str) -> [u8; 81] {
    std::array::from_fn(|i| match text.as_bytes()[i] {
        c @ b'1'..=b'9' => c - b'0',
        _ => 0,
    })
}

/// A uniformly random member of the symmetry group.
fn random_transform(rng: &mut ChaCha8Rng) -> Transform {
    let mut lines = || {
        let mut groups = [0u8, 1, 2];
        groups.shuffle(rng);
        let mut order = [0u8; 9];
        for (g, &group) in groups.iter().enumerate() {
            let mut inner = [0u8, 1, 2];
            inner.shuffle(rng);
            for (k, &i) in inner.iter().enumerate() {
                order[3 * g + k] = 3 * group + i;
            }
        }
        order
    };
    let (rows, cols) = (lines(), lines());
    let mut digits: Vec<u8> = (1..=9).collect();
    digits.shuffle(rng);
    let mut labels = [0u8; 10];
    labels[1..].copy_from_slice(&digits);
    let t = Transform {
        transpose: rng.gen(),
        rows,
        cols,
        labels,
    };
    assert!(t.is_valid());
    t
}

fn samples(rng: &mut ChaCha8Rng) -> Vec<[u8; 81]> {
    let shape = Shape::new(3, 3).unwrap();
    let mut out = vec![
        cells("1..4....9.5..8..2..981.2..4..1..5.9.58.92...7.798412.5.67518.4281.294.76........."),
        [0; 81],
    ];
    for clues in [17, 25, 40, 81] {
        for _ in 0..4 {
            let p = if clues == 81 {
                random_grid(shape, rng)
            } else {
                random_puzzle(shape, clues, 0.0, rng)
            };
            out.push(p.cells().try_into().unwrap());
        }
    }
    out
}

#[test]
fn canonical_form_is_invariant_and_reached_by_a_transform() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for puzzle in samples(&mut rng) {
        let canon = canonicalize(&puzzle).unwrap();
        assert!(canon.transform.is_valid());
        assert_eq!(canon.transform.apply(&puzzle).unwrap(), canon.form);
        for _ in 0..8 {
            let t = random_transform(&mut rng);
            let image = t.apply(&puzzle).unwrap();
            assert_eq!(canonical_form(&image).unwrap(), canon.form);
        }
    }
}

#[test]
fn canonical_form_is_the_least_of_sampled_equivalents() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for puzzle in samples(&mut rng).into_iter().take(12) {
        let form = canonical_form(&puzzle).unwrap();
        for _ in 0..300 {
            let image = random_transform(&mut rng).apply(&puzzle).unwrap();
            // The least relabelling of a fixed arrangement numbers digits
            // in order of first appearance.
            let mut labels = [0u8; 10];
            let mut next = 1;
            let relabelled: [u8; 81] = std::array::from_fn(|k| {
                let v = image[k] as usize;
                if v != 0 && labels[v] == 0 {
                    labels[v] = next;
                    next += 1;
                }
                labels[v]
            });
            assert!(form <= relabelled);
        }
    }
}

#[test]
fn inequivalent_puzzles_get_different_forms() {
    // Same clue count and digits, one clue moved: not equivalent (one has a
    // unique solution, the other does not), so the forms differ.
    let a =
        cells("1..4....9.5..8..2..981.2..4..1..5.9.58.92...7.798412.5.67518.4281.294.76.........");
    let mut b = a;
    b[0] = 0;
    b[80] = 1;
    assert_ne!(canonical_form(&a).unwrap(), canonical_form(&b).unwrap());
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let shape = Shape::new(3, 3).unwrap();
    let g1: [u8; 81] = random_grid(shape, &mut rng).cells().try_into().unwrap();
    let g2: [u8; 81] = random_grid(shape, &mut rng).cells().try_into().unwrap();
    assert_ne!(canonical_form(&g1).unwrap(), canonical_form(&g2).unwrap());
    assert_eq!(
        &canonical_form(&g1).unwrap()[..9],
        &[1, 2, 3, 4, 5, 6, 7, 8, 9]
    );
}
