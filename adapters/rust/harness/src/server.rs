//! The protocol server: reads requests, calls the student's code, writes replies.
//!
//! Each request runs under `catch_unwind`, so a panic in student code becomes an `err exception` reply and
//! the conversation goes on. CPU time is measured on the serving thread around the call. The server runs on
//! a thread with a large stack so a recursive (IDA*-style) solver is not cut short by the default 8 MiB.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::mem::ManuallyDrop;
use std::os::fd::FromRawFd;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use super::objects::{Object, Objects};
use super::outbox::{self, Outbox};
use super::static_memory;
use crate::protocol::{
    encode_handles, encode_neighbor_texts, encode_texts, escape, Handle, Outcome, Reply, ReplyHandles, Request, Tiles,
    WireError, World, NEIGHBOR_TEXTS, TEXTS, VERSION,
};
use reference::instrument::counting_board::CountingBoard;
use reference::instrument::{counters, cpu, memory};
use reference::{Board, PuzzleBoard, PuzzleSolver};

const SERVER_STACK_BYTES: usize = 256 << 20;

/// Why a request could not be answered with `ok`, other than a panic.
enum Refusal {
    Unsupported(String),
    Protocol(String),
}

impl From<String> for Refusal {
    fn from(reason: String) -> Refusal {
        Refusal::Protocol(reason)
    }
}

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Serves the protocol on standard input/output until `bye` or end of input. `B` is the student's Board,
/// `S` their Solver over it, `R` their Solver over the counting reference board.
pub fn serve<B, S, R>() -> ExitCode
where
    B: PuzzleBoard + 'static,
    S: PuzzleSolver<B> + 'static,
    R: PuzzleSolver<CountingBoard> + 'static,
{
    serve_with::<B, S, R>(Serving::default())
}

/// How [`serve_with`] serves; [`serve`] uses the default.
#[derive(Debug, Clone, Copy)]
pub struct Serving {
    /// Whether the watchdog runs (see `outbox`). Only the harness's own tests turn it off, to show that the
    /// crash handlers and the exit hook alone deliver every earlier reply.
    pub watchdog: bool,
}

impl Default for Serving {
    fn default() -> Self {
        Serving { watchdog: true }
    }
}

/// [`serve`], with options.
pub fn serve_with<B, S, R>(serving: Serving) -> ExitCode
where
    B: PuzzleBoard + 'static,
    S: PuzzleSolver<B> + 'static,
    R: PuzzleSolver<CountingBoard> + 'static,
{
    let protocol = match take_stdout_for_protocol() {
        Ok(file) => file,
        Err(e) => {
            eprintln!("harness: cannot set up the protocol channel: {e}");
            return ExitCode::from(3);
        }
    };
    // Before any student code runs: queues report to the counters, and nothing else may have taken their place.
    if !counters::install_observer() {
        eprintln!("harness: another MinPQ observer was installed before the harness started; refusing to serve");
        return ExitCode::from(3);
    }
    counters::count_other_threads();
    // Rust allocates stdout's buffer on first use; do it now, so that a student's first println! is not
    // counted in a memory measurement.
    drop(std::io::stdout().lock());
    std::panic::set_hook(Box::new(|info| {
        let location = info.location().map(|l| format!(" (at {}:{})", l.file(), l.line())).unwrap_or_default();
        let message = panic_message(info.payload());
        LAST_PANIC.with(|p| *p.borrow_mut() = Some(format!("{message}{location}")));
    }));
    static SERVED: AtomicBool = AtomicBool::new(false);
    let watcher = std::thread::current();
    let worker =
        std::thread::Builder::new().name("submission".into()).stack_size(SERVER_STACK_BYTES).spawn(move || {
            let served = Server::<B, S, R>::new().run(protocol);
            SERVED.store(true, Ordering::Release);
            watcher.unpark();
            served
        });
    if worker.is_ok() && serving.watchdog {
        outbox::watch(&SERVED);
    }
    match worker.map(|w| w.join()) {
        Ok(Ok(Ok(()))) => ExitCode::SUCCESS,
        Ok(Ok(Err(e))) => {
            eprintln!("harness: protocol channel failed: {e}");
            ExitCode::from(3)
        }
        _ => ExitCode::from(3),
    }
}

