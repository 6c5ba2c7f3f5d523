//! The variant engines (`VariantSolver`, `DlxSolver`) against an independent
//! reference (`common/variant_reference.rs`: plain backtracking and a
//! solution checker that derive every rule from the layout's accessors),
//! against known counts and against published puzzles with known solutions;
//! and the variant line format, round trip and errors.

#[path = "common/variant_reference.rs"]
mod variant_reference;

use std::collections::HashMap;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sudokit::grid::{Puzzle, Shape};
use sudokit::variant::{Cage, DlxSolver, Layout, Rule, Rules, VariantPuzzle, VariantSolver};
use sudokit::{Solver, Status};
use variant_reference::{is_solution, Reference};

fn shape(r: usize, c: usize) -> Shape {
    Shape::new(r, c).unwrap()
}

/// Both engines for `layout`, named.
fn engines(layout: &Layout) -> Engines {
    vec![
        (
            "variant",
            Box::new(VariantSolver::new(layout)) as Box<dyn Solver>,
        ),
        ("dlx", Box::new(DlxSolver::new(layout))),
    ]
}

/// The puzzle as one line of the variant format, for failure messages.
fn line(layout: &Layout, givens: &[u8]) -> String {
    let puzzle = Puzzle::new(layout.shape(), givens.to_vec()).expect("givens in range");
    VariantPuzzle::new(layout.clone(), puzzle)
        .expect("same shape")
        .to_string()
}

/// Whether `solution` keeps every given.
fn keeps_givens(givens: &[u8], solution: &[u8]) -> bool {
    givens.iter().zip(solution).all(|(&g, &v)| g == 0 || g == v)
}

