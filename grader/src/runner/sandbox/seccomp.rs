//! The seccomp filter of every sandboxed program: it may not stop itself.
//!
//! A request that reaches its wall-clock net while the program's threads are stopped (`SIGSTOP`) is read as
//! a stall of the machine (`runner::stall`) and replayed; a program that could stop itself could make its
//! own failure read as the grader's. So the filter refuses (`EPERM`) every way a program sends itself or
//! another process a stopping signal (`SIGSTOP`, `SIGTSTP`, `SIGTTIN`, `SIGTTOU`): `kill`, `tkill`,
//! `tgkill`, `rt_sigqueueinfo`, `rt_tgsigqueueinfo`, `pidfd_send_signal`, a child's exit signal (`clone`),
//! a parent-death signal (`prctl`), an I/O signal (`fcntl(F_SETSIG)`); it refuses `ptrace` (a tracer stops
//! its tracee), `timer_create` and `mq_notify` (their signal is behind a pointer a filter cannot read), and
//! answers `clone3` with `ENOSYS` (its exit signal is behind a pointer too; the C library then uses
//! `clone`). A job-control stop needs a terminal, which no sandbox has, and the filter keeps a program from
//! making one: it refuses new namespaces (`unshare`, `clone` with a `CLONE_NEW*` flag, `setns`) and every
//! mount call. A red-team submission made a user and mount namespace with `unshare`, mounted a `devpts` of
//! its own there, and stopped one of its processes by having it read the new terminal from a background
//! process group (`SIGTTIN`, sent by the kernel, which no signal rule sees): its time-out then read as the
//! machine's stall, and its grade was voided as the grader's problem. System calls of another
//! architecture (a 32-bit program) end the process. Everything else is allowed.
//!
//! Only x86-64 and AArch64 have a table here; elsewhere there is no filter, and the sandbox says so.

use libc::{sock_filter, BPF_ABS, BPF_ALU, BPF_AND, BPF_JEQ, BPF_JGE, BPF_JMP, BPF_K, BPF_LD, BPF_RET, BPF_W};

/// `seccomp_data`: the system call number, the architecture, then six 64-bit arguments.
const NR: u32 = 0;
const ARCH: u32 = 4;
/// The low 32 bits of argument `i` (both architectures are little-endian).
const fn arg(i: u32) -> u32 {
    16 + 8 * i
}

#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH: Option<u32> = Some(0xC000_003E);
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH: Option<u32> = Some(0xC000_00B7);
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const AUDIT_ARCH: Option<u32> = None;

/// x86-64's x32 system calls carry this bit; they are another ABI, refused like another architecture.
const X32_BIT: u32 = 0x4000_0000;
/// `fcntl`'s command that chooses the signal of I/O readiness (Linux's `F_SETSIG`, absent from `libc`).
const F_SETSIG: u32 = 10;
/// `SECCOMP_RET_KILL_PROCESS`.
const KILL_PROCESS: u32 = 0x8000_0000;
/// Every flag that makes a namespace (`unshare`'s; `CLONE_NEWTIME` is a time namespace there).
const NEW_NAMESPACES: u32 = (libc::CLONE_NEWNS
    | libc::CLONE_NEWCGROUP
    | libc::CLONE_NEWUTS
    | libc::CLONE_NEWIPC
    | libc::CLONE_NEWUSER
    | libc::CLONE_NEWPID
    | libc::CLONE_NEWNET
    | libc::CLONE_NEWTIME) as u32;
/// `clone`'s low byte is the child's exit signal, not a flag (`CLONE_NEWTIME`'s bit is in it: `clone` cannot
/// make a time namespace).
const EXIT_SIGNAL: u32 = 0xff;
/// The flags that make a namespace in `clone`'s first argument.
const CLONE_NEW_NAMESPACES: u32 = NEW_NAMESPACES & !EXIT_SIGNAL;

