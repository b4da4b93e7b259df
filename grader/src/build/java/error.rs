//! Why a Java submission could not be built for a reason that is not the student's ([`JavaBuildError`]):
//! no JDK, a tool that would not start, an unwritable work directory, an adapter that does not compile. A
//! student's compile error is not one: it is [`Prepared::CompileFailed`](crate::build::Prepared).

use std::io;
use std::path::PathBuf;

/// Why a Java submission could not be built, for a reason that is not the student's.
#[derive(Debug, thiserror::Error)]
pub enum JavaBuildError {
    /// No JDK tool of this name in `JAVA_HOME/bin` or on `PATH`.
    #[error("`{0}` was not found in JAVA_HOME/bin or on PATH: install a JDK (17 or later) or set JAVA_HOME")]
    ToolNotFound(&'static str),
    /// A JDK tool could not be started.
    #[error("failed to run {tool}: {source}")]
    Tool {
        /// The tool's path (found beside `javac`, or on `PATH`).
        tool: PathBuf,
        /// The operating system's error.
        source: io::Error,
    },
    /// Reading the submission or writing the work directory failed.
    #[error("{what}: {source}")]
    Io {
        /// What was being done, as the error message starts.
        what: String,
        /// The operating system's error.
        source: io::Error,
    },
    /// The embedded adapter did not compile or package: a grader bug (or an unsupported JDK).
    #[error("the Java adapter failed to build (needs JDK 17 or later): {0}")]
    Adapter(String),
}

pub(super) fn io_error(what: impl Into<String>) -> impl FnOnce(io::Error) -> JavaBuildError {
    let what = what.into();
    move |source| JavaBuildError::Io { what, source }
}
