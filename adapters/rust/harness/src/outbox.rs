//! Replies on their way to the grader: buffered, yet never lost when a request crashes, hangs or exits.
//!
//! Writing each reply the moment it is ready costs a system call here and a wake-up in the grader per
//! request, and the Board tests send about 100,000 requests that each take well under a microsecond of
//! student code. So replies wait in a buffer until no further request is waiting to be read, 64 KB wait, or
//! the oldest has waited two watchdog ticks (the grader's time limits run from the last reply it received, so
//! a long run of middling requests must not hold replies back). The danger is a request that never returns:
//! a crash, a hang or an exit would take every buffered reply with it, and the grader, which blames the first
//! unanswered request, would blame the wrong one. While the serving thread reads and runs a request, the
//! waiting replies are therefore *published*, and three rescuers deliver them:
//! - a hang: the watchdog ([`watch`], on the process's otherwise idle main thread) writes them once one
//!   request has run across two ticks ([`WATCHDOG_TICK`]), long before any grader deadline;
//! - a crash: a handler for SIGABRT, SIGSEGV, SIGBUS, SIGILL and SIGFPE writes them, then hands the signal to
//!   whatever handled it before (Rust's stack-overflow report), or to the default action. Aborts cover panics
//!   that cannot unwind, stack overflows and failed allocations;
//! - an exit: an `atexit` hook, for a student's `std::process::exit`.
//!
//! Only SIGKILL from outside can still lose replies, and the grader sends that only after a deadline, by
//! which time the watchdog has written them. Whoever rescues first writes (a compare-and-swap on one state
//! word decides); the serving thread then takes the buffer back, empty. Rescuers use only atomics and
//! `write(2)`: no locks, no allocation (the counting allocator would charge the student for it). Outside the
//! published stretches the serving thread only appends to the buffer, which never grows, and writes it.

use std::ffi::c_int;
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicPtr, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

/// Replies are written, at the latest, once this many bytes wait; the buffer holds twice as much and never
/// grows (a longer reply is written on its own).
const FLUSH_BYTES: usize = 1 << 16;

/// How often the watchdog looks: a request running across two looks has its waiting replies delivered, and
/// replies waiting across two ticks are written by the serving thread.
pub const WATCHDOG_TICK: Duration = Duration::from_millis(10);

/// The serving thread owns the buffer.
const HELD: u8 = 0;
/// The serving thread is reading or running a request; the buffer at `PENDING_*` may be rescued.
const PUBLISHED: u8 = 1;
/// A rescuer is writing it.
const WRITING: u8 = 2;
/// A rescuer wrote it; the serving thread must clear it when it takes it back.
const WRITTEN: u8 = 3;

static STATE: AtomicU8 = AtomicU8::new(HELD);
static PENDING_PTR: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
static PENDING_LEN: AtomicUsize = AtomicUsize::new(0);
static PROTOCOL_FD: AtomicI32 = AtomicI32::new(-1);
/// The process that owns the buffer: a child a student forks must not send its copy of the replies again.
static OWNER_PID: AtomicI32 = AtomicI32::new(0);
/// The watchdog's thread, which must not wait for its own rescue if a signal lands on it mid-write.
static WATCHER_TID: AtomicI32 = AtomicI32::new(0);
/// How many times replies were published: the watchdog tells one long request from many short ones by it.
static PUBLICATIONS: AtomicU64 = AtomicU64::new(0);
/// Watchdog ticks so far: the age of the oldest waiting reply is counted in them.
static TICKS: AtomicU64 = AtomicU64::new(0);

/// The signals whose default action kills the process after a fault or an abort.
const FATAL_SIGNALS: [c_int; 5] = [libc::SIGABRT, libc::SIGSEGV, libc::SIGBUS, libc::SIGILL, libc::SIGFPE];
/// Their handlers before ours, by position in `FATAL_SIGNALS`.
static PREVIOUS_ACTIONS: OnceLock<[libc::sigaction; FATAL_SIGNALS.len()]> = OnceLock::new();

/// The replies not yet written, and the channel they go to.
pub struct Outbox {
    channel: File,
    pending: Vec<u8>,
    /// The watchdog tick at which the oldest waiting reply was queued.
    oldest: u64,
}

impl Outbox {
    /// Takes the protocol channel and installs the rescuers (the crash handlers and the exit hook; the
    /// watchdog is [`watch`], run by the caller).
    pub fn new(channel: File) -> Outbox {
        PROTOCOL_FD.store(channel.as_raw_fd(), Ordering::Relaxed);
        // SAFETY: getpid has no preconditions.
        OWNER_PID.store(unsafe { libc::getpid() }, Ordering::Relaxed);
        install_rescuers();
        Outbox { channel, pending: Vec::with_capacity(2 * FLUSH_BYTES), oldest: 0 }
    }