/// What the filter does with one system call.
enum Rule {
    /// Fails with this errno.
    Refuse(i32),
    /// Fails with `EPERM` when argument `arg` is a stopping signal.
    StopSignal { arg: u32 },
    /// Fails with `EPERM` when the first argument (`clone`'s flags) makes a namespace, or its low byte (the
    /// exit signal) is a stopping signal.
    Clone,
    /// Fails with `EPERM` when the first argument has a flag of `mask`.
    Flags { mask: u32 },
    /// Fails with `EPERM` when argument `key_arg` is `key` and argument `arg` is a stopping signal.
    KeyedSignal { key_arg: u32, key: u32, arg: u32 },
}

/// The filter program, or `None` on an architecture without a table.
pub(super) fn program() -> Option<Vec<sock_filter>> {
    let arch = AUDIT_ARCH?;
    let sys = |nr: libc::c_long| nr as u32;
    let rules = [
        (sys(libc::SYS_kill), Rule::StopSignal { arg: 1 }),
        (sys(libc::SYS_tkill), Rule::StopSignal { arg: 1 }),
        (sys(libc::SYS_tgkill), Rule::StopSignal { arg: 2 }),
        (sys(libc::SYS_rt_sigqueueinfo), Rule::StopSignal { arg: 1 }),
        (sys(libc::SYS_rt_tgsigqueueinfo), Rule::StopSignal { arg: 2 }),
        (sys(libc::SYS_pidfd_send_signal), Rule::StopSignal { arg: 1 }),
        (sys(libc::SYS_clone), Rule::Clone),
        (sys(libc::SYS_clone3), Rule::Refuse(libc::ENOSYS)),
        (sys(libc::SYS_unshare), Rule::Flags { mask: NEW_NAMESPACES }),
        (sys(libc::SYS_setns), Rule::Refuse(libc::EPERM)),
        (sys(libc::SYS_mount), Rule::Refuse(libc::EPERM)),
        (sys(libc::SYS_umount2), Rule::Refuse(libc::EPERM)),
        (sys(libc::SYS_pivot_root), Rule::Refuse(libc::EPERM)),
        (sys(libc::SYS_open_tree), Rule::Refuse(libc::EPERM)),
        (sys(libc::SYS_move_mount), Rule::Refuse(libc::EPERM)),
        (sys(libc::SYS_fsopen), Rule::Refuse(libc::EPERM)),
        (sys(libc::SYS_fsconfig), Rule::Refuse(libc::EPERM)),
        (sys(libc::SYS_fsmount), Rule::Refuse(libc::EPERM)),
        (sys(libc::SYS_fspick), Rule::Refuse(libc::EPERM)),
        (sys(libc::SYS_mount_setattr), Rule::Refuse(libc::EPERM)),
        (sys(libc::SYS_ptrace), Rule::Refuse(libc::EPERM)),
        (sys(libc::SYS_timer_create), Rule::Refuse(libc::EPERM)),
        (sys(libc::SYS_mq_notify), Rule::Refuse(libc::EPERM)),
        (sys(libc::SYS_prctl), Rule::KeyedSignal { key_arg: 0, key: libc::PR_SET_PDEATHSIG as u32, arg: 1 }),
        (sys(libc::SYS_fcntl), Rule::KeyedSignal { key_arg: 1, key: F_SETSIG, arg: 2 }),
    ];
    let mut code = vec![load(ARCH), jump(BPF_JEQ, arch, 1, 0), ret(KILL_PROCESS), load(NR)];
    if cfg!(target_arch = "x86_64") {
        code.extend([jump(BPF_JGE, X32_BIT, 0, 1), ret(KILL_PROCESS)]);
    }
    for (nr, rule) in rules {
        let body = body(rule);
        code.push(jump(BPF_JEQ, nr, 0, body.len() as u8));
        code.extend(body);
    }
    code.push(ret(libc::SECCOMP_RET_ALLOW));
    Some(code)
}