/// Engines, each with its name for failure messages.
type Engines = Vec<(&'static str, Box<dyn Solver>)>;

/// Checks `engines` (built for `layout`, perhaps used before) against the
/// reference on one puzzle: the count up to `limit` agrees, limit 0 counts
/// as 1, and every first solution returned is a solution (by the
/// independent checker) that keeps the givens. Returns the count.
fn cross_check_with(engines: &mut Engines, layout: &Layout, givens: &[u8], limit: u64) -> u64 {
    let (want, first) = Reference::new(layout).solve(givens, limit);
    if let Some(first) = &first {
        assert!(
            is_solution(layout, first),
            "reference solution rejected: {}",
            line(layout, givens)
        );
        assert!(keeps_givens(givens, first));
    }
    for (name, engine) in engines.iter_mut() {
        let mut out = vec![0; givens.len()];
        let got = engine
            .solve(givens, limit, Some(&mut out))
            .unwrap()
            .solutions;
        assert_eq!(
            got,
            want,
            "{name}: count up to {limit} of\n{}",
            line(layout, givens)
        );
        if got > 0 {
            assert!(
                is_solution(layout, &out) && keeps_givens(givens, &out),
                "{name}: wrong first solution {out:?} of\n{}",
                line(layout, givens)
            );
        }
        let at_most_one = engine.solve(givens, 0, None).unwrap().solutions;
        assert_eq!(
            at_most_one,
            want.min(1),
            "{name}: limit 0 on\n{}",
            line(layout, givens)
        );
    }
    want
}

/// [`cross_check_with`] with engines built for this puzzle.
fn cross_check(layout: &Layout, givens: &[u8], limit: u64) -> u64 {
    cross_check_with(&mut engines(layout), layout, givens, limit)
}

// ---------------------------------------------------------------------------
// Random layouts and puzzles
// ---------------------------------------------------------------------------

/// A solution of `layout` (which has no cages), or `None` when it has
/// none. The engine solves the grid with one random given, which keeps it
/// solvable when the empty grid is (relabelling digits maps solutions to
/// solutions on a layout without cage sums), then the digits are relabelled
/// at random.
fn random_solution(rng: &mut ChaCha8Rng, layout: &Layout) -> Option<Vec<u8>> {
    assert!(layout.cages().is_empty());
    let n = layout.side();
    let mut seed = vec![0; n * n];
    seed[rng.gen_range(0..n * n)] = rng.gen_range(1..=n as u8);
    let mut out = vec![0; n * n];
    let found = VariantSolver::new(layout)
        .solve(&seed, 1, Some(&mut out))
        .unwrap()
        .solutions;
    if found == 0 {
        return None;
    }
    let mut relabel: Vec<u8> = (1..=n as u8).collect();
    relabel.shuffle(rng);
    let solution: Vec<u8> = out.iter().map(|&v| relabel[v as usize - 1]).collect();
    assert!(
        is_solution(layout, &solution),
        "engine solution rejected: {}",
        line(layout, &solution)
    );
    Some(solution)
}

/// Region map symbols.
const SYMBOLS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";

fn map_text(regions: &[usize]) -> String {
    regions.iter().map(|&r| SYMBOLS[r] as char).collect()
}

/// A jigsaw map `solution` solves: the boxes, then `swaps` exchanges of two
/// cells holding the same digit in different regions (each region keeps
/// every digit once; regions need not stay connected).
fn swapped_map(rng: &mut ChaCha8Rng, s: Shape, solution: &[u8], swaps: usize) -> String {
    let cells = s.cell_count();
    let mut region: Vec<usize> = (0..cells).map(|i| s.box_of(i)).collect();
    for _ in 0..swaps {
        let a = rng.gen_range(0..cells);
        let partners: Vec<usize> = (0..cells)
            .filter(|&b| solution[b] == solution[a] && region[b] != region[a])
            .collect();
        if let Some(&b) = partners.choose(rng) {
            region.swap(a, b);
        }
    }
    map_text(&region)
}

/// `base` (no map, no cages) with a jigsaw map of `swaps` exchanges that a
/// solution of `base` solves, and that solution; `None` when `base` has no
/// solution. (Searching such a layout afresh can take the engine long on
/// 9×9, hence the solution is kept.)
fn solved_jigsaw(rng: &mut ChaCha8Rng, base: Layout, swaps: usize) -> Option<(Layout, Vec<u8>)> {
    let solution = random_solution(rng, &base)?;
    let map = swapped_map(rng, base.shape(), &solution, swaps);
    let layout = base.with_region_map(&map).unwrap();
    assert!(is_solution(&layout, &solution));
    Some((layout, solution))
}

/// Any partition of the cells into `N` regions of `N` cells (no solution
/// promised).
fn random_partition_map(rng: &mut ChaCha8Rng, n: usize) -> String {
    let mut cells: Vec<usize> = (0..n * n).collect();
    cells.shuffle(rng);
    let mut region = vec![0; n * n];
    for (k, &c) in cells.iter().enumerate() {
        region[c] = k / n;
    }
    map_text(&region)
}

/// Published 9×9 jigsaw maps (janko.at Chaos Sudoku 249, 250 and 316, as
/// stored in SmilingWayne/PuzzleSolver `assets/Sudoku/JigsawSudoku/problems/`;
/// the same puzzles are in `data/variants-published.txt`).
const JIGSAW_MAPS_9: [&str; 3] = [
    "ABCCDDDDDABBCCCCCDAEBBBBBCDAEEEEFBCDAAAGEFFFDHHAGEEEFFIHAGGGGGFIHHHHHHGFIIIIIIIGF",
    "AAABBCCDEABBBCCDDEABFFCDDGEABFCCDGGEABFCDDGEEABFCDHGEIAFFHHHGEIFFHHGGGEIHHHIIIIII",
    "AABBBBCCCAAABBBCDCAAAABCCDCEEFFBFCDDEEEFFFDDDEEGFHFFDDGEGGHIIIIGEGHHHIIIGGGHHHHII",
];

/// Cages partitioning the cells not `taken`: orthogonally connected, 1 to
/// `max` cells, whose digits in `solution` differ; cells in random order.
fn random_cages(
    rng: &mut ChaCha8Rng,
    n: usize,
    solution: &[u8],
    max: usize,
    mut taken: Vec<bool>,
) -> Vec<Vec<u16>> {
    let cells = n * n;
    let mut starts: Vec<usize> = (0..cells).collect();
    starts.shuffle(rng);
    let mut cages = Vec::new();
    for start in starts {
        if taken[start] {
            continue;
        }
        let target = rng.gen_range(1..=max.min(n));
        let mut cage = vec![start];
        taken[start] = true;
        while cage.len() < target {
            let mut frontier = Vec::new();
            for &c in &cage {
                let (r, col) = (c / n, c % n);
                let mut near = Vec::new();
                if r > 0 {
                    near.push(c - n);
                }
                if r + 1 < n {
                    near.push(c + n);
                }
                if col > 0 {
                    near.push(c - 1);
                }
                if col + 1 < n {
                    near.push(c + 1);
                }
                for x in near {
                    if !taken[x]
                        && !frontier.contains(&x)
                        && cage.iter().all(|&y| solution[y] != solution[x])
                    {
                        frontier.push(x);
                    }
                }
            }
            let Some(&next) = frontier.choose(rng) else {
                break;
            };
            taken[next] = true;
            cage.push(next);
        }
        cage.shuffle(rng);
        cages.push(cage.into_iter().map(|c| c as u16).collect());
    }
    cages
}

/// The cells of a random row, column or region of `layout`.
fn random_house(rng: &mut ChaCha8Rng, layout: &Layout) -> Vec<u16> {
    let n = layout.side();
    let k = rng.gen_range(0..n);
    let cells: Vec<usize> = match rng.gen_range(0..3) {
        0 => (0..n).map(|c| k * n + c).collect(),
        1 => (0..n).map(|r| r * n + k).collect(),
        _ => (0..n * n).filter(|&i| layout.region_of(i) == k).collect(),
    };
    cells.into_iter().map(|c| c as u16).collect()
}

/// A group of 2 to `N` cells whose digits in `solution` differ.
fn random_group(rng: &mut ChaCha8Rng, n: usize, solution: &[u8]) -> Vec<u16> {
    let size = rng.gen_range(2..=n);
    let mut cells: Vec<usize> = (0..n * n).collect();
    cells.shuffle(rng);
    let mut group: Vec<u16> = Vec::new();
    for c in cells {
        if group.len() == size {
            break;
        }
        if group.iter().all(|&g| solution[g as usize] != solution[c]) {
            group.push(c as u16);
        }
    }
    group
}

/// The sums `size` distinct digits `1..=n` can make.
fn sum_range(n: usize, size: usize) -> std::ops::RangeInclusive<u32> {
    let (n, k) = (n as u32, size as u32);
    k * (k + 1) / 2..=k * n - k * (k - 1) / 2
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    Classic,
    X,
    Windoku,
    Disjoint,
    AntiKnight,
    AntiKing,
    Combination,
    Jigsaw,
    Killer,
    CagesWithoutSums,
    Groups,
}

const KINDS: [Kind; 11] = [
    Kind::Classic,
    Kind::X,
    Kind::Windoku,
    Kind::Disjoint,
    Kind::AntiKnight,
    Kind::AntiKing,
    Kind::Combination,
    Kind::Jigsaw,
    Kind::Killer,
    Kind::CagesWithoutSums,
    Kind::Groups,
];

fn rules_of(list: &[Rule]) -> Rules {
    list.iter().fold(Rules::NONE, |rules, &r| rules.with(r))
}

/// Rule sets of two or three rules whose empty 9×9 grid the variant engine
/// solves in milliseconds. (Some others, such as x, windoku and antiknight
/// together, take it seconds to settle, too slow for generating thousands of
/// puzzles.)
const COMBINATIONS_9: [&[Rule]; 12] = [
    &[Rule::Diagonals, Rule::Windoku],
    &[Rule::Diagonals, Rule::Disjoint],
    &[Rule::Windoku, Rule::Disjoint],
    &[Rule::Diagonals, Rule::Windoku, Rule::Disjoint],
    &[Rule::Windoku, Rule::AntiKnight],
    &[Rule::Disjoint, Rule::AntiKnight],
    &[Rule::Diagonals, Rule::AntiKing],
    &[Rule::Windoku, Rule::AntiKing],
    &[Rule::Diagonals, Rule::Windoku, Rule::AntiKing],
    &[Rule::Disjoint, Rule::AntiKing],
    &[Rule::AntiKnight, Rule::AntiKing],
    &[Rule::Disjoint, Rule::AntiKnight, Rule::AntiKing],
];

/// A random rule set of two or three rules (on 9×9, one of
/// [`COMBINATIONS_9`]).
fn random_combination(rng: &mut ChaCha8Rng, n: usize) -> Rules {
    if n >= 9 {
        return rules_of(COMBINATIONS_9.choose(rng).unwrap());
    }
    let mut all = Rule::ALL.to_vec();
    all.shuffle(rng);
    let k = rng.gen_range(2..=3);
    rules_of(&all[..k])
}

/// The rules whose empty grid of side `n` the variant engine solves
/// quickly: all but windoku on 16×16, where neither engine finds a first
/// solution of the empty grid within seconds.
fn quick_rules(n: usize) -> Vec<Rule> {
    Rule::ALL
        .into_iter()
        .filter(|&r| n < 16 || r != Rule::Windoku)
        .collect()
}

/// Whether random puzzles of `kind` on `s` are made: all but windoku and
/// rule combinations on 16×16 (see [`quick_rules`]).
fn planned(kind: Kind, s: Shape) -> bool {
    s.side() < 16 || !matches!(kind, Kind::Windoku | Kind::Combination)
}

/// A layout of `kind` on `s` with a solution of it; `None` when the try
/// found no solvable layout (a rule set without solutions on that size).
fn random_layout(rng: &mut ChaCha8Rng, kind: Kind, s: Shape) -> Option<(Layout, Vec<u8>)> {
    let n = s.side();
    let classic = Layout::classic(s);
    let single = |rule| classic.clone().with_rules(Rules::NONE.with(rule));
    let with_solution = |rng: &mut ChaCha8Rng, layout: Layout| {
        random_solution(rng, &layout).map(|sol| (layout, sol))
    };
    match kind {
        Kind::Classic => with_solution(rng, classic),
        Kind::X => with_solution(rng, single(Rule::Diagonals)),
        Kind::Windoku => with_solution(rng, single(Rule::Windoku)),
        Kind::Disjoint => with_solution(rng, single(Rule::Disjoint)),
        Kind::AntiKnight => with_solution(rng, single(Rule::AntiKnight)),
        Kind::AntiKing => with_solution(rng, single(Rule::AntiKing)),
        Kind::Combination => {
            let layout = classic.with_rules(random_combination(rng, n));
            if rng.gen_bool(0.3) {
                solved_jigsaw(rng, layout, 2 * n)
            } else {
                with_solution(rng, layout)
            }
        }
        Kind::Jigsaw => {
            if s == shape(3, 3) && rng.gen_bool(0.5) {
                let map = JIGSAW_MAPS_9.choose(rng).unwrap();
                with_solution(rng, classic.with_region_map(map).unwrap())
            } else {
                let swaps = rng.gen_range(1..=3 * n);
                solved_jigsaw(rng, classic, swaps)
            }
        }
        Kind::Killer | Kind::CagesWithoutSums => {
            let base = if rng.gen_bool(0.25) {
                classic.with_rules(Rules::NONE.with(*quick_rules(n).choose(rng).unwrap()))
            } else {
                classic
            };
            let (base, sol) = with_solution(rng, base)?;
            let max = if n == 4 { 4 } else { 5 };
            let mut layout = base;
            let mut taken = vec![false; n * n];
            if rng.gen_bool(0.15) {
                // A cage that is a whole row or region (a house twice).
                let mut house = random_house(rng, &layout);
                house.shuffle(rng);
                let sum = (kind == Kind::Killer).then_some((n * (n + 1) / 2) as u32);
                for &c in &house {
                    taken[c as usize] = true;
                }
                layout = layout.with_cage(Cage { sum, cells: house }).unwrap();
            }
            for cells in random_cages(rng, n, &sol, max, taken) {
                let sum = if kind == Kind::Killer && !rng.gen_bool(0.1) {
                    Some(cells.iter().map(|&c| sol[c as usize] as u32).sum())
                } else if kind == Kind::CagesWithoutSums && rng.gen_bool(0.3) {
                    // Not every cell needs a cage.
                    continue;
                } else {
                    None
                };
                layout = layout.with_cage(Cage { sum, cells }).unwrap();
            }
            Some((layout, sol))
        }
        Kind::Groups => {
            let (mut layout, sol) = if rng.gen_bool(0.3) {
                solved_jigsaw(rng, classic, n)?
            } else {
                with_solution(rng, classic)?
            };
            for _ in 0..rng.gen_range(1..=4) {
                layout = layout.with_group(random_group(rng, n, &sol)).unwrap();
            }
            if rng.gen_bool(0.2) {
                // A house again as a group, in another order.
                let mut house = random_house(rng, &layout);
                house.shuffle(rng);
                layout = layout.with_group(house).unwrap();
            }
            if rng.gen_bool(0.2) {
                // A group twice.
                let again = layout.groups().choose(rng).unwrap().clone();
                layout = layout.with_group(again).unwrap();
            }
            Some((layout, sol))
        }
    }
}

/// How many givens to keep: few on 4×4, enough on larger grids for the
/// plain reference to stay fast (fewer when cage sums help it).
fn given_count(rng: &mut ChaCha8Rng, kind: Kind, n: usize) -> usize {
    let killer = kind == Kind::Killer;
    match (n, killer) {
        (4, true) => rng.gen_range(0..=3),
        (4, false) => rng.gen_range(0..=9),
        (6, true) => rng.gen_range(0..=8),
        (6, false) => rng.gen_range(6..=22),
        (8, true) => rng.gen_range(10..=36),
        (8, false) => rng.gen_range(20..=44),
        (9, true) => rng.gen_range(18..=50),
        (9, false) => rng.gen_range(28..=55),
        (16, true) => rng.gen_range(150..=210),
        (16, false) => rng.gen_range(160..=215),
        _ => unreachable!("no plan for side {n}"),
    }
}

/// A puzzle on `layout` from `solution`: a random subset of givens, and
/// sometimes one given changed to another digit (or, without givens, one
/// cage sum changed to another sum its size can make).
fn random_puzzle(
    rng: &mut ChaCha8Rng,
    kind: Kind,
    layout: &Layout,
    solution: &[u8],
) -> (Layout, Vec<u8>) {
    let n = layout.side();
    let mut cells: Vec<usize> = (0..n * n).collect();
    cells.shuffle(rng);
    let keep = given_count(rng, kind, n);
    let mut givens = vec![0u8; n * n];
    for &c in &cells[..keep] {
        givens[c] = solution[c];
    }
    let mut layout = layout.clone();
    if rng.gen_bool(0.3) {
        let summed: Vec<usize> = (0..layout.cages().len())
            .filter(|&i| {
                let cage = &layout.cages()[i];
                cage.sum.is_some() && sum_range(n, cage.cells.len()).count() > 1
            })
            .collect();
        if keep > 0 && (summed.is_empty() || rng.gen_bool(0.5)) {
            let c = cells[rng.gen_range(0..keep)];
            let other = loop {
                let d = rng.gen_range(1..=n as u8);
                if d != givens[c] {
                    break d;
                }
            };
            givens[c] = other;
        } else if let Some(&i) = summed.choose(rng) {
            let mut cages = layout.cages().to_vec();
            let old = cages[i].sum.unwrap();
            let sums: Vec<u32> = sum_range(n, cages[i].cells.len())
                .filter(|&s| s != old)
                .collect();
            cages[i].sum = Some(*sums.choose(rng).unwrap());
            let mut rebuilt = Layout::classic(layout.shape()).with_rules(layout.rules());
            if layout.is_jigsaw() {
                let map: Vec<usize> = (0..n * n).map(|c| layout.region_of(c)).collect();
                rebuilt = rebuilt.with_region_map(&map_text(&map)).unwrap();
            }
            for group in layout.groups() {
                rebuilt = rebuilt.with_group(group.clone()).unwrap();
            }
            for cage in cages {
                rebuilt = rebuilt.with_cage(cage).unwrap();
            }
            layout = rebuilt;
        }
    }
    (layout, givens)
}

// ---------------------------------------------------------------------------
// Exact counts, two ways
// ---------------------------------------------------------------------------

/// Exact counts of `givens` on `layout` by the reference and both engines.
fn exact_counts_agree(layout: &Layout, givens: &[u8]) -> u64 {
    cross_check(layout, givens, u64::MAX)
}

#[test]
fn empty_4x4_counts_agree_with_a_known_fact_and_across_engines() {
    let s = shape(2, 2);
    let empty = vec![0; 16];
    // 288 4×4 Sudoku grids: a known fact.
    assert_eq!(
        Reference::new(&Layout::classic(s)).count(&empty, u64::MAX),
        288
    );
    assert_eq!(exact_counts_agree(&Layout::classic(s), &empty), 288);
    for rule in [
        Rule::Diagonals,
        Rule::AntiKing,
        Rule::Disjoint,
        Rule::Windoku,
        Rule::AntiKnight,
    ] {
        let layout = Layout::classic(s).with_rules(Rules::NONE.with(rule));
        exact_counts_agree(&layout, &empty);
    }
    for pair in [
        [Rule::Diagonals, Rule::Windoku],
        [Rule::Diagonals, Rule::Disjoint],
    ] {
        exact_counts_agree(&Layout::classic(s).with_rules(rules_of(&pair)), &empty);
    }
}

#[test]
fn tiny_shapes_with_every_rule_set_count_alike() {
    // Every box shape of side 1 to 4 (boxes that are rows or columns too),
    // with each of the 32 rule sets, empty.
    let mut solvable = 0;
    for (r, c) in [
        (1, 1),
        (1, 2),
        (2, 1),
        (1, 3),
        (3, 1),
        (1, 4),
        (4, 1),
        (2, 2),
    ] {
        let s = shape(r, c);
        for mask in 0..32u32 {
            let list: Vec<Rule> = (0..5)
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| Rule::ALL[i])
                .collect();
            let layout = Layout::classic(s).with_rules(rules_of(&list));
            if exact_counts_agree(&layout, &vec![0; s.cell_count()]) > 0 {
                solvable += 1;
            }
        }
    }
    assert!(solvable > 32, "{solvable}");
}