    /// Queues one reply (its bytes, newline included); writes the queue when it is long. The buffer never
    /// reallocates, so queueing cannot fail for want of memory while replies wait unpublished.
    pub fn push(&mut self, reply: &[u8]) -> io::Result<()> {
        if self.pending.len() + reply.len() > self.pending.capacity() {
            self.flush()?;
        }
        if reply.len() > self.pending.capacity() {
            return self.channel.write_all(reply);
        }
        if self.pending.is_empty() {
            self.oldest = TICKS.load(Ordering::Relaxed);
        }
        self.pending.extend_from_slice(reply);
        if self.pending.len() >= FLUSH_BYTES {
            self.flush()?;
        }
        Ok(())
    }

    /// Whether the oldest waiting reply has waited across two watchdog ticks.
    pub fn overdue(&self) -> bool {
        !self.pending.is_empty() && TICKS.load(Ordering::Relaxed).wrapping_sub(self.oldest) >= 2
    }

    /// Writes every queued reply.
    pub fn flush(&mut self) -> io::Result<()> {
        self.channel.write_all(&self.pending)?;
        self.pending.clear();
        Ok(())
    }

    /// Runs `work` (reading a request and answering it, which may crash, hang or exit) with the queued
    /// replies published for rescue.
    pub fn guard<T>(&mut self, work: impl FnOnce() -> T) -> T {
        if self.pending.is_empty() {
            return work();
        }
        PENDING_PTR.store(self.pending.as_mut_ptr(), Ordering::Relaxed);
        PENDING_LEN.store(self.pending.len(), Ordering::Relaxed);
        PUBLICATIONS.fetch_add(1, Ordering::Relaxed);
        STATE.store(PUBLISHED, Ordering::Release);
        let result = work();
        loop {
            match STATE.compare_exchange(PUBLISHED, HELD, Ordering::Acquire, Ordering::Acquire) {
                Ok(_) => break,
                Err(WRITTEN) => {
                    STATE.store(HELD, Ordering::Relaxed);
                    self.pending.clear();
                    break;
                }
                // A rescuer is writing; it may wait on the grader reading the pipe, so give the core away.
                Err(WRITING) => std::thread::yield_now(),
                Err(other) => unreachable!("the outbox was in state {other} while published"),
            }
        }
        result
    }
}

/// Anything still queued when serving stops early (an input error) is written on the way out.
impl Drop for Outbox {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

/// Watches the requests until `finished` is set: one that runs across two ticks has its waiting replies
/// written. Sleeps by parking, so setting `finished` and unparking the calling thread ends the watch at once.
pub fn watch(finished: &AtomicBool) {
    // SAFETY: gettid has no preconditions.
    WATCHER_TID.store(unsafe { libc::gettid() }, Ordering::Relaxed);
    let mut seen = None;
    while !finished.load(Ordering::Acquire) {
        std::thread::park_timeout(WATCHDOG_TICK);
        TICKS.fetch_add(1, Ordering::Relaxed);
        let publication = PUBLICATIONS.load(Ordering::Relaxed);
        let running = STATE.load(Ordering::Acquire) == PUBLISHED;
        if running && seen == Some(publication) {
            rescue();
        }
        seen = running.then_some(publication);
    }
}

/// Writes the published replies if no one else has; waits for a rescue another thread is making.
fn rescue() {
    // SAFETY: getpid has no preconditions.
    if unsafe { libc::getpid() } != OWNER_PID.load(Ordering::Relaxed) {
        return;
    }
    match STATE.compare_exchange(PUBLISHED, WRITING, Ordering::Acquire, Ordering::Acquire) {
        Ok(_) => {}
        Err(WRITING) => {
            // SAFETY: gettid has no preconditions.
            let on_watcher = unsafe { libc::gettid() } == WATCHER_TID.load(Ordering::Relaxed);
            // The watchdog interrupted by a signal mid-write would wait for itself.
            while !on_watcher && STATE.load(Ordering::Acquire) == WRITING {
                std::hint::spin_loop();
            }
            return;
        }
        Err(_) => return,
    }
    let fd = PROTOCOL_FD.load(Ordering::Relaxed);
    let ptr = PENDING_PTR.load(Ordering::Relaxed);
    let len = PENDING_LEN.load(Ordering::Relaxed);
    let mut written = 0;
    while written < len {
        // SAFETY: `ptr..ptr+len` is the serving thread's buffer, published and left untouched until it takes
        // the buffer back, which it does only after this rescue sets WRITTEN.
        let n = unsafe { libc::write(fd, ptr.add(written).cast(), len - written) };
        if n > 0 {
            written += n as usize;
        } else if n < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
            continue;
        } else {
            break;
        }
    }
    STATE.store(WRITTEN, Ordering::Release);
}