/// The instructions run for a system call a rule matched; they always return.
fn body(rule: Rule) -> Vec<sock_filter> {
    let refuse = |errno: i32| ret(libc::SECCOMP_RET_ERRNO | (errno as u32 & libc::SECCOMP_RET_DATA));
    // With the signal in the accumulator: EPERM for SIGSTOP..=SIGTTOU, else allowed.
    let stopping = || {
        [
            jump(BPF_JGE, libc::SIGSTOP as u32, 0, 2),
            jump(BPF_JGE, libc::SIGTTOU as u32 + 1, 1, 0),
            refuse(libc::EPERM),
            ret(libc::SECCOMP_RET_ALLOW),
        ]
    };
    match rule {
        Rule::Refuse(errno) => vec![refuse(errno)],
        Rule::StopSignal { arg: i } => [load(arg(i))].into_iter().chain(stopping()).collect(),
        Rule::Clone => [load(arg(0)), and(CLONE_NEW_NAMESPACES), jump(BPF_JEQ, 0, 1, 0), refuse(libc::EPERM)]
            .into_iter()
            .chain([load(arg(0)), and(EXIT_SIGNAL)])
            .chain(stopping())
            .collect(),
        Rule::Flags { mask } => {
            vec![load(arg(0)), and(mask), jump(BPF_JEQ, 0, 1, 0), refuse(libc::EPERM), ret(libc::SECCOMP_RET_ALLOW)]
        }
        Rule::KeyedSignal { key_arg, key, arg: i } => {
            [load(arg(key_arg)), jump(BPF_JEQ, key, 0, 4), load(arg(i))].into_iter().chain(stopping()).collect()
        }
    }
}

fn stmt(code: u32, k: u32) -> sock_filter {
    sock_filter { code: code as u16, jt: 0, jf: 0, k }
}

/// The accumulator's bits of `mask` alone.
fn and(mask: u32) -> sock_filter {
    stmt(BPF_ALU | BPF_AND | BPF_K, mask)
}

fn load(offset: u32) -> sock_filter {
    stmt(BPF_LD | BPF_W | BPF_ABS, offset)
}

fn ret(value: u32) -> sock_filter {
    stmt(BPF_RET | BPF_K, value)
}

fn jump(condition: u32, k: u32, jt: u8, jf: u8) -> sock_filter {
    sock_filter { code: (BPF_JMP | condition | BPF_K) as u16, jt, jf, k }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stopping_signals_are_one_range() {
        assert_eq!(
            [libc::SIGSTOP, libc::SIGTSTP, libc::SIGTTIN, libc::SIGTTOU],
            [libc::SIGSTOP, libc::SIGSTOP + 1, libc::SIGSTOP + 2, libc::SIGSTOP + 3]
        );
    }

    /// Every jump lands inside the program, and the keyed rule's skip lands on its own `allow`.
    #[test]
    fn every_jump_lands_inside_the_program() {
        let Some(code) = program() else { return };
        for (at, instruction) in code.iter().enumerate() {
            if instruction.code as u32 & 0x07 == BPF_JMP {
                for offset in [instruction.jt, instruction.jf] {
                    assert!(at + 1 + (offset as usize) < code.len(), "instruction {at} jumps out");
                }
            }
        }
        let keyed = body(Rule::KeyedSignal { key_arg: 0, key: 1, arg: 1 });
        assert_eq!(keyed[1 + 1 + 4].k, libc::SECCOMP_RET_ALLOW);
        assert_eq!(keyed.len(), 1 + 1 + 4 + 1, "the skip lands on the rule's last instruction");
        assert_eq!(code.last().map(|last| last.k), Some(libc::SECCOMP_RET_ALLOW));
        let clone = body(Rule::Clone);
        assert_eq!(clone[2].jt as usize, 1, "a clone without a namespace flag goes on to its exit signal's check");
        assert_eq!(clone[4].k, arg(0));
    }

    #[test]
    fn a_clone_exit_signal_is_never_read_as_a_namespace_flag() {
        assert_ne!(NEW_NAMESPACES & libc::CLONE_NEWTIME as u32, 0, "unshare's time namespace");
        assert_eq!(CLONE_NEW_NAMESPACES & EXIT_SIGNAL, 0);
        assert_eq!(CLONE_NEW_NAMESPACES | libc::CLONE_NEWTIME as u32, NEW_NAMESPACES);
    }
}