#[test]
fn random_4x4_jigsaw_counts_agree() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x4a16);
    let s = shape(2, 2);
    let mut solvable = 0;
    for _ in 0..40 {
        let map = random_partition_map(&mut rng, 4);
        let layout = Layout::classic(s).with_region_map(&map).unwrap();
        if exact_counts_agree(&layout, &[0; 16]) > 0 {
            solvable += 1;
        }
    }
    // Maps with and without solutions both occurred.
    assert!(
        solvable > 0 && solvable < 40,
        "{solvable} of 40 maps solvable"
    );
}

#[test]
fn six_by_six_x_counts_with_givens_agree() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x66);
    let s = shape(2, 3);
    let layout = Layout::classic(s).with_rules(Rules::NONE.with(Rule::Diagonals));
    let mut counts = Vec::new();
    for _ in 0..12 {
        let solution = random_solution(&mut rng, &layout).expect("6×6 X has solutions");
        let mut cells: Vec<usize> = (0..36).collect();
        cells.shuffle(&mut rng);
        let keep = rng.gen_range(8..=14);
        let mut givens = vec![0; 36];
        for &c in &cells[..keep] {
            givens[c] = solution[c];
        }
        counts.push(exact_counts_agree(&layout, &givens));
    }
    assert!(counts.iter().all(|&c| c >= 1));
    assert!(counts.iter().any(|&c| c > 1), "{counts:?}");
}

