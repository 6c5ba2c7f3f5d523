//! Sliding puzzles: the library against facts about the puzzles and against
//! plain, obviously-correct searches.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Mutex, OnceLock};
use std::time::Duration;

use sudokit::slide::cache::Unusable;
use sudokit::slide::fifteen::{BuildReason, Origin};
use sudokit::slide::pdb::{table_size, PatternDb};
use sudokit::slide::{
    self, cache, eight, parse, Board, Databases, DbEvent, Fifteen, Goal, Move, Outcome, SlideSolver,
};

/// Plain breadth-first search from a goal over boards of side `width`:
/// the distance of every reachable position.
fn plain_bfs(width: usize, goal: Goal) -> HashMap<Board, u8> {
    let start = Board::solved(width, goal);
    let mut distance = HashMap::from([(start, 0u8)]);
    let mut queue = VecDeque::from([start]);
    while let Some(board) = queue.pop_front() {
        let d = distance[&board];
        for next in Move::ALL.iter().filter_map(|&m| board.apply(m)) {
            distance.entry(next).or_insert_with(|| {
                queue.push_back(next);
                d + 1
            });
        }
    }
    distance
}

/// The shortest solution of `board`, or a panic naming the board.
fn solution(solver: &SlideSolver, board: &Board, goal: Goal) -> slide::Solution {
    match solver.solve(board, goal) {
        Outcome::Solved(solution) => solution,
        Outcome::Unsolvable => panic!("{board} reported unsolvable"),
    }
}

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }

    /// A uniformly random arrangement of `0..width²` (either parity).
    fn board(&mut self, width: usize) -> Board {
        let mut tiles: Vec<u8> = (0..(width * width) as u8).collect();
        for i in (1..tiles.len()).rev() {
            tiles.swap(i, self.below(i + 1));
        }
        Board::from_tiles(&tiles).unwrap()
    }

    /// The goal scrambled by `steps` random moves.
    fn scramble(&mut self, width: usize, goal: Goal, steps: usize) -> Board {
        let mut board = Board::solved(width, goal);
        for _ in 0..steps {
            let options: Vec<Board> = Move::ALL.iter().filter_map(|&m| board.apply(m)).collect();
            board = options[self.below(options.len())];
        }
        board
    }
}

/// 6-6-3 databases built in memory, shared by the tests of this file.
fn solver663() -> &'static SlideSolver {
    static SOLVER: OnceLock<SlideSolver> = OnceLock::new();
    SOLVER.get_or_init(|| SlideSolver::new(Databases::SixSixThree, None))
}

#[test]
fn eight_puzzle_table_matches_plain_bfs_everywhere() {
    let bfs = plain_bfs(3, Goal::BlankLast);
    assert_eq!(bfs.len(), 181_440);
    let table = eight::table();
    let mut count = 0;
    for (board, distance) in table.positions() {
        count += 1;
        assert_eq!(bfs.get(&board), Some(&distance), "{board}");
        let moves = table.solve(&board).unwrap();
        assert_eq!(moves.len(), distance as usize);
        assert!(
            board.replay(&moves).unwrap().is_solved(Goal::BlankLast),
            "{board}"
        );
    }
    assert_eq!(count, 181_440);
}

#[test]
fn eight_puzzle_hardest_positions_need_31_moves() {
    let table = eight::table();
    let longest = table.positions().map(|(_, d)| d).max().unwrap();
    assert_eq!(longest, 31);
    let mut hardest: Vec<String> = table
        .positions()
        .filter(|&(_, d)| d == longest)
        .map(|(b, _)| b.tiles().iter().map(u8::to_string).collect())
        .collect();
    hardest.sort();
    assert_eq!(hardest, ["647850321", "867254301"]);
}

#[test]
fn hdu_1043_sample_takes_19_moves() {
    let board = parse("2  3  4  1  5  x  7  6  8").unwrap();
    let Outcome::Solved(solution) = slide::solve(&board, Goal::BlankLast) else {
        panic!("the sample is solvable");
    };
    assert_eq!(solution.moves.len(), 19);
    assert!(board
        .replay(&solution.moves)
        .unwrap()
        .is_solved(Goal::BlankLast));
}

#[test]
fn request_bodies_get_printable_answers() {
    assert_eq!(slide::answer("12345678x", Goal::BlankLast).unwrap(), "");
    assert_eq!(
        slide::answer("1 2 3 4 5 6 7 x 8", Goal::BlankLast).unwrap(),
        "r"
    );
    assert_eq!(
        slide::answer("213456780", Goal::BlankLast).unwrap(),
        "unsolvable"
    );
    let error = slide::answer("1 2 3 4 5 6 7 8 9 10", Goal::BlankLast).unwrap_err();
    assert_eq!(
        error.to_string(),
        "10 tiles, expected 9 (8-puzzle) or 16 (15-puzzle)"
    );
}

