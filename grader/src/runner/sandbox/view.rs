//! What a sandbox's program sees of the filesystem ([`root_plan`]): the steps its init takes in its own mount
//! namespace to build a read-only root of the system's toolchain directories ([`SYSTEM`]), what of `/etc` the
//! linker, name lookups and the JDK read ([`ETC`], never `/etc/shadow`), a few devices, a private `/proc`, a
//! small `/tmp`, the spec's own paths (read-only or writable) and, last, the scratch directory as a tmpfs of
//! its own. Paths keep their names, so a command line needs no rewriting.

use std::ffi::{CString, OsStr};
use std::fs;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::child::{Become, Step};
use crate::runner::spec::ProcessSpec;

/// The system directories every sandbox sees read-only (a symbolic link among them is copied as one).
const SYSTEM: &[&str] = &["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];
/// What of `/etc` a sandbox sees: what the dynamic linker, name lookups and the JDK read (a JDK's
/// `/etc/java-*` directories too). Not the rest: a build runs as root, which could read `/etc/shadow` or
/// a credentials file there.
const ETC: &[&str] = &[
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "passwd",
    "group",
    "nsswitch.conf",
    "host.conf",
    "hosts",
    "localtime",
    "timezone",
    "alternatives",
    "os-release",
    "mime.types",
];
/// Devices bound into `/dev`.
const DEVICES: &[&str] = &["null", "zero", "full", "random", "urandom"];

pub(super) fn c_string(text: impl AsRef<OsStr>) -> io::Result<CString> {
    CString::new(text.as_ref().as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a path or argument contains a NUL byte"))
}

/// The directory every sandbox's root is mounted on (in its own mount namespace, so all can share it).
fn root_dir() -> io::Result<&'static Path> {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    if let Some(root) = ROOT.get() {
        return Ok(root);
    }
    let dir = std::env::temp_dir().join(format!("npuzzle-sandbox-root-{}", rustix::process::geteuid().as_raw()));
    fs::create_dir_all(&dir)?;
    Ok(ROOT.get_or_init(|| dir))
}

/// The steps that build the view of `spec` under the root directory, for a program that becomes `who`.
pub(super) fn root_plan(
    spec: &ProcessSpec,
    program: &Path,
    scratch: &Path,
    who: Become,
) -> io::Result<(CString, Vec<Step>)> {
    let root = root_dir()?;
    let mut view = ViewBuilder { root, steps: Vec::new(), made: Vec::new() };
    for dir in SYSTEM {
        view.system(Path::new(dir))?;
    }
    view.dir(Path::new("/etc"))?;
    for entry in etc_entries() {
        view.system(entry)?;
    }
    view.dir(Path::new("/dev"))?;
    for device in DEVICES {
        let path = Path::new("/dev").join(device);
        if path.exists() {
            view.bind(&path, true, true)?;
        }
    }
    for (name, target) in [
        ("fd", "/proc/self/fd"),
        ("stdin", "/proc/self/fd/0"),
        ("stdout", "/proc/self/fd/1"),
        ("stderr", "/proc/self/fd/2"),
    ] {
        view.steps.push(Step::Symlink { target: c_string(target)?, at: view.inside(&Path::new("/dev").join(name))? });
    }
    view.dir(Path::new("/proc"))?;
    // hidepid=2: a process sees only the processes of its own uid (and never its init, which keeps the
    // grader's credentials); the init's command line is blanked as well
    view.steps.push(Step::Proc(view.inside(Path::new("/proc"))?));
    view.dir(Path::new("/tmp"))?;
    view.steps.push(Step::Tmpfs { at: view.inside(Path::new("/tmp"))?, options: c_string("size=16m,mode=1777")? });
    let mut binds: Vec<(PathBuf, bool)> = Vec::new();
    binds.push((program.to_owned(), false));
    binds.extend(spec.view.read_only.iter().map(|p| (p.clone(), false)));
    binds.extend(spec.view.writable.iter().map(|p| (p.clone(), true)));
    if let Some(cwd) = &spec.cwd {
        binds.push((cwd.clone(), false));
    }
    let mut binds: Vec<(PathBuf, bool)> =
        binds.into_iter().filter_map(|(path, writable)| Some((fs::canonicalize(&path).ok()?, writable))).collect();
    binds.sort();
    let mut kept: Vec<(PathBuf, bool)> = Vec::new();
    for (path, writable) in binds {
        // a path inside another of the same kind is visible already
        if !kept.iter().any(|(outer, w)| *w == writable && path.starts_with(outer)) {
            kept.push((path, writable));
        }
    }
    for (path, writable) in &kept {
        if *writable || !SYSTEM.iter().any(|dir| path.starts_with(dir)) {
            view.bind(path, *writable, false)?;
        }
    }
    // the scratch directory last, over whatever holds its path: a tmpfs of its own, owned by the program
    let scratch = fs::canonicalize(scratch)?;
    view.dir(&scratch)?;
    let owner = match who {
        Become::User(uid) => format!(",uid={uid},gid={uid}"),
        Become::CaplessSelf | Become::Unchanged => String::new(),
    };
    let size = spec.limits.scratch.map(|bytes| format!(",size={bytes}")).unwrap_or_default();
    view.steps.push(Step::Tmpfs { at: view.inside(&scratch)?, options: c_string(format!("mode=0700{owner}{size}"))? });
    Ok((c_string(root.as_os_str())?, view.steps))
}