// ---------------------------------------------------------------------------
// Thousands of random puzzles of every kind
// ---------------------------------------------------------------------------

#[test]
fn random_variant_puzzles_agree_with_the_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_7a41);
    let mut verdicts: HashMap<Kind, [usize; 3]> = HashMap::new();
    let plan = [
        (shape(2, 2), 600),
        (shape(2, 3), 400),
        (shape(3, 2), 100),
        (shape(2, 4), 100),
        (shape(3, 3), 200),
        (shape(4, 4), 40),
    ];
    // A quarter of them in unoptimised builds, where the reference is slow.
    let share = if cfg!(debug_assertions) { 4 } else { 1 };
    for kind in KINDS {
        for &(s, all) in &plan {
            let puzzles = all / share;
            if !planned(kind, s) {
                continue;
            }
            let mut made = 0;
            let mut tries = 0;
            while made < puzzles && tries < 3 * puzzles {
                tries += 1;
                // A fresh layout every few puzzles.
                let Some((layout, solution)) = random_layout(&mut rng, kind, s) else {
                    continue;
                };
                // The engines serve every puzzle of the layout in turn (a
                // puzzle whose cage sum was changed gets its own).
                let mut shared = engines(&layout);
                for _ in 0..4 {
                    let (changed, givens) = random_puzzle(&mut rng, kind, &layout, &solution);
                    let mut own;
                    let list = if changed == layout {
                        &mut shared
                    } else {
                        own = engines(&changed);
                        &mut own
                    };
                    let limit = if s.side() == 4 { u64::MAX } else { 2 };
                    let count = cross_check_with(list, &changed, &givens, limit).min(2);
                    let verdict = match Status::from_count(count) {
                        Status::None => 0,
                        Status::Unique => 1,
                        Status::Multiple => 2,
                    };
                    verdicts.entry(kind).or_default()[verdict] += 1;
                    made += 1;
                }
            }
        }
    }
    for kind in KINDS {
        let [none, unique, multiple] = verdicts.get(&kind).copied().unwrap_or_default();
        assert!(
            none > 0 && unique > 0 && multiple > 0,
            "{kind:?}: {none} without solution, {unique} unique, {multiple} multiple"
        );
    }
}