/// Keeps the real stdout (fd 1) for replies and points fd 1 at stderr, so student prints go to stderr.
fn take_stdout_for_protocol() -> std::io::Result<File> {
    // SAFETY: dup/dup2 on the process's own standard descriptors; no Rust object owns fd 1 exclusively, and
    // the duplicate is owned by the returned File alone.
    unsafe {
        let fd = libc::dup(1);
        if fd < 0 || libc::dup2(2, 1) < 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(File::from_raw_fd(fd))
    }
}

/// The outcome of a call that panicked: the message the hook kept, else the payload's.
fn panicked(payload: &(dyn std::any::Any + Send)) -> Outcome {
    let message = LAST_PANIC.with(|p| p.borrow_mut().take()).unwrap_or_else(|| panic_message(payload));
    Outcome::Exception { kind: "panic".into(), message }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic with a non-string payload".into())
}

struct Server<B, S, R> {
    objects: Objects<B, S, R>,
    replies: ReplyHandles,
    peak_base: usize,
    /// The bytes each live solver retained when it was constructed (for `memory_retained`).
    constructed_bytes: HashMap<Handle, usize>,
    /// The heap bytes live before the first request: the baseline of `memory_retained`'s second reading.
    live_at_start: usize,
    /// The writable static storage the student's crate declares (`None` without a symbol table), and what of
    /// the executable's static storage was resident before the first request: what the second reading counts
    /// of statics, the first, or else what became resident since the second ([`static_memory`]).
    statics: (Option<u64>, u64),
}