#[test]
fn random_eight_puzzles_for_both_goals() {
    let mut rng = Rng(0x5eed);
    for goal in [Goal::BlankLast, Goal::BlankFirst] {
        let bfs = plain_bfs(3, goal);
        for _ in 0..2000 {
            let board = rng.board(3);
            match (slide::solve(&board, goal), bfs.get(&board)) {
                (Outcome::Solved(s), Some(&d)) => {
                    assert_eq!(s.moves.len(), d as usize, "{board}");
                    assert!(board.replay(&s.moves).unwrap().is_solved(goal), "{board}");
                }
                (Outcome::Unsolvable, None) => assert!(!board.is_solvable(goal)),
                (outcome, d) => panic!("{board} {goal:?}: {outcome:?} but BFS says {d:?}"),
            }
        }
    }
}

#[test]
fn solved_boards_need_no_moves() {
    for (width, goal) in [
        (3, Goal::BlankLast),
        (3, Goal::BlankFirst),
        (4, Goal::BlankFirst),
    ] {
        let board = Board::solved(width, goal);
        assert_eq!(solution(solver663(), &board, goal).moves, []);
    }
}

/// Korf's instances (1985) with their published optimal lengths, the easiest
/// of the 100 (blank-first goal).
const KORF_EASY: [(u32, usize, &str); 5] = [
    (55, 41, "13 8 14 3 9 1 0 7 15 5 4 10 12 2 6 11"),
    (79, 42, "0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15"),
    (42, 42, "4 5 7 2 9 14 12 13 0 3 6 11 8 1 15 10"),
    (16, 42, "1 3 2 5 10 9 15 6 8 14 13 11 12 4 7 0"),
    (12, 45, "14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15"),
];

#[test]
fn korf_easy_instances_are_solved_optimally() {
    for (id, optimal, tiles) in KORF_EASY {
        let board = parse(tiles).unwrap();
        let s = solution(solver663(), &board, Goal::BlankFirst);
        assert_eq!(s.moves.len(), optimal, "Korf #{id}");
        assert!(
            board.replay(&s.moves).unwrap().is_solved(Goal::BlankFirst),
            "Korf #{id}"
        );
        assert!(s.nodes > 0);
    }
}

#[test]
fn pattern_databases_agree_with_manhattan_search() {
    let manhattan = SlideSolver::new(Databases::Manhattan, None);
    let mut rng = Rng(0x15);
    for round in 0..40 {
        let goal = if round % 2 == 0 {
            Goal::BlankFirst
        } else {
            Goal::BlankLast
        };
        let board = rng.scramble(4, goal, 40);
        let fast = solution(solver663(), &board, goal);
        let slow = solution(&manhattan, &board, goal);
        assert_eq!(fast.moves.len(), slow.moves.len(), "{board}");
        assert!(
            board.replay(&fast.moves).unwrap().is_solved(goal),
            "{board}"
        );
        assert!(fast.nodes <= slow.nodes, "{board}");
    }
}

#[test]
fn unsolvable_fifteen_puzzles_are_reported() {
    let swapped = parse("0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15").unwrap();
    assert_eq!(
        solver663().solve(&swapped, Goal::BlankFirst),
        Outcome::Unsolvable
    );
    // The two goals lie in different halves of the 15-puzzle's state space.
    let korf_goal = Board::solved(4, Goal::BlankFirst);
    assert_eq!(
        solver663().solve(&korf_goal, Goal::BlankLast),
        Outcome::Unsolvable
    );
}

#[test]
fn solving_from_many_threads_at_once() {
    let mut rng = Rng(7);
    let boards: Vec<Board> = (0..8)
        .map(|_| rng.scramble(4, Goal::BlankLast, 30))
        .collect();
    let solver = solver663();
    std::thread::scope(|scope| {
        for board in &boards {
            scope.spawn(move || {
                let s = solution(solver, board, Goal::BlankLast);
                assert!(board.replay(&s.moves).unwrap().is_solved(Goal::BlankLast));
                let eight = parse("23415x768").unwrap();
                assert!(matches!(
                    slide::solve(&eight, Goal::BlankLast),
                    Outcome::Solved(_)
                ));
            });
        }
    });
}

