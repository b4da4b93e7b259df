//! The toolkit against oracles that share none of its search code: a plain breadth-first search over tile
//! vectors written here (exhaustive on boards of up to 9 cells), path replay on [`Grid`], and the exact
//! strings the issue fixes.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};

use proptest::prelude::*;
use rstest::rstest;

use super::compare::{compare, random_pairs, render, Algorithm};
use super::*;

fn shape(rows: usize, cols: usize) -> Shape {
    Shape { rows, cols }
}

fn grid(rows: usize, cols: usize, tiles: &[u16]) -> Grid {
    Grid::new(shape(rows, cols), tiles).unwrap()
}

#[rstest]
#[case(3, 3, &[1, 2, 3, 4, 6, 8, 7, 5, 0], Some("ULDR"))]
#[case(4, 3, &[1, 3, 0, 4, 2, 6, 7, 5, 8, 10, 11, 9], Some("LDDRD"))]
#[case(4, 4, &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 13, 14, 15, 12], Some("D"))]
#[case(3, 3, &[1, 2, 3, 4, 6, 8, 5, 7, 0], None)]
fn the_issue_move_strings(#[case] rows: usize, #[case] cols: usize, #[case] tiles: &[u16], #[case] want: Option<&str>) {
    let start = grid(rows, cols, tiles);
    let goal = Grid::goal(start.shape()).unwrap();
    assert_eq!(moves_string(&start, &goal).unwrap().as_deref(), want);
    if let Some(moves) = want {
        assert_eq!(start.apply_moves(moves).unwrap(), goal);
    }
}

/// Every board's distance to `goal` by plain breadth-first search over tile vectors (unreachable: absent).
fn bfs_distances(goal: &Grid) -> HashMap<Vec<u16>, u32> {
    let s = goal.shape();
    let mut dist = HashMap::from([(goal.tiles().to_vec(), 0)]);
    let mut queue = VecDeque::from([goal.tiles().to_vec()]);
    while let Some(board) = queue.pop_front() {
        let d = dist[&board];
        let blank = board.iter().position(|&t| t == 0).unwrap();
        let (r, c) = (blank / s.cols, blank % s.cols);
        let mut others = Vec::new();
        if r > 0 {
            others.push(blank - s.cols);
        }
        if r + 1 < s.rows {
            others.push(blank + s.cols);
        }
        if c > 0 {
            others.push(blank - 1);
        }
        if c + 1 < s.cols {
            others.push(blank + 1);
        }
        for other in others {
            let mut next = board.clone();
            next.swap(blank, other);
            if !dist.contains_key(&next) {
                dist.insert(next.clone(), d + 1);
                queue.push_back(next);
            }
        }
    }
    dist
}

/// Distances to any goal from the table of its canonical form: relabelling the tiles (not the blank) the
/// same way on both boards keeps distances, so a goal is reduced to "blank in cell b, tiles in order".
fn distance(start: &Grid, goal: &Grid) -> Option<u32> {
    type Tables = HashMap<(Shape, usize), HashMap<Vec<u16>, u32>>;
    thread_local!(static TABLES: RefCell<Tables> = RefCell::default());
    let blank = goal.blank();
    let mut label = vec![0u16; goal.tiles().len()];
    let mut next = 1;
    for &t in goal.tiles() {
        if t != 0 {
            label[t as usize] = next;
            next += 1;
        }
    }
    let relabelled: Vec<u16> = start.tiles().iter().map(|&t| label[t as usize]).collect();
    TABLES.with(|tables| {
        let mut tables = tables.borrow_mut();
        let table = tables.entry((goal.shape(), blank)).or_insert_with(|| {
            let canonical: Vec<u16> = goal.tiles().iter().map(|&t| label[t as usize]).collect();
            bfs_distances(&Grid::new(goal.shape(), &canonical).unwrap())
        });
        table.get(&relabelled).copied()
    })
}

fn all_permutations(cells: usize) -> Vec<Vec<u16>> {
    let mut out = vec![Vec::new()];
    for _ in 0..cells {
        out = out
            .into_iter()
            .flat_map(|p: Vec<u16>| {
                let free: Vec<u16> = (0..cells as u16).filter(|t| !p.contains(t)).collect();
                free.into_iter().map(move |t| [p.clone(), vec![t]].concat())
            })
            .collect();
    }
    out
}