impl<B, S, R> Server<B, S, R>
where
    B: PuzzleBoard,
    S: PuzzleSolver<B>,
    R: PuzzleSolver<CountingBoard>,
{
    fn new() -> Self {
        counters::set_enabled(true);
        Server {
            objects: Objects::new(),
            replies: ReplyHandles::default(),
            peak_base: 0,
            constructed_bytes: HashMap::new(),
            live_at_start: 0,
            statics: (None, 0),
        }
    }

    fn run(mut self, protocol: File) -> std::io::Result<()> {
        let mut out = Outbox::new(protocol);
        // SAFETY: fd 0 is the process's standard input, open for its whole life; ManuallyDrop keeps this File
        // from closing it.
        let stdin = ManuallyDrop::new(unsafe { File::from_raw_fd(0) });
        let mut input = BufReader::with_capacity(1 << 16, &*stdin);
        let mut line = String::new();
        self.live_at_start = memory::live_bytes();
        let declared = static_memory::declared_by_student();
        // the resident pages' baseline serves only an executable without a symbol table
        self.statics = (declared, if declared.is_none() { static_memory::resident_bytes() } else { 0 });
        loop {
            // Reading, answering and encoding may each fail or stop for good (a crash, an exit, a hang, an
            // allocation that fails): the replies still waiting are published meanwhile (see `outbox`).
            let step = out.guard(|| -> std::io::Result<Option<(String, bool)>> {
                line.clear();
                if input.read_line(&mut line)? == 0 {
                    return Ok(None);
                }
                let (reply, bye) = self.answer(line.trim_end_matches(['\n', '\r']));
                let mut encoded = reply.encode();
                encoded.push('\n');
                Ok(Some((encoded, bye)))
            });
            let Some((reply, bye)) = step? else { break };
            out.push(reply.as_bytes())?;
            // Replies wait while more requests are already here; before reading could block, they all leave.
            if bye || out.overdue() || memchr::memchr(b'\n', input.buffer()).is_none() {
                out.flush()?;
            }
            if bye {
                break;
            }
        }
        out.flush()
    }

    fn answer(&mut self, line: &str) -> (Reply, bool) {
        let (id, request) = match Request::decode(line) {
            Ok(decoded) => decoded,
            Err(e) => {
                let id = line.split(' ').next().and_then(|t| t.parse().ok()).unwrap_or(0);
                return (Reply { id, cpu_micros: 0, outcome: Outcome::Protocol(e.0) }, false);
            }
        };
        let bye = request == Request::Bye;
        let returns_handles = request.returns_handles();
        let mut request = request;
        if let Err(e) = self.resolve_references(&mut request) {
            return (Reply { id, cpu_micros: 0, outcome: Outcome::Protocol(e.0) }, false);
        }
        let start = cpu::thread_time();
        let result = catch_unwind(AssertUnwindSafe(|| self.handle(request)));
        let cpu_micros = (cpu::thread_time().saturating_sub(start)).as_micros() as u64;
        let outcome = match result {
            Ok(Ok(values)) => {
                if returns_handles {
                    self.replies.record(id, &values);
                }
                Outcome::Ok(values)
            }
            Ok(Err(Refusal::Unsupported(reason))) => Outcome::Unsupported(reason),
            Ok(Err(Refusal::Protocol(reason))) => Outcome::Protocol(reason),
            Err(payload) => panicked(&*payload),
        };
        (Reply { id, cpu_micros, outcome }, bye)
    }

    /// `neighbors()` of board `h`, then `toString()` of each of the first `max` boards it returned, each
    /// call's outcome apart (a panic in one text is that text's, as it would be a `to_string` request's).
    fn neighbors_texts(&mut self, h: Handle, max: u32) -> Result<String, Refusal> {
        let handles = self.neighbors(h)?;
        let texts = self.text_outcomes(handles.iter().take(max as usize));
        Ok(encode_neighbor_texts(&encode_handles(&handles), &texts))
    }

    /// `toString()` of each board, each call's outcome apart (a panic in one text, or a board unknown, is that
    /// text's, as it would be a `to_string` request's).
    fn text_outcomes<'a>(&self, boards: impl Iterator<Item = &'a Handle>) -> Vec<Outcome> {
        boards
            .map(|&b| match catch_unwind(AssertUnwindSafe(|| self.text(b))) {
                Ok(Ok(text)) => Outcome::Ok(text),
                Ok(Err(Refusal::Protocol(reason))) => Outcome::Protocol(reason),
                Ok(Err(Refusal::Unsupported(reason))) => Outcome::Unsupported(reason),
                Err(payload) => panicked(&*payload),
            })
            .collect()
    }

    /// `toString()` of board `h`, escaped.
    fn text(&self, h: Handle) -> Result<String, Refusal> {
        self.on_board(h, |b| escape(&b.to_string()), |b| escape(&b.to_string()))
    }

    /// Replaces references to earlier replies (`@12.0`) with the handles they name.
    fn resolve_references(&self, request: &mut Request) -> Result<(), WireError> {
        for handle in request.handles_mut() {
            *handle = self.replies.resolve(*handle)?;
        }
        Ok(())
    }

    fn handle(&mut self, request: Request) -> Result<String, Refusal> {
        Ok(match request {
            Request::Hello { version } if version == VERSION => {
                let memory = if memory::is_installed() { " memory" } else { "" };
                format!("{VERSION} rust ref_world counters refs {NEIGHBOR_TEXTS} {TEXTS}{memory}")
            }
            Request::Hello { version } => return Err(Refusal::Protocol(format!("unsupported version {version}"))),
            Request::Board { world, tiles } => self.build(world, &tiles)?.to_string(),
            Request::BoardProbe { world, tiles } => self.build_probe(world, &tiles)?.to_string(),
            Request::Dimension(h) => self.on_board(h, |b| b.dimension().to_string(), |b| b.dimension().to_string())?,
            Request::Hamming(h) => self.on_board(h, |b| b.hamming().to_string(), |b| b.hamming().to_string())?,
            Request::Manhattan(h) => self.on_board(h, |b| b.manhattan().to_string(), |b| b.manhattan().to_string())?,
            Request::IsGoal(h) => self.on_board(h, |b| b.is_goal().to_string(), |b| b.is_goal().to_string())?,
            Request::ToString(h) => self.text(h)?,
            Request::Equals(a, b) | Request::EqualsAsObject(a, b) => self.equals(a, b)?,
            Request::EqualsNull(_) => return unsupported("Rust boards cannot be compared with null"),
            Request::EqualsForeign(_) | Request::EqualsUncastable(_) => {
                return unsupported("Rust's == only compares a Board with a Board")
            }
            Request::Neighbors(h) => encode_handles(&self.neighbors(h)?),
            Request::NeighborsTexts(h, max) => self.neighbors_texts(h, max)?,
            Request::Texts(boards) => encode_texts(&self.text_outcomes(boards.iter())),
            Request::NeighborsAfter(..) | Request::NeighborsNested(_) => {
                return unsupported("Rust's neighbors() returns a Vec the caller owns, which no later call can change")
            }
            Request::Twin(h) => self.twin(h)?,
            Request::Release(handles) => {
                for h in handles {
                    self.objects.remove(h)?;
                    self.constructed_bytes.remove(&h);
                }
                String::new()
            }
            Request::Solver(h) => self.add_solver(h)?.0.to_string(),
            Request::SolverNull(_) => return unsupported("Rust has no null board"),
            Request::IsSolvable(h) => {
                self.on_solver(h, |s| s.is_solvable().to_string(), |s| s.is_solvable().to_string())?
            }
            Request::Moves(h) => self.on_solver(h, |s| s.moves().to_string(), |s| s.moves().to_string())?,
            Request::Solution(h) => self.solution(h)?,
            // the Rust harness samples no call sites (`call_sites` is unsupported), so `sites` changes nothing,
            // and checks heap order in every counted life (it does not announce `counters_heap`), so `heap` does not
            Request::CountersReset | Request::CountersResetSites | Request::CountersResetHeap => {
                counters::reset();
                memory::reset_peak();
                self.peak_base = memory::live_bytes();
                String::new()
            }
            // the Rust harness measures deep memory as it goes (it does not announce `counters_deep`)
            Request::Counters | Request::CountersDeep => self.counters(),
            Request::CallSites => {
                return unsupported("a Rust backtrace at every sampled operation would cost more than the search")
            }
            Request::MemoryBoard { world, tiles } => self.memory_board(world, &tiles)?.to_string(),
            Request::MemorySolver(h) => {
                let (solver, bytes) = self.add_solver(h)?;
                format!("{solver} {bytes}")
            }
            Request::MemoryRetained(h) => self.memory_retained(h)?,
            Request::Api => return unsupported("Rust's traits fix the API at compile time"),
            Request::Bye => String::new(),
        })
    }

    /// Builds a board in `world`: the student's constructor sees the rows; the reference board is built
    /// straight from the tiles (one counted construction).
    fn build(&mut self, world: World, tiles: &Tiles) -> Result<Handle, Refusal> {
        let object = match world {
            World::Own => Object::OwnBoard(B::from_tiles(&valid_rows(tiles)?)),
            World::Ref => Object::RefBoard(CountingBoard::from_board(reference_board(tiles)?)),
        };
        Ok(self.objects.add(object))
    }

    /// Builds from a buffer the harness owns, then overwrites that very buffer with the goal board's tiles
    /// reversed (the immutability probe: a board that kept the caller's array would now read differently).
    fn build_probe(&mut self, world: World, tiles: &Tiles) -> Result<Handle, Refusal> {
        let mut rows = valid_rows(tiles)?;
        let object = match world {
            World::Own => Object::OwnBoard(B::from_tiles(&rows)),
            // the grader's board, a root as in `build` (`instrument/counting_board.rs`)
            World::Ref => Object::RefBoard(CountingBoard::from_board(<Board as PuzzleBoard>::from_tiles(&rows))),
        };
        let handle = self.objects.add(object);
        let cells = (tiles.n * tiles.n) as u32;
        let reversed_goal: Vec<u32> = (0..cells).map(|i| (cells - i) % cells).collect();
        for (row, chunk) in rows.iter_mut().zip(reversed_goal.chunks(tiles.n)) {
            row.copy_from_slice(chunk);
        }
        std::hint::black_box(&rows);
        Ok(handle)
    }

    /// `memory_board`: the bytes a new Board of `tiles` retains ([`new_board_bytes`]).
    fn memory_board(&mut self, world: World, tiles: &Tiles) -> Result<usize, Refusal> {
        let rows = valid_rows(tiles)?;
        Ok(match world {
            World::Own => new_board_bytes::<B>(&rows),
            World::Ref => new_board_bytes::<CountingBoard>(&rows),
        })
    }

    fn on_board<T>(
        &self,
        h: Handle,
        own: impl FnOnce(&B) -> T,
        reference: impl FnOnce(&CountingBoard) -> T,
    ) -> Result<T, Refusal> {
        match self.objects.get(h)? {
            Object::OwnBoard(b) => Ok(own(b)),
            Object::RefBoard(b) => Ok(reference(b)),
            _ => Err(Refusal::Protocol(format!("{h} is not a board"))),
        }
    }

    fn on_solver<T>(
        &self,
        h: Handle,
        own: impl FnOnce(&S) -> T,
        reference: impl FnOnce(&R) -> T,
    ) -> Result<T, Refusal> {
        match self.objects.get(h)? {
            Object::OwnSolver(s) => Ok(own(s)),
            Object::RefSolver(s) => Ok(reference(s)),
            _ => Err(Refusal::Protocol(format!("{h} is not a solver"))),
        }
    }

    fn equals(&self, a: Handle, b: Handle) -> Result<String, Refusal> {
        match (self.objects.get(a)?, self.objects.get(b)?) {
            (Object::OwnBoard(x), Object::OwnBoard(y)) => Ok((x == y).to_string()),
            (Object::RefBoard(x), Object::RefBoard(y)) => Ok((x == y).to_string()),
            _ => Err(Refusal::Protocol(format!("{a} and {b} are not boards of one world"))),
        }
    }

    fn neighbors(&mut self, h: Handle) -> Result<Vec<Handle>, Refusal> {
        let objects = match self.objects.get(h)? {
            Object::OwnBoard(b) => b.neighbors().into_iter().map(Object::OwnBoard).collect::<Vec<_>>(),
            Object::RefBoard(b) => b.neighbors().into_iter().map(Object::RefBoard).collect(),
            _ => return Err(Refusal::Protocol(format!("{h} is not a board"))),
        };
        Ok(objects.into_iter().map(|o| self.objects.add(o)).collect())
    }

    fn twin(&mut self, h: Handle) -> Result<String, Refusal> {
        let object = match self.objects.get(h)? {
            Object::OwnBoard(b) => Object::OwnBoard(b.twin()),
            Object::RefBoard(b) => Object::RefBoard(b.twin()),
            _ => return Err(Refusal::Protocol(format!("{h} is not a board"))),
        };
        Ok(self.objects.add(object).to_string())
    }

    /// Constructs a Solver (for `solver` and `memory_solver`) and measures the bytes only its construction
    /// retains, not the handle table's.
    fn measured_solver(&mut self, h: Handle) -> Result<(Object<B, S, R>, usize), Refusal> {
        Ok(match self.objects.get(h)? {
            Object::OwnBoard(b) => {
                let b = b.clone();
                let (solver, bytes) = memory::retained_by(|| S::new(b));
                (Object::OwnSolver(solver), bytes)
            }
            Object::RefBoard(b) => {
                let b = b.clone();
                let (solver, bytes) = memory::retained_by(|| R::new(b));
                (Object::RefSolver(solver), bytes)
            }
            _ => return Err(Refusal::Protocol(format!("{h} is not a board"))),
        })
    }

    /// Constructs a Solver for board `h`, keeps it under a new handle and returns the handle and the bytes its
    /// construction retained.
    fn add_solver(&mut self, h: Handle) -> Result<(Handle, usize), Refusal> {
        let (object, bytes) = self.measured_solver(h)?;
        let solver = self.objects.add(object);
        self.constructed_bytes.insert(solver, bytes);
        Ok((solver, bytes))
    }

    /// `memory_retained`: what solver `h` retains once its methods have all been called, then the second
    /// reading, every heap byte the process holds beyond what it held before the submission's code first ran
    /// (capacity an earlier Solver reserved, a `static` Vec the warm-up Solver grew, is filled without any
    /// allocation, so no span sees it; it is live) and the writable static storage the student's crate
    /// declares (a search kept in a `static` array, which no allocation holds: [`static_memory`]), and its
    /// part off the heap (none in Rust).
    fn memory_retained(&mut self, h: Handle) -> Result<String, Refusal> {
        let retained = self.retained_after_calls(h)?;
        let statics = match self.statics {
            (Some(declared), _) => declared,
            (None, at_start) => static_memory::resident_bytes().saturating_sub(at_start),
        };
        let kept = memory::live_bytes().saturating_sub(self.live_at_start) + statics as usize;
        Ok(format!("{retained} {kept} 0"))
    }

    /// The bytes solver `h` retains once its methods have all been called: what its construction retained,
    /// plus what calling moves(), isSolvable() and solution() left allocated (the returned solution dropped; a
    /// panic in any of them ignored). A Solver that searches lazily, on its first moves(), shows its memory
    /// here as an eager one does in `memory_solver`.
    fn retained_after_calls(&mut self, h: Handle) -> Result<usize, Refusal> {
        if !memory::is_installed() {
            return unsupported("memory is not measured (the counting allocator is not installed)");
        }
        let constructed = self.constructed_bytes.get(&h).copied().unwrap_or(0);
        let grown = match self.objects.get(h)? {
            Object::OwnSolver(s) => memory::retained_by(|| call_every_method(s)).1,
            Object::RefSolver(s) => memory::retained_by(|| call_every_method(s)).1,
            _ => return Err(Refusal::Protocol(format!("{h} is not a solver"))),
        };
        LAST_PANIC.with(|p| p.borrow_mut().take());
        Ok(constructed + grown)
    }

    fn solution(&mut self, h: Handle) -> Result<String, Refusal> {
        let boards: Option<Vec<_>> = match self.objects.get(h)? {
            Object::OwnSolver(s) => s.solution().map(|p| p.into_iter().map(Object::OwnBoard).collect()),
            Object::RefSolver(s) => s.solution().map(|p| p.into_iter().map(Object::RefBoard).collect()),
            _ => return Err(Refusal::Protocol(format!("{h} is not a solver"))),
        };
        Ok(match boards {
            None => "none".into(),
            Some(boards) => encode_handles(&boards.into_iter().map(|b| self.objects.add(b)).collect::<Vec<_>>()),
        })
    }

    fn counters(&self) -> String {
        let c = counters::snapshot_all();
        let peak = memory::peak_bytes().saturating_sub(self.peak_base);
        let pairs: [(&str, u64); 19] = [
            ("pq_inserts", c.pq_inserts),
            ("pq_del_mins", c.pq_del_mins),
            ("pq_max_size", c.pq_max_size),
            ("pq_ending_size", c.pq_ending_size),
            ("pq_deep_bytes", c.pq_deep_bytes),
            ("pq_heap_violations", c.pq_heap_violations),
            ("board_constructed", c.board_constructed),
            ("board_equals", c.board_equals),
            ("board_equals_not_grand_neighbor", c.board_equals_not_grand_neighbor),
            ("board_manhattan", c.board_manhattan),
            ("board_hamming", c.board_hamming),
            ("board_to_string", c.board_to_string),
            ("board_neighbors", c.board_neighbors),
            ("board_expanded", c.board_expanded),
            ("board_neighbors_distinct", c.board_neighbors_distinct),
            ("board_twin", c.board_twin),
            ("board_is_goal", c.board_is_goal),
            ("board_dimension", c.board_dimension),
            ("peak_bytes", peak as u64),
        ];
        pairs.iter().map(|(name, value)| format!("{name}={value}")).collect::<Vec<_>>().join(" ")
    }
}