/// Killers with few or no givens, out of the plain reference's reach: the
/// two engines agree with each other, and the checker accepts their
/// solutions.
#[test]
fn engines_agree_on_sparse_killers() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x4b11);
    let mut verdicts = [0; 3];
    for _ in 0..60 {
        let s = shape(3, 3);
        let (layout, solution) = random_layout(&mut rng, Kind::Killer, s).unwrap();
        let (layout, mut givens) = random_puzzle(&mut rng, Kind::Killer, &layout, &solution);
        // Keep at most a few of the givens.
        let keep = rng.gen_range(0..=6);
        let mut kept = 0;
        for g in givens.iter_mut().filter(|g| **g != 0) {
            kept += 1;
            if kept > keep {
                *g = 0;
            }
        }
        let mut results = Vec::new();
        for (name, mut engine) in engines(&layout) {
            let mut out = vec![0; 81];
            let count = engine.solve(&givens, 2, Some(&mut out)).unwrap().solutions;
            if count > 0 {
                assert!(
                    is_solution(&layout, &out) && keeps_givens(&givens, &out),
                    "{name}: wrong solution of\n{}",
                    line(&layout, &givens)
                );
            }
            results.push((count, out));
        }
        assert_eq!(
            results[0].0,
            results[1].0,
            "counts differ on\n{}",
            line(&layout, &givens)
        );
        if results[0].0 == 1 {
            assert_eq!(results[0].1, results[1].1);
        }
        verdicts[results[0].0 as usize] += 1;
    }
    assert!(verdicts.iter().all(|&v| v > 0), "{verdicts:?}");
}

