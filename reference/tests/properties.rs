//! Invariants of the reference Board and Solver, checked on random boards against the independent oracle.

use proptest::prelude::*;
use reference::oracle::{self, DistanceTable};
use reference::{Board, PuzzleSolver, Solver};

/// A random board of dimension n (solvable or not): a shuffled permutation.
fn any_board(n: usize) -> impl Strategy<Value = Board> {
    Just((0..(n * n) as i64).collect::<Vec<_>>())
        .prop_shuffle()
        .prop_map(move |tiles| Board::from_row_major(n, &tiles).unwrap())
}

fn boards() -> impl Strategy<Value = Board> {
    (2usize..=6).prop_flat_map(any_board)
}

fn differing_positions(a: &Board, b: &Board) -> Vec<usize> {
    a.tiles().zip(b.tiles()).enumerate().filter(|(_, (x, y))| x != y).map(|(i, _)| i).collect()
}

proptest! {
    #[test]
    fn neighbors_are_one_slide_away_and_reversible(board in boards()) {
        let (r, c) = board.blank();
        let n = board.dimension();
        let expected = [r + 1 < n, c + 1 < n, c > 0, r > 0].iter().filter(|&&b| b).count();
        let neighbors = board.neighbors();
        prop_assert_eq!(neighbors.len(), expected);
        for neighbor in &neighbors {
            let diff = differing_positions(&board, neighbor);
            prop_assert_eq!(diff.len(), 2, "a slide changes exactly the blank and one tile");
            prop_assert!(neighbor.neighbors().contains(&board), "the slide can be undone");
            prop_assert!(neighbor.manhattan().abs_diff(board.manhattan()) == 1);
        }
    }

    #[test]
    fn the_twin_exchanges_exactly_two_non_blank_tiles(board in boards()) {
        let twin = board.twin();
        let diff = differing_positions(&board, &twin);
        prop_assert_eq!(diff.len(), 2);
        let tiles: Vec<usize> = board.tiles().collect();
        prop_assert!(diff.iter().all(|&i| tiles[i] != 0));
        prop_assert_ne!(oracle::is_solvable(&board), oracle::is_solvable(&twin));
    }

    #[test]
    fn hamming_never_exceeds_manhattan(board in boards()) {
        prop_assert!(board.hamming() <= board.manhattan());
        prop_assert_eq!(board.is_goal(), board.hamming() == 0);
    }

    #[test]
    fn solvability_by_search_equals_the_parity_rule(board in (2usize..=3).prop_flat_map(any_board)) {
        let solver = Solver::new(board.clone());
        prop_assert_eq!(solver.is_solvable(), oracle::is_solvable(&board));
        let table = DistanceTable::for_dimension(board.dimension()).unwrap();
        prop_assert_eq!(solver.moves(), table.distance(&board).map_or(-1, |d| d as i32));
    }

    #[test]
    fn every_solution_is_a_shortest_legal_path(board in any_board(3)) {
        let solver = Solver::new(board.clone());
        if let Some(path) = solver.solution() {
            prop_assert_eq!(path.first(), Some(&board));
            prop_assert!(path.last().unwrap().is_goal());
            prop_assert!(path.windows(2).all(|w| w[0].neighbors().contains(&w[1])));
            prop_assert_eq!(path.len() as i32, solver.moves() + 1);
            prop_assert_eq!(DistanceTable::three_by_three().distance(&board), Some(solver.moves() as u32));
        } else {
            prop_assert_eq!(solver.moves(), -1);
        }
    }
}

#[test]
fn the_solver_agrees_with_the_exact_table_on_every_layer_of_the_3x3_puzzle() {
    let table = DistanceTable::three_by_three();
    for k in 0..=table.diameter() {
        let size = table.layer_size(k);
        for index in [0, size / 2, size - 1] {
            let board = table.layer_board(k, index).unwrap();
            assert_eq!(Solver::new(board.clone()).moves(), k as i32, "{board:?}");
        }
    }
}