fn install_rescuers() {
    PREVIOUS_ACTIONS.get_or_init(|| {
        FATAL_SIGNALS.map(|signal| {
            // SAFETY: sigaction with a zeroed struct, our handler and an empty mask; the previous action is
            // kept so the handler can pass the signal on.
            unsafe {
                let mut ours: libc::sigaction = std::mem::zeroed();
                ours.sa_sigaction = on_fatal_signal as *const () as libc::sighandler_t;
                ours.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                libc::sigemptyset(&mut ours.sa_mask);
                let mut previous: libc::sigaction = std::mem::zeroed();
                libc::sigaction(signal, &ours, &mut previous);
                previous
            }
        })
    });
    // SAFETY: registers a function that takes no arguments and only calls `rescue`.
    unsafe { libc::atexit(on_exit) };
}

extern "C" fn on_exit() {
    rescue();
}

extern "C" fn on_fatal_signal(signal: c_int, info: *mut libc::siginfo_t, context: *mut libc::c_void) {
    // SAFETY: errno is this thread's; it is saved and restored so the interrupted code sees its own.
    let errno = unsafe { *libc::__errno_location() };
    rescue();
    // SAFETY: as above.
    unsafe { *libc::__errno_location() = errno };
    let previous =
        PREVIOUS_ACTIONS.get().and_then(|actions| FATAL_SIGNALS.iter().position(|&s| s == signal).map(|i| actions[i]));
    match previous {
        Some(action) if action.sa_sigaction != libc::SIG_DFL && action.sa_sigaction != libc::SIG_IGN => {
            // SAFETY: the previous handler was installed for this very signal, with these flags.
            unsafe {
                if action.sa_flags & libc::SA_SIGINFO != 0 {
                    let handler: extern "C" fn(c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                        std::mem::transmute(action.sa_sigaction);
                    handler(signal, info, context);
                } else {
                    let handler: extern "C" fn(c_int) = std::mem::transmute(action.sa_sigaction);
                    handler(signal);
                }
            }
        }
        _ => {
            // SAFETY: restores the default action and raises the signal again; it is blocked while this
            // handler runs, so it is delivered (and kills the process) as the handler returns.
            unsafe {
                libc::signal(signal, libc::SIG_DFL);
                libc::raise(signal);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Seek};

    use super::*;

    fn written(mut file: &File) -> Vec<u8> {
        let mut bytes = Vec::new();
        file.rewind().unwrap();
        file.read_to_end(&mut bytes).unwrap();
        bytes
    }

    #[test]
    fn replies_wait_until_flushed_and_never_grow_the_buffer() {
        let file = tempfile::tempfile().unwrap();
        let mut out = Outbox::new(file.try_clone().unwrap());
        let capacity = out.pending.capacity();
        out.push(b"1 ok 0 a\n").unwrap();
        assert!(written(&file).is_empty(), "a short reply waits");
        // Longer than the whole buffer: what waits goes first, then the long reply on its own, in order.
        let long = [vec![b'x'; 3 * FLUSH_BYTES], vec![b'\n']].concat();
        out.push(&long).unwrap();
        out.push(b"3 ok 0 c\n").unwrap();
        out.flush().unwrap();
        assert_eq!(written(&file), [&b"1 ok 0 a\n"[..], &long, b"3 ok 0 c\n"].concat());
        assert_eq!(out.pending.capacity(), capacity, "the buffer never reallocates");
    }

    #[test]
    fn a_reply_is_overdue_once_it_has_waited_across_two_ticks() {
        let mut out = Outbox::new(tempfile::tempfile().unwrap());
        assert!(!out.overdue(), "nothing waits");
        out.push(b"1 ok 0 \n").unwrap();
        assert!(!out.overdue());
        TICKS.fetch_add(1, Ordering::Relaxed);
        assert!(!out.overdue(), "one tick may be a moment");
        TICKS.fetch_add(1, Ordering::Relaxed);
        assert!(out.overdue());
        out.flush().unwrap();
        assert!(!out.overdue());
    }
}