// ---------------------------------------------------------------------------
// The line format
// ---------------------------------------------------------------------------

#[test]
fn variant_puzzles_print_and_parse_back() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x7e47);
    for kind in KINDS {
        for s in [shape(2, 2), shape(2, 3), shape(3, 3), shape(4, 4)] {
            if !planned(kind, s) {
                continue;
            }
            for _ in 0..6 {
                let Some((layout, solution)) = random_layout(&mut rng, kind, s) else {
                    continue;
                };
                let (layout, givens) = random_puzzle(&mut rng, kind, &layout, &solution);
                let puzzle =
                    VariantPuzzle::new(layout.clone(), Puzzle::new(s, givens).unwrap()).unwrap();
                let text = puzzle.to_string();
                let back: VariantPuzzle = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
                assert_eq!(back, puzzle, "{text}");
                assert_eq!(back.to_string(), text);
                // With an id before the cells, and `;` between fields.
                let with_id = format!("p{kind:?}: {}", text.replace(' ', ";"));
                let back: VariantPuzzle =
                    with_id.parse().unwrap_or_else(|e| panic!("{with_id}: {e}"));
                assert_eq!(back, puzzle, "{with_id}");
            }
        }
    }
    // Random partitions that have no solution print and parse back too.
    for _ in 0..10 {
        let map = random_partition_map(&mut rng, 9);
        let layout = Layout::classic(shape(3, 3)).with_region_map(&map).unwrap();
        let puzzle = VariantPuzzle::new(layout, Puzzle::empty(shape(3, 3))).unwrap();
        let back: VariantPuzzle = puzzle.to_string().parse().unwrap();
        assert_eq!(back, puzzle);
    }
}

