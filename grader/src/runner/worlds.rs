//! The sessions of one grading run, one for each program the submission runs as: a single program that
//! serves both worlds (Rust, Python, an executable), or a program for each world (Java: the `own` JVM never
//! holds the reference Board, see `build::jvm`). A test talks to one world's session: the `ref` one when its
//! item needs the `ref` world (`needs` holds `ref_world`), else the `own` one. The `own` program starts
//! before the first test; the `ref` program, when it is one of its own, at the first test that needs it.

use std::time::Duration;

use super::process::ProcessSpec;
use super::session::{Fault, Handshake, Session, SessionLimits};

/// What a submission runs as, ready to start.
#[derive(Debug, Clone)]
pub struct Programs {
    /// The program of the `own` world (and of the `ref` world, unless `reference` is one of its own).
    pub own: ProcessSpec,
    /// The program of the `ref` world, when it is not the `own` one.
    pub reference: Option<ProcessSpec>,
    /// Whether the programs name the runtime's threads themselves before any student code runs (the Java
    /// adapter), so that their `runtime_threads=` is believed (see [`Session::trusting_runtime_threads`]).
    pub trusted_runtime_threads: bool,
}

/// One program's session, a factory of fresh ones (for the re-run check), and its handshake once started.
struct WorldSession {
    session: Session,
    fresh: Box<dyn Fn() -> Session>,
    startup: Option<Result<Handshake, Fault>>,
}

impl WorldSession {
    fn new(spec: ProcessSpec, limits: SessionLimits, trusted: bool) -> WorldSession {
        let start = move || {
            let session = Session::new(spec.clone(), limits);
            if trusted {
                session.trusting_runtime_threads()
            } else {
                session
            }
        };
        WorldSession { session: start(), fresh: Box::new(start), startup: None }
    }

    /// Starts the program if it has not been, and returns its handshake (or why it could not start).
    fn started(&mut self) -> &Result<Handshake, Fault> {
        if self.startup.is_none() {
            self.startup = Some(self.session.handshake().cloned());
        }
        self.startup.get_or_insert_with(|| unreachable!("just set"))
    }
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
}

impl WorldSessions {
    /// Sessions on `programs`; the `own` program is started now.
    pub fn start(programs: Programs, limits: SessionLimits) -> WorldSessions {
        let trusted = programs.trusted_runtime_threads;
        let mut own = WorldSession::new(programs.own, limits, trusted);
        own.started();
        let reference = programs.reference.map(|spec| WorldSession::new(spec, limits, trusted));
        WorldSessions { own, reference }
    }

    /// The session of the world a test uses: the `ref` world's when `needs_ref_world`, started if need be.
    pub fn for_test(&mut self, needs_ref_world: bool) -> Chosen<'_> {
        let world = match (&mut self.reference, needs_ref_world) {
            (Some(reference), true) => reference,
            _ => &mut self.own,
        };
        world.started();
        let WorldSession { session, fresh, startup } = world;
        let (fresh, startup): (&dyn Fn() -> Session, &Option<_>) = (&**fresh, startup);
        Chosen { session, fresh, startup: startup.as_ref().expect("started") }
    }

    /// The `own` program's handshake.
    pub fn own_startup(&self) -> Option<&Result<Handshake, Fault>> {
        self.own.startup.as_ref()
    }

    /// The CPU time every program reported so far (for benchmarks only).
    pub fn cpu_reported(&self) -> Duration {
        self.all().map(|w| w.session.cpu_reported()).sum()
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
