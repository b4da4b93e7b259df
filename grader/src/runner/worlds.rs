//! The sessions of one grading run, one for each program the submission runs as: a single program that
//! serves both worlds (Rust, Python, an executable), or a program for each world (Java: the `own` JVM never
//! holds the reference Board, see `build::jvm`). A test talks to one world's session: the `ref` one when its
//! item needs the `ref` world (`needs` holds `ref_world`), else the `own` one. The `own` program starts
//! before the first test; the `ref` program, when it is one of its own, at the first test that needs it.
//!
//! Every session charges the grade's one [`Meter`]: the CPU budget of a grade is that of all its programs.

use std::sync::Arc;
use std::time::Duration;

use super::meter::Meter;
use super::process::ProcessSpec;
use super::session::{Fault, Handshake, Holds, Session, SessionLimits};

/// What a submission runs as, ready to start.
#[derive(Debug, Clone)]
pub struct Programs {
    /// The program of the `own` world (and of the `ref` world, unless `reference` is one of its own).
    pub own: ProcessSpec,
    /// The programs of the `ref` world, when it is not the `own` one.
    pub reference: Option<ReferencePrograms>,
    /// Whether the programs name the runtime's threads themselves before any student code runs (the Java
    /// adapter), so that their `runtime_threads=` is believed (see [`Session::trusting_runtime_threads`]).
    pub trusted_runtime_threads: bool,
}

/// The `ref` world's programs, where it runs apart from the `own` world (the Java adapter's JVMs).
#[derive(Debug, Clone)]
pub struct ReferencePrograms {
    /// The program the tests talk to.
    pub tests: ProcessSpec,
    /// The program of the re-run check's fresh sessions: the same one started with less memory (the check
    /// solves small puzzles only).
    pub rerun: ProcessSpec,
}

/// One program's session, a factory of fresh ones (for the re-run check), and its handshake once started.
struct WorldSession {
    session: Session,
    fresh: Box<dyn Fn() -> Session>,
    startup: Option<Result<Handshake, Fault>>,
}

impl WorldSession {
    /// A session on `spec`, whose fresh sessions run `fresh_spec`.
    fn new(
        spec: ProcessSpec,
        fresh_spec: ProcessSpec,
        limits: SessionLimits,
        trusted: bool,
        holds: Holds,
        meter: &Arc<Meter>,
    ) -> WorldSession {
        let starter = |spec: ProcessSpec| {
            let meter = Arc::clone(meter);
            move || {
                let session = Session::metered(spec.clone(), limits, Arc::clone(&meter)).holding(holds);
                if trusted {
                    session.trusting_runtime_threads()
                } else {
                    session
                }
            }
        };
        WorldSession { session: starter(spec)(), fresh: Box::new(starter(fresh_spec)), startup: None }
    }

    /// Starts the program if it has not been, and returns its handshake (or why it could not start). A start
    /// the machine stalled is tried once more; a second stall is the grader's problem: it is added to
    /// `machine_stalls`, and every test of this world then reads as an error.
    fn started(&mut self, machine_stalls: &mut Vec<String>) -> &Result<Handshake, Fault> {
        if self.startup.is_none() {
            self.startup = Some(start(&mut self.session, machine_stalls));
        }
        self.startup.get_or_insert_with(|| unreachable!("just set"))
    }
}

/// The program's handshake, started once more if the machine stalled the first start.
fn start(session: &mut Session, machine_stalls: &mut Vec<String>) -> Result<Handshake, Fault> {
    let meter = Arc::clone(session.meter());
    for attempt in 0..2 {
        let (handshake, stalled) = meter.watching(|| session.handshake().cloned());
        let Some(how) = stalled else { return handshake };
        if attempt == 0 {
            eprintln!("grader: the machine stalled the submission as it started ({how}); starting it again");
        }
    }
    machine_stalls.push("the submission's start".into());
    Err(Fault::Stalled("twice in a row as the submission started".into()))
}

/// A world's session as a test uses it.
pub struct Chosen<'a> {
    #[allow(missing_docs)]
    pub session: &'a mut Session,
    /// Starts a fresh session on the same program.
    pub fresh: &'a dyn Fn() -> Session,
    /// The program's handshake, or why it could not start.
    pub startup: &'a Result<Handshake, Fault>,
}

/// The sessions of a run.
pub struct WorldSessions {
    own: WorldSession,
    reference: Option<WorldSession>,
    meter: Arc<Meter>,
}