#[test]
fn fields_of_any_characters_parse() {
    let s = shape(2, 2);
    let blank = ".".repeat(16);
    let plain: VariantPuzzle = blank.parse().unwrap();
    // Unknown fields of non-ASCII text are ignored, whatever byte a layout
    // key's length falls on.
    for field in [
        "abcdé",
        "variantéé",
        "régions=x",
        "groupé=r1c1",
        "ü",
        "名前=数独",
    ] {
        let text = format!("{blank} {field}");
        let p: VariantPuzzle = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(p, plain, "{text}");
    }
    // Region symbols may be any characters.
    let greek: VariantPuzzle = format!("{blank} regions=αααβαβββγγγδγδδδ").parse().unwrap();
    let latin: VariantPuzzle = format!("{blank} regions=AAABABBBCCCDCDDD").parse().unwrap();
    assert!(greek.layout().is_jigsaw());
    assert_eq!(greek, latin);
    assert_eq!(
        Layout::classic(s)
            .with_region_map("αααβαβββγγγδγδδδ")
            .unwrap(),
        *latin.layout()
    );
}

/// The error message of parsing `text`, which must fail.
fn parse_error(text: &str) -> String {
    match text.parse::<VariantPuzzle>() {
        Ok(p) => panic!("'{text}' parsed as {p}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bad_layout_fields_are_refused_with_the_reason() {
    let blank4 = ".".repeat(16);
    let blank9 = ".".repeat(81);
    let cases: Vec<(String, &str)> = vec![
        // A region map of 15 symbols on a 4×4 grid.
        (
            format!("{blank4} regions=AAAABBBBCCCCDDD"),
            "region map of 15 cells, expected 16",
        ),
        // Region A has five cells.
        (
            format!("{blank4} regions=AAAAABBBCCCCDDDD"),
            "region 'A' has 5 cells",
        ),
        // Two cells of 1 to 9 make at most 17.
        (format!("{blank9} cage=18@r1c1r1c2"), "cannot sum to 18"),
        // Three cells make at least 6.
        (format!("{blank9} cage=5@r1c1r1c2r1c3"), "cannot sum to 5"),
        (
            format!("{blank9} variant=x,diagonal-ish"),
            "unknown variant rule 'diagonal-ish'",
        ),
        (
            format!("{blank9} variant=knights"),
            "unknown variant rule 'knights'",
        ),
        (format!("{blank9} cage=3@r0c1r1c1"), "r0c1"),
        (format!("{blank9} cage=3@r10c1r1c1"), "r10c1"),
        (format!("{blank9} group=r1c1r1c10"), "r1c10"),
        (format!("{blank9} group=r1c0"), "outside a grid of side 9"),
        (
            format!("{blank9} cage=r1c1r1c2 cage=r1c2r1c3"),
            "cell r1c2 is in two cages",
        ),
        (
            format!("{blank9} cage=x@r1c1r1c2"),
            "cage sum 'x' is not a number",
        ),
        (format!("{blank9} group=r1c1r1c1"), "repeated cell"),
        (format!("{blank9} group=r1c1c2"), "not of the form r1c1r1c2"),
    ];
    for (text, want) in cases {
        let message = parse_error(&text);
        assert!(
            message.contains(want),
            "'{text}': '{message}' does not say '{want}'"
        );
    }
}

// ---------------------------------------------------------------------------
// Published puzzles
// ---------------------------------------------------------------------------

/// The puzzles of `data/variants-published.txt` with their known solutions:
/// each puzzle line carries its published solution as a `solution=` field,
/// which the puzzle parser ignores.
fn published() -> Vec<(String, VariantPuzzle, Puzzle)> {
    let text = include_str!("data/variants-published.txt");
    let mut out = Vec::new();
    for raw in text.lines() {
        let raw = raw.trim();
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let puzzle: VariantPuzzle = raw.parse().unwrap_or_else(|e| panic!("{raw}: {e}"));
        let known = raw
            .split_whitespace()
            .find_map(|f| f.strip_prefix("solution="))
            .unwrap_or_else(|| panic!("no solution= field: {raw}"));
        let known: Puzzle = known.parse().unwrap();
        out.push((raw.to_string(), puzzle, known));
    }
    out
}

/// Checks that `engine` finds `known` as the only solution of `puzzle`.
fn assert_unique(
    name: &str,
    engine: &mut dyn Solver,
    raw: &str,
    puzzle: &VariantPuzzle,
    known: &Puzzle,
) {
    let mut out = vec![0; known.cells().len()];
    let status = engine
        .status(puzzle.givens().cells(), Some(&mut out))
        .unwrap();
    assert_eq!(status, Status::Unique, "{name}: {raw}");
    assert_eq!(out, known.cells(), "{name}: {raw}");
}

#[test]
fn published_puzzles_have_their_known_unique_solution() {
    let mut kinds = [false; 3];
    let all = published();
    for (raw, puzzle, known) in &all {
        let layout = puzzle.layout();
        kinds[0] |= layout.is_jigsaw();
        kinds[1] |= layout.rules().contains(Rule::Diagonals);
        kinds[2] |= layout.cages().iter().any(|c| c.sum.is_some());
        assert!(
            is_solution(layout, known.cells()),
            "known solution rejected by the checker: {raw}"
        );
        assert!(keeps_givens(puzzle.givens().cells(), known.cells()));
        assert_unique(
            "variant",
            &mut VariantSolver::new(layout),
            raw,
            puzzle,
            known,
        );
        assert_unique("dlx", &mut DlxSolver::new(layout), raw, puzzle, known);
        assert_eq!(puzzle.status(), Status::Unique);
        assert_eq!(puzzle.solve().as_ref(), Some(known));
        assert!(puzzle.is_solved_by(known));
    }
    assert!(
        all.len() >= 3 && kinds.iter().all(|&k| k),
        "{} puzzles, kinds {kinds:?}",
        all.len()
    );
}