/// Calls every method of a Solver once, ignoring panics (`memory_retained`'s own calls are never judged).
fn call_every_method<B: PuzzleBoard, S: PuzzleSolver<B>>(solver: &S) {
    let _ = catch_unwind(AssertUnwindSafe(|| solver.moves()));
    let _ = catch_unwind(AssertUnwindSafe(|| solver.is_solvable()));
    let _ = catch_unwind(AssertUnwindSafe(|| drop(solver.solution())));
}

fn unsupported<T>(reason: &str) -> Result<T, Refusal> {
    Err(Refusal::Unsupported(reason.into()))
}

/// The bytes a new `T` built from `rows` retains. Two are built from the same rows first and dropped, so that
/// what a constructor keeps once outside the Board (a table per size in a `static` or a `thread_local!`, which
/// no official walk of a Board's fields would see) is theirs, and the measured Board is judged on what it adds
/// (as the Java adapter does).
fn new_board_bytes<T: PuzzleBoard>(rows: &[Vec<u32>]) -> usize {
    (0..2).for_each(|_| drop(T::from_tiles(rows)));
    memory::retained_by(|| T::from_tiles(rows)).1
}

/// The rows of `tiles`, once they are known to form a board (student constructors may assume valid input).
fn valid_rows(tiles: &Tiles) -> Result<Vec<Vec<u32>>, Refusal> {
    Board::check_row_major(tiles.n, &tiles.tiles).map_err(invalid_board)?;
    Ok(tiles.rows())
}

fn reference_board(tiles: &Tiles) -> Result<Board, Refusal> {
    Board::from_row_major(tiles.n, &tiles.tiles).map_err(invalid_board)
}

fn invalid_board(e: reference::BoardError) -> Refusal {
    Refusal::Protocol(format!("invalid board: {e}"))
}