impl WorldSessions {
    /// Sessions on `programs`, charging `meter`; the `own` program is started now (a start the machine
    /// stalled twice is added to `machine_stalls`).
    pub fn start(
        programs: Programs,
        limits: SessionLimits,
        meter: Arc<Meter>,
        machine_stalls: &mut Vec<String>,
    ) -> WorldSessions {
        let trusted = programs.trusted_runtime_threads;
        let mut own = WorldSession::new(programs.own.clone(), programs.own, limits, trusted, Holds::AnyBoard, &meter);
        own.started(machine_stalls);
        let reference = programs.reference.map(|programs| {
            WorldSession::new(programs.tests, programs.rerun, limits, trusted, Holds::ReferenceBoardsOnly, &meter)
        });
        WorldSessions { own, reference, meter }
    }

    /// The session of the world a test uses: the `ref` world's when `needs_ref_world`, started if need be.
    pub fn for_test(&mut self, needs_ref_world: bool, machine_stalls: &mut Vec<String>) -> Chosen<'_> {
        let world = match (&mut self.reference, needs_ref_world) {
            (Some(reference), true) => reference,
            _ => &mut self.own,
        };
        world.started(machine_stalls);
        let WorldSession { session, fresh, startup } = world;
        let (fresh, startup): (&dyn Fn() -> Session, &Option<_>) = (&**fresh, startup);
        Chosen { session, fresh, startup: startup.as_ref().expect("started") }
    }

    /// Ends the running process of a program that serves both worlds and weighs memory (it announced
    /// `memory`), so that the next test starts a fresh one: called before the first life whose Solver's memory
    /// is weighed. The second reading of that memory (`memory_retained`) counts every byte the process keeps
    /// beyond what it held before its first request, and the Board tests of this process left it holding
    /// their own bookkeeping (the handles of up to 65,536 recent replies: megabytes) beside whatever the
    /// student's Board kept. A fresh process is what a separate `ref` program (Java's) is from its start: one
    /// where the submission's first code to run is its Solver's.
    pub fn fresh_before_weighed_lives(&mut self) {
        let weighs = matches!(&self.own.startup, Some(Ok(hello)) if hello.capabilities.contains("memory"));
        if self.reference.is_none() && weighs && self.own.session.starts() > 0 {
            self.own.session.finish();
        }
    }

    /// The `own` program's handshake.
    pub fn own_startup(&self) -> Option<&Result<Handshake, Fault>> {
        self.own.startup.as_ref()
    }

    /// The grade's meter.
    pub fn meter(&self) -> &Meter {
        &self.meter
    }

    /// The whole CPU time the submission's processes have used so far: those ended and those running.
    pub fn cpu_used(&self) -> Duration {
        self.meter.spent() + self.all().map(|w| w.session.running_cpu()).sum::<Duration>()
    }

    /// The CPU time every program reported so far (for benchmarks only).
    pub fn cpu_reported(&self) -> Duration {
        self.all().map(|w| w.session.cpu_reported()).sum()
    }

    /// Of [`WorldSessions::cpu_reported`], what the adapters reported for reading their counters.
    pub fn cpu_counting(&self) -> Duration {
        self.all().map(|w| w.session.cpu_counting()).sum()
    }

    /// The most memory one sandbox of the submission held at once, where a memory group measured it.
    pub fn peak_memory(&self) -> Option<u64> {
        self.all().filter_map(|w| w.session.peak_memory()).max()
    }

    /// Ends every conversation, and returns what the programs wrote to stderr (the `own` program's, then
    /// the `ref` program's under a line naming it) and whether some was cut.
    pub fn finish(&mut self) -> (String, bool) {
        let (mut output, mut truncated) = (String::new(), false);
        for (world, name) in [(Some(&mut self.own), None), (self.reference.as_mut(), Some("ref"))] {
            let Some(world) = world else { continue };
            world.session.finish();
            let (text, cut) = world.session.take_output();
            truncated |= cut;
            if text.is_empty() {
                continue;
            }
            if let (Some(name), false) = (name, output.is_empty()) {
                output
                    .push_str(&format!("\n--- the {name} world's process (the Solver over the reference Board) ---\n"));
            }
            output.push_str(&text);
        }
        (output, truncated)
    }

    fn all(&self) -> impl Iterator<Item = &WorldSession> {
        std::iter::once(&self.own).chain(self.reference.as_ref())
    }
}