/// The `/etc` entries a sandbox sees ([`ETC`] and `java*`), those that exist, found once.
fn etc_entries() -> &'static [PathBuf] {
    static ENTRIES: OnceLock<Vec<PathBuf>> = OnceLock::new();
    ENTRIES.get_or_init(find_etc_entries)
}

fn find_etc_entries() -> Vec<PathBuf> {
    let java = fs::read_dir("/etc")
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|entry| entry.file_name().as_bytes().starts_with(b"java"))
                .map(|entry| entry.path())
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    let mut entries: Vec<PathBuf> = ETC.iter().map(|name| Path::new("/etc").join(name)).chain(java).collect();
    entries.retain(|entry| fs::symlink_metadata(entry).is_ok());
    entries.sort();
    entries.dedup();
    entries
}

/// Collects the steps of a view, creating each mount point's parents once.
struct ViewBuilder<'a> {
    root: &'a Path,
    steps: Vec<Step>,
    made: Vec<PathBuf>,
}

impl ViewBuilder<'_> {
    fn inside(&self, path: &Path) -> io::Result<CString> {
        c_string(self.root.join(path.strip_prefix("/").unwrap_or(path)).as_os_str())
    }

    fn dir(&mut self, path: &Path) -> io::Result<()> {
        for ancestor in path.ancestors().collect::<Vec<_>>().into_iter().rev().skip(1) {
            if !self.made.iter().any(|made| made == ancestor) {
                self.steps.push(Step::Dir(self.inside(ancestor)?));
                self.made.push(ancestor.to_owned());
            }
        }
        Ok(())
    }

    fn system(&mut self, path: &Path) -> io::Result<()> {
        match fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = fs::read_link(path)?;
                self.steps.push(Step::Symlink { target: c_string(target.as_os_str())?, at: self.inside(path)? });
                Ok(())
            }
            Ok(_) => self.bind(path, false, false),
            Err(_) => Ok(()),
        }
    }

    fn bind(&mut self, path: &Path, writable: bool, dev: bool) -> io::Result<()> {
        if let Some(parent) = path.parent() {
            self.dir(parent)?;
        }
        let at = self.inside(path)?;
        if path.is_dir() {
            self.steps.push(Step::Dir(at.clone()));
            self.made.push(path.to_owned());
        } else {
            self.steps.push(Step::File(at.clone()));
        }
        self.steps.push(Step::Bind { source: c_string(path.as_os_str())?, at, writable, dev });
        Ok(())
    }
}
