//! A submission whose Board misbehaves on demand, for the harness's own tests (`tests/it/rescue.rs`):
//! `hamming()` of any 4-by-4 board does what `HARNESS_PROBE` says (`abort`, `segfault`, `overflow`, `exit`,
//! `hang`); every other call is the reference's. `HARNESS_PROBE_WATCHDOG=off` serves without the watchdog.
//! Not a submission to grade.

use std::fmt;

use npuzzle_harness::Serving;
use reference::instrument::counting_board::CountingBoard;
use reference::PuzzleBoard;

#[derive(Clone, PartialEq)]
struct ProbeBoard(reference::Board);

impl fmt::Display for ProbeBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl PuzzleBoard for ProbeBoard {
    fn from_tiles(tiles: &[Vec<u32>]) -> Self {
        ProbeBoard(reference::Board::from_tiles(tiles))
    }
    fn dimension(&self) -> usize {
        self.0.dimension()
    }
    fn hamming(&self) -> u32 {
        if self.dimension() == 4 {
            misbehave();
        }
        self.0.hamming()
    }
    fn manhattan(&self) -> u32 {
        self.0.manhattan()
    }
    fn is_goal(&self) -> bool {
        self.0.is_goal()
    }
    fn neighbors(&self) -> Vec<Self> {
        self.0.neighbors().into_iter().map(ProbeBoard).collect()
    }
    fn twin(&self) -> Self {
        ProbeBoard(self.0.twin())
    }
}

fn misbehave() {
    match std::env::var("HARNESS_PROBE").as_deref() {
        Ok("abort") => std::process::abort(),
        // SAFETY: none; a deliberate invalid write, to die of SIGSEGV outside any guard page.
        Ok("segfault") => unsafe { std::ptr::write_volatile(std::ptr::null_mut::<u64>(), 1) },
        Ok("overflow") => {
            #[allow(unconditional_recursion)]
            fn deeper(n: u64) -> u64 {
                let pad = std::hint::black_box([n; 64]);
                deeper(pad[1] + 1) + pad[2]
            }
            std::hint::black_box(deeper(0));
        }
        Ok("exit") => std::process::exit(0),
        Ok("hang") => loop {
            std::hint::spin_loop();
        },
        _ => {}
    }
}

fn main() -> std::process::ExitCode {
    let watchdog = std::env::var("HARNESS_PROBE_WATCHDOG").as_deref() != Ok("off");
    npuzzle_harness::serve_with::<ProbeBoard, reference::Solver<ProbeBoard>, reference::Solver<CountingBoard>>(
        Serving { watchdog },
    )
}