#[rstest]
#[case(2, 2)]
#[case(2, 3)]
#[case(3, 2)]
fn parity_rule_matches_exhaustive_search_on_every_pair(#[case] rows: usize, #[case] cols: usize) {
    let boards: Vec<Grid> = all_permutations(rows * cols).iter().map(|t| grid(rows, cols, t)).collect();
    let orbit = bfs_distances(&Grid::goal(shape(rows, cols)).unwrap());
    assert_eq!(orbit.len() * 2, boards.len());
    for a in &boards {
        let a_in = orbit.contains_key(a.tiles());
        for b in &boards {
            assert_eq!(a.can_reach(b), a_in == orbit.contains_key(b.tiles()), "{a:?} -> {b:?}");
        }
    }
}

#[test]
fn parity_rule_holds_on_sampled_3x4_boards() {
    let goal = Grid::goal(shape(3, 4)).unwrap();
    let pairs = random_pairs(shape(3, 4), 12, 7).unwrap();
    for (board, _) in pairs {
        assert!(board.can_reach(&goal));
        let moves = optimal_moves(&board, &goal, Limits { max_states: 50_000_000 }).unwrap().unwrap();
        assert_eq!(board.apply_moves(&move_string(&moves)).unwrap(), goal, "{board:?}");
        // One swap of two tiles flips the parity: the other class, which no move sequence reaches.
        let mut tiles = board.tiles().to_vec();
        let (a, b) = if tiles[0] != 0 && tiles[1] != 0 { (0, 1) } else { (10, 11) };
        tiles.swap(a, b);
        let swapped = grid(3, 4, &tiles);
        assert!(!swapped.can_reach(&goal));
        assert_eq!(optimal_moves(&swapped, &goal, Limits::NONE), Ok(None));
    }
}

