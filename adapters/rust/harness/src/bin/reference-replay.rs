//! The floor under the Rust reference submission's grade: its grade's Board and Solver calls made again by a
//! plain program (`npuzzle_harness::replay`; `scripts/replay/floor.py` runs it). Not a submission to grade.
//!
//! Usage: `reference-replay CALLS`. Prints the calls made, the CPU spent reading the calls file and the CPU
//! spent inside the calls (the replaying thread's).

use std::process::ExitCode;
use std::time::Duration;

use reference::instrument::counting_board::CountingBoard;

/// The harness's stack for the student's calls (a recursive solver needs it).
const STACK_BYTES: usize = 256 << 20;

fn thread_cpu() -> Duration {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `now` is a valid timespec for the kernel to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

fn main() -> ExitCode {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: reference-replay CALLS (a calls file of scripts/replay/calls.py)");
        return ExitCode::from(2);
    };
    let started = thread_cpu();
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(error) => {
            eprintln!("reference-replay: cannot read {}: {error}", path.to_string_lossy());
            return ExitCode::from(2);
        }
    };
    let calls: Vec<i32> = bytes.chunks_exact(4).map(|w| i32::from_be_bytes([w[0], w[1], w[2], w[3]])).collect();
    let reading = thread_cpu() - started;
    let replayer = std::thread::Builder::new().stack_size(STACK_BYTES).spawn(move || {
        let started = thread_cpu();
        let done = npuzzle_harness::replay::replay::<
            reference::Board,
            reference::Solver<reference::Board>,
            reference::Solver<CountingBoard>,
        >(&calls);
        (done, thread_cpu() - started)
    });
    match replayer.map(|thread| thread.join()) {
        Ok(Ok((done, inside))) => {
            println!(
                "calls={} reading_ns={} inside_ns={} sink={}",
                done.calls,
                reading.as_nanos(),
                inside.as_nanos(),
                done.sink
            );
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("reference-replay: the replaying thread could not start or panicked");
            ExitCode::FAILURE
        }
    }
}