/// A fresh directory under the system's temporary directory.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudokit-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn database_cache_is_written_reused_and_rebuilt_when_corrupt() {
    let dir = temp_dir("pdb-cache");
    let origins = |f: &Fifteen| {
        f.reports()
            .iter()
            .map(|r| r.origin.clone())
            .collect::<Vec<_>>()
    };

    let first = Fifteen::new(Databases::SixSixThree, Some(&dir));
    assert!(origins(&first)
        .iter()
        .all(|o| *o == Origin::Saved { replaced: None }));
    let second = Fifteen::new(Databases::SixSixThree, Some(&dir));
    assert!(origins(&second).iter().all(|o| *o == Origin::Loaded));

    let small = cache::file_for(&dir, Databases::SixSixThree.patterns()[0]);
    let mut bytes = std::fs::read(&small).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(&small, &bytes).unwrap();
    let third = Fifteen::new(Databases::SixSixThree, Some(&dir));
    assert_eq!(
        third.reports()[0].origin,
        Origin::Saved {
            replaced: Some(Unusable::ChecksumMismatch)
        }
    );
    assert_eq!(third.reports()[1].origin, Origin::Loaded);

    // A wrong size is seen before anything is read, and named in the event
    // that announces the rebuild.
    bytes.truncate(middle);
    std::fs::write(&small, &bytes).unwrap();
    let events = Mutex::new(Vec::new());
    let fourth = Fifteen::with_observer(Databases::SixSixThree, Some(&dir), &|e| {
        events.lock().unwrap().push(e.clone())
    });
    let wrong_size = Unusable::WrongSize {
        found: middle as u64,
        expected: cache::file_size(3),
    };
    assert_eq!(
        fourth.reports()[0].origin,
        Origin::Saved {
            replaced: Some(wrong_size.clone())
        }
    );
    let building: Vec<_> = events
        .into_inner()
        .unwrap()
        .into_iter()
        .filter_map(|e| match e {
            DbEvent::Building { tiles, reason, .. } => Some((tiles, reason)),
            _ => None,
        })
        .collect();
    assert_eq!(
        building,
        [(
            vec![1, 4, 5],
            BuildReason::Unusable {
                path: small.clone(),
                why: wrong_size
            }
        )]
    );

    // What was loaded solves as well as what was built.
    let solver = SlideSolver::new(Databases::SixSixThree, Some(dir.clone()));
    let (_, optimal, tiles) = KORF_EASY[0];
    let board = parse(tiles).unwrap();
    assert_eq!(
        solution(&solver, &board, Goal::BlankFirst).moves.len(),
        optimal
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `work` on a thread of its own and fails the test if it has not
/// finished within a minute (instead of hanging the test run with it).
fn within_a_minute<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    let (done, finished) = mpsc::channel();
    std::thread::spawn(move || done.send(work()));
    finished
        .recv_timeout(Duration::from_secs(60))
        .expect("still blocked after a minute")
}

/// Makes a FIFO (named pipe) at `path`.
fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// Writes a file that looks like the database of `tiles` — the documented
/// header (magic, pattern, table length, checksum) and a table of zeros, as a
/// sparse file — without building it. Enough for [`cache::check`], which
/// reads no table.
fn fake_database(path: &Path, tiles: &[u8]) {
    let mut header = b"SKPDB15\x01".to_vec();
    header.push(tiles.len() as u8);
    header.extend_from_slice(tiles);
    header.extend_from_slice(&(table_size(tiles.len()) as u64).to_le_bytes());
    header.extend_from_slice(&0u64.to_le_bytes());
    std::fs::write(path, &header).unwrap();
    let file = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    file.set_len(cache::file_size(tiles.len())).unwrap();
}

/// The events an observer hears, for the tests to look at.
#[derive(Default)]
struct Heard(Mutex<Vec<DbEvent>>);

impl Heard {
    fn observe(&self, event: &DbEvent) {
        self.0.lock().unwrap().push(event.clone());
    }

    fn events(&self) -> Vec<DbEvent> {
        self.0.lock().unwrap().clone()
    }
}