/// A random solvable pair of `rows` x `cols` boards.
fn pair(rows: usize, cols: usize) -> impl Strategy<Value = (Grid, Grid)> {
    let tiles = Just((0..(rows * cols) as u16).collect::<Vec<_>>());
    (tiles.clone().prop_shuffle(), tiles.prop_shuffle()).prop_map(move |(a, b)| {
        let goal = grid(rows, cols, &b);
        let mut a = a;
        if !grid(rows, cols, &a).can_reach(&goal) {
            let (i, j) = if a[0] != 0 && a[1] != 0 { (0, 1) } else { (a.len() - 2, a.len() - 1) };
            a.swap(i, j);
        }
        (grid(rows, cols, &a), goal)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Every algorithm finds a path of the exact distance, and the path (bidirectional BFS's joined one
    /// included) replays from the start to the goal.
    #[test]
    fn every_algorithm_is_optimal_on_small_pairs(
        (start, goal) in prop_oneof![pair(2, 2), pair(2, 3), pair(3, 2), pair(3, 3)]
    ) {
        let want = distance(&start, &goal).expect("the pair is solvable");
        let space = Space::new(&goal).unwrap();
        for algorithm in Algorithm::ALL {
            let run = algorithm.run(&space, &start, Limits::NONE).unwrap();
            let Outcome::Solved(moves) = run.outcome else { panic!("{algorithm:?} did not solve {start:?}") };
            prop_assert_eq!(moves.len() as u32, want, "{:?}", algorithm);
            prop_assert_eq!(start.apply_moves(&move_string(&moves)).unwrap(), goal.clone(), "{:?}", algorithm);
        }
    }

    /// The move string is the first optimal one in the order U < D < L < R: at each step, the first letter
    /// whose board is one move closer by the oracle.
    #[test]
    fn move_strings_are_the_least_optimal_string((start, goal) in prop_oneof![pair(2, 3), pair(3, 3)]) {
        let mut want = String::new();
        let mut at = start.clone();
        while at != goal {
            let d = distance(&at, &goal).unwrap();
            let (dir, next) = Dir::ALL
                .into_iter()
                .filter_map(|dir| at.apply(dir).map(|next| (dir, next)))
                .find(|(_, next)| distance(next, &goal) == Some(d - 1))
                .unwrap();
            want.push(dir.letter());
            at = next;
        }
        prop_assert_eq!(moves_string(&start, &goal).unwrap(), Some(want));
    }
}

#[test]
fn compare_table_has_the_columns_and_equal_lengths() {
    let start = grid(3, 3, &[8, 6, 7, 2, 5, 4, 3, 0, 1]);
    let goal = Grid::goal(start.shape()).unwrap();
    let rows = compare(&[(start, goal)], Limits::NONE).unwrap();
    let table = render(&rows);
    let lines: Vec<&str> = table.lines().collect();
    let cells = |line: &str| line.split('|').map(|c| c.trim().to_string()).collect::<Vec<_>>();
    assert_eq!(cells(lines[0]), ["algorithm", "expanded", "generated", "length", "time", "peak memory"]);
    assert_eq!(lines.len(), 5);
    for (line, algorithm) in lines[1..].iter().zip(Algorithm::ALL) {
        let row = cells(line);
        assert_eq!(row.len(), 6);
        assert_eq!((row[0].as_str(), row[3].as_str()), (algorithm.name(), "31"));
    }
    // Breadth-first search reaches the goal last of all positions at depth 31: it expands the most.
    assert!(rows[0].stats.expanded > rows[2].stats.expanded);
}

#[test]
fn random_pairs_are_solvable_and_reproducible() {
    let a = random_pairs(shape(3, 3), 5, 42).unwrap();
    assert_eq!(a, random_pairs(shape(3, 3), 5, 42).unwrap());
    assert!(a.iter().all(|(s, g)| s.can_reach(g)));
}

#[rstest]
#[case("2 3\n1 2 3\n4 5 0\n", 2, 3)]
#[case("3\n1 2 3\n4 5 6\n7 8 0\n", 3, 3)]
#[case("2 1 2 3 0", 2, 2)]
#[case("3 2\n1 2\n3 4\n5 0\n", 3, 2)]
fn headers_of_both_forms(#[case] text: &str, #[case] rows: usize, #[case] cols: usize) {
    assert_eq!(parse_grid(text).unwrap().shape(), shape(rows, cols));
}

#[rstest]
#[case("", 1, "the file is empty: expected the size n (or m n)")]
#[case("2 3\n1 2 3\n4 5 5\n", 3, "tile 5 appears more than once (at row 1, column 2 again)")]
#[case("2 3\n1 2 3\n4 5 0 9\n", 3, "unexpected `9` after the 6 tiles of a 2-by-3 board")]
#[case("1 3\n1 2 0\n", 1, "shape 1x3 is out of range: m and n must be at least 2, m·n at most 16129")]
#[case("3\n1 2 3\n4 5 6\n7 8 x\n", 4, "expected a tile, found `x`")]
fn malformed_headers_name_the_line(#[case] text: &str, #[case] line: usize, #[case] problem: &str) {
    let e = parse_grid(text).unwrap_err();
    assert_eq!((e.line, e.problem.as_str()), (line, problem));
}

#[test]
fn rectangular_boards_print_with_their_header() {
    let g = grid(2, 3, &[1, 2, 3, 4, 5, 0]);
    assert_eq!(g.to_string(), "2 3\n 1  2  3 \n 4  5  0 \n");
    assert_eq!(parse_grid(&g.to_string()).unwrap(), g);
}

#[test]
fn bad_moves_and_mismatched_shapes_are_errors() {
    let g = Grid::goal(shape(2, 2)).unwrap();
    assert!(g.apply_moves("D").unwrap_err().to_string().contains("edge"));
    assert!(g.apply_moves("UX").unwrap_err().to_string().contains("not U, D, L or R"));
    let other = Grid::goal(shape(2, 3)).unwrap();
    assert!(optimal_moves(&g, &other, Limits::NONE).is_err());
    let big = Grid::goal(shape(6, 5)).unwrap();
    assert!(matches!(optimal_moves(&big, &big, Limits::NONE), Err(SolveError::Space(SpaceError::TooLarge(_)))));
}

#[test]
fn incremental_heuristic_matches_a_fresh_one_along_a_walk() {
    for (rows, cols) in [(2, 5), (3, 4), (4, 4), (5, 5), (2, 12)] {
        let goal = Grid::goal(shape(rows, cols)).unwrap();
        let space = Space::new(&goal).unwrap();
        let h = ManhattanConflict::new(&space);
        let mut s = space.goal();
        let mut memo = h.start(&s);
        let mut seed = 1u64;
        for _ in 0..400 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let dir = Dir::ALL[(seed >> 62) as usize];
            let from = s.blank();
            let Some(to) = space.step(from, dir) else { continue };
            s = s.slide(to);
            memo = h.after(&memo, &s, from, to);
            assert_eq!(h.value(&memo), h.value(&h.start(&s)));
            assert!(h.value(&memo) >= h.manhattan(&s));
        }
    }
}

/// The databases serve any 4x4 goal with the blank last by renaming tiles after their goal cells: the same
/// puzzle with every tile renamed (start and goal alike) gets the same move string.
#[rstest]
#[case(&[5, 1, 7, 2, 13, 0, 9, 3, 12, 15, 8, 4, 10, 14, 6, 11], 36)]
#[case(&[9, 3, 7, 6, 2, 0, 8, 10, 13, 4, 5, 1, 14, 11, 15, 12], 40)]
fn renamed_goals_get_the_same_moves_through_the_databases(#[case] tiles: &[u16], #[case] length: usize) {
    const SMALL: &[&[u8]] = &[&[1, 2, 5, 6], &[3, 4, 7, 8], &[9, 10, 13, 14], &[11, 12, 15]];
    let solver = OptimalSolver::with_groups(SMALL, None);
    let start = grid(4, 4, tiles);
    let goal = Grid::goal(start.shape()).unwrap();
    let space = Space::new(&goal).unwrap();
    let h = ManhattanConflict::new(&space);
    assert!(h.value(&h.start(&space.state(&start).unwrap())) > 24, "deep enough to use the databases");
    let (moves, _) = solver.solve(&start, &goal, Limits::NONE).unwrap();
    let moves = moves.unwrap();
    assert_eq!(moves.len(), length);
    // Rename tile t as 16 − t (the blank stays 0 and last in the goal).
    let rename = |g: &Grid| grid(4, 4, &g.tiles().iter().map(|&t| if t == 0 { 0 } else { 16 - t }).collect::<Vec<_>>());
    let (renamed, renamed_goal) = (rename(&start), rename(&goal));
    let (again, _) = solver.solve(&renamed, &renamed_goal, Limits::NONE).unwrap();
    assert_eq!(again.as_deref(), Some(moves.as_slice()));
    assert_eq!(renamed.apply_moves(&move_string(&moves)).unwrap(), renamed_goal);
}

/// The first time a split's databases are needed and not cached, the solver says it is building them, once;
/// a later solver over the same cache says nothing.
#[test]
fn building_the_databases_is_announced_once_and_a_cached_split_is_not() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NOTICES: AtomicUsize = AtomicUsize::new(0);
    fn count(line: &str) {
        assert!(line.starts_with("building the 4x4 pattern databases") && line.contains("cached in"), "{line}");
        NOTICES.fetch_add(1, Ordering::Relaxed);
    }
    const SPLIT: &[&[u8]] = &[&[1, 2, 5, 6], &[3, 4, 7, 8], &[9, 10, 13, 14], &[11, 12, 15]];
    let dir = tempfile::tempdir().unwrap();
    let first = OptimalSolver::with_groups(SPLIT, Some(dir.path().to_path_buf())).with_notice(count);
    assert!(!pdb::is_cached(SPLIT, Some(dir.path())));
    first.database().unwrap();
    first.database().unwrap();
    assert!(pdb::is_cached(SPLIT, Some(dir.path())));
    let later = OptimalSolver::with_groups(SPLIT, Some(dir.path().to_path_buf())).with_notice(count);
    later.database().unwrap();
    assert_eq!(NOTICES.load(Ordering::Relaxed), 1);
}
