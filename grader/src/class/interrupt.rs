//! Ctrl-C (or a scheduler's SIGTERM) during `grader batch`: the run still ends as an interrupted program does,
//! killed by that signal, but first says on standard error what is kept and how to go on. Each student's
//! reports and resume stamp are written as soon as they are graded ([`crate::batch::resume`]), so running the
//! same command again grades only the students this run did not finish, then writes the class's gradebooks.

/// What an interrupted batch says: one line, after a line break, since a progress line may be half drawn.
const SAID: &[u8] = b"\ngrader: interrupted. The reports of the students graded so far are kept: run the same command \
again and it resumes with the others (--regrade grades everyone again).\n";

/// Makes SIGINT and SIGTERM say [`SAID`] before they end the process as they would have; a signal the
/// process was started ignoring (`nohup`, a background job of a script) stays ignored.
pub fn say_how_to_resume() {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: the handler does only what a signal handler may (write(2), signal(2), raise(3)).
        unsafe {
            let before = libc::signal(signal, on_interrupt as extern "C" fn(libc::c_int) as libc::sighandler_t);
            if before == libc::SIG_IGN {
                libc::signal(signal, libc::SIG_IGN);
            }
        }
    }
}

/// Says how to resume, then ends the process by `signal`'s default action: the signal is blocked while its
/// handler runs, so the raised one is delivered, as the default, when the handler returns.
extern "C" fn on_interrupt(signal: libc::c_int) {
    // SAFETY: write(2), signal(2) and raise(3) are async-signal-safe; SAID is a static buffer.
    unsafe {
        let _ = libc::write(libc::STDERR_FILENO, SAID.as_ptr().cast(), SAID.len());
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}