#[test]
fn garbage_under_the_7_8_names_is_ignored_by_the_default_choice() {
    let dir = temp_dir("pdb-garbage");
    std::fs::create_dir_all(&dir).unwrap();
    let [seven, eight] = Databases::SevenEight.patterns() else {
        panic!("two patterns");
    };
    for tiles in [seven, eight] {
        std::fs::write(cache::file_for(&dir, tiles), vec![0x5a; 4096]).unwrap();
    }
    let heard = Heard::default();
    let databases = Databases::preferred(Some(&dir), &|e| heard.observe(e));
    assert_eq!(databases, Databases::SixSixThree);
    let ignored: Vec<DbEvent> = [seven, eight]
        .iter()
        .map(|tiles| DbEvent::Ignored {
            path: cache::file_for(&dir, tiles),
            why: Unusable::WrongSize {
                found: 4096,
                expected: cache::file_size(tiles.len()),
            },
        })
        .collect();
    assert_eq!(heard.events(), ignored);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn seven_eight_is_preferred_only_when_its_files_look_right() {
    let dir = temp_dir("pdb-preferred");
    std::fs::create_dir_all(&dir).unwrap();
    let [seven, eight] = Databases::SevenEight.patterns() else {
        panic!("two patterns");
    };
    let (seven_path, eight_path) = (cache::file_for(&dir, seven), cache::file_for(&dir, eight));
    let choose = || {
        let heard = Heard::default();
        let databases = Databases::preferred(Some(&dir), &|e| heard.observe(e));
        (databases, heard.events())
    };
    assert_eq!(choose(), (Databases::SixSixThree, vec![]));
    fake_database(&seven_path, seven);
    fake_database(&eight_path, eight);
    assert_eq!(choose(), (Databases::SevenEight, vec![]));

    // The right size but another pattern's header; then not a database at all.
    fake_database(&eight_path, seven);
    std::fs::OpenOptions::new()
        .write(true)
        .open(&eight_path)
        .unwrap()
        .set_len(cache::file_size(eight.len()))
        .unwrap();
    let ignored = |why| DbEvent::Ignored {
        path: eight_path.clone(),
        why,
    };
    assert_eq!(
        choose(),
        (
            Databases::SixSixThree,
            vec![ignored(Unusable::OtherPattern)]
        )
    );
    std::fs::write(&eight_path, b"").unwrap();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&eight_path)
        .unwrap()
        .set_len(cache::file_size(eight.len()))
        .unwrap();
    assert_eq!(
        choose(),
        (
            Databases::SixSixThree,
            vec![ignored(Unusable::NotADatabase)]
        )
    );
    std::fs::remove_file(&eight_path).unwrap();
    std::fs::create_dir(&eight_path).unwrap();
    assert_eq!(
        choose(),
        (
            Databases::SixSixThree,
            vec![ignored(Unusable::NotAFile("a directory"))]
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_fifo_in_place_of_a_cache_file_is_never_opened_and_gets_replaced() {
    let dir = temp_dir("pdb-fifo");
    std::fs::create_dir_all(&dir).unwrap();
    let tiles = [1, 4, 5];
    let fifo = cache::file_for(&dir, &tiles);
    mkfifo(&fifo);
    let path = fifo.clone();
    let (checked, loaded) = within_a_minute(move || {
        let loaded = cache::load(&path, &tiles).map(|db| db.table().len());
        (cache::check(&path, &tiles), loaded)
    });
    let not_a_file = Unusable::NotAFile("a FIFO (named pipe)");
    assert_eq!(checked, Err(not_a_file.clone()));
    assert_eq!(loaded, Err(not_a_file));
    // Saving puts a regular file in its place, which then loads.
    let db = PatternDb::build(&tiles).unwrap();
    cache::save(&fifo, &db).unwrap();
    assert!(std::fs::metadata(&fifo).unwrap().is_file());
    assert_eq!(cache::load(&fifo, &tiles).unwrap().table(), db.table());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unwritable_cache_is_reported_once_and_not_retried() {
    // A cache directory under a regular file cannot be created, even by root
    // (for whom a read-only directory is writable).
    let base = temp_dir("pdb-unwritable");
    std::fs::create_dir_all(&base).unwrap();
    let blocker = base.join("a-file");
    std::fs::write(&blocker, b"not a directory").unwrap();
    let dir = blocker.join("cache");

    let heard = Heard::default();
    let fifteen = Fifteen::with_observer(Databases::SixSixThree, Some(&dir), &|e| heard.observe(e));
    let events = heard.events();
    let warnings: Vec<&DbEvent> = events.iter().filter(|e| e.is_warning()).collect();
    assert_eq!(warnings.len(), 1, "{events:?}");
    let DbEvent::Unwritable(error) = warnings[0] else {
        panic!("{warnings:?}");
    };
    assert_eq!(error.place, dir);
    assert!(error.first);
    let reasons: Vec<&BuildReason> = events
        .iter()
        .filter_map(|e| match e {
            DbEvent::Building { reason, .. } => Some(reason),
            _ => None,
        })
        .collect();
    assert_eq!(reasons.len(), 3, "{events:?}");
    for report in fifteen.reports() {
        match &report.origin {
            Origin::Unsaved { error } => assert_eq!(error.place, dir),
            other => panic!("{:?} {other:?}", report.tiles),
        }
    }

    // Once the directory could be written, this process still does not try.
    std::fs::remove_file(&blocker).unwrap();
    std::fs::create_dir_all(&dir).unwrap();
    let path = cache::file_for(&dir, &[1, 4, 5]);
    let again = cache::save(&path, &PatternDb::build(&[1, 4, 5]).unwrap()).unwrap_err();
    assert!(!again.first);
    assert!(!path.exists());
    std::fs::remove_dir_all(&base).unwrap();
}
