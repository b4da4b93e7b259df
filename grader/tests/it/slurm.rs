//! The shared class ([`crate::shard::class`]) graded on a real Slurm cluster, as README "A class on a
//! cluster" says: `scripts/slurm/submit.sh 3 CLASS OUT` queues a job array of three shards and a merge job
//! (`--dependency=afterany`), and the merged gradebooks and overview equal those of `grader batch` over the
//! whole class in one process.
//!
//! The cluster is one node on this machine, started by the test and stopped when it ends (also when it fails):
//! `munged` on a private socket with a key the test writes, `slurmctld -D` and `slurmd -D` with a slurm.conf of
//! the test's own (free ports, temporary state and spool directories; no cgroups, no accounting). It needs root
//! (slurmd runs jobs as their user) and the packages `make slurm` installs; without them the test fails
//! saying what is missing: it is never skipped.

use std::io::Read;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::shard::{assert_equals_whole, class, ONLY, SHARDS};
use crate::support::{quick_policy, root};

/// How long the cluster may take to have its node idle (it takes a few seconds).
const CLUSTER_START: Duration = Duration::from_secs(120);
/// How long the jobs may take before the test gives up (a bound, not an expectation: they take about a
/// minute on an idle machine).
const JOBS_END: Duration = Duration::from_secs(1500);

/// The programs the test runs, from the packages `make slurm` installs.
const PROGRAMS: [&str; 7] = ["munged", "slurmctld", "slurmd", "sbatch", "scontrol", "sinfo", "scancel"];

#[test]
fn slurm_array_shards_and_merge_equal_one_process_batch() {
    let started = Instant::now();
    let cluster = Cluster::start();
    let out = root().join("target/e2e-class/slurm");
    let _ = std::fs::remove_dir_all(&out);
    let policy = quick_policy();
    let mut batch_args: Vec<&str> = vec!["--policy", policy.to_str().unwrap(), "--format", "text", "--format", "html"];
    batch_args.extend(ONLY);
    let submitted = cluster
        .command(root().join("scripts/slurm/submit.sh"))
        .arg(SHARDS.to_string())
        .arg(class())
        .arg(&out)
        .args(&batch_args)
        .output()
        .unwrap();
    let merge_job = String::from_utf8_lossy(&submitted.stdout).trim().to_string();
    let said = String::from_utf8_lossy(&submitted.stderr);
    assert!(submitted.status.success() && merge_job.parse::<u64>().is_ok(), "submit.sh: {said}{}", cluster.logs());
    let array_job = said.split("job array ").nth(1).and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next());
    let array_job = array_job.unwrap_or_else(|| panic!("submit.sh names the array job: {said}")).to_string();

    let merge = cluster.wait_for(&merge_job, &out);
    let log = |name: &str| std::fs::read_to_string(out.join("logs").join(name)).unwrap_or_default();
    assert!(merge.contains("ExitCode=1:0"), "the merge exits 1 (erin is not graded): {merge}\n{}", log("merge.log"));
    assert!(log("merge.log").contains("erin"), "{}", log("merge.log"));
    let array = cluster.scontrol(&["show", "job", "-o", &array_job]);
    assert_eq!(array.lines().count(), SHARDS as usize, "one task per shard: {array}");
    for task in array.lines() {
        assert!(task.contains("ExitCode=0:0") || task.contains("ExitCode=1:0"), "{task}");
    }
    for k in 0..SHARDS {
        assert!(
            out.join(format!("shard-{k}/gradebook.json")).is_file(),
            "shard {k}: {}",
            log(&format!("shard-{k}.log"))
        );
    }
    let graded_on_slurm = started.elapsed();
    assert_equals_whole(&out.join("class"));
    drop(cluster);
    eprintln!("slurm test: cluster up, class graded in {SHARDS} shards and merged in {graded_on_slurm:.1?}");
}

/// A one-node Slurm cluster of the test's own; dropping it stops every daemon (and cancels its jobs).
struct Cluster {
    dir: tempfile::TempDir,
    conf: PathBuf,
    daemons: Vec<(&'static str, Child)>,
}

impl Cluster {
    /// Starts munged, slurmctld and slurmd, and waits for the node to be idle.
    fn start() -> Cluster {
        prerequisites();
        let dir = tempfile::Builder::new().prefix("slurm-").tempdir_in("/tmp").unwrap();
        let conf = dir.path().join("slurm.conf");
        let mut cluster = Cluster { conf: conf.clone(), daemons: vec![], dir };
        let d = cluster.dir.path().to_path_buf();
        let key = d.join("munge.key");
        let mut bytes = vec![0u8; 1024];
        std::fs::File::open("/dev/urandom").unwrap().read_exact(&mut bytes).unwrap();
        std::fs::write(&key, bytes).unwrap();
        set_mode(&key, 0o400);
        let socket = d.join("munge.sock");
        cluster.spawn(
            "munged",
            Command::new("munged")
                .args(["-F", "-f"])
                .arg(format!("--socket={}", socket.display()))
                .arg(format!("--key-file={}", key.display()))
                .arg(format!("--pid-file={}", d.join("munged.pid").display()))
                .arg(format!("--log-file={}", d.join("munged.log").display()))
                .arg(format!("--seed-file={}", d.join("munged.seed").display())),
        );
        cluster.until("munged's socket", |_| socket.exists());
        for sub in ["state", "spool"] {
            std::fs::create_dir(d.join(sub)).unwrap();
        }
        std::fs::write(&conf, slurm_conf(&d, &socket)).unwrap();
        let slurmctld =
            cluster.command("slurmctld").args(["-D", "-i"]).stdout(Stdio::null()).stderr(Stdio::null()).spawn();
        cluster.daemons.push(("slurmctld", slurmctld.unwrap()));
        let slurmd = cluster
            .command("slurmd")
            .args(["-D", "-N", "localhost"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        cluster.daemons.push(("slurmd", slurmd.unwrap()));
        cluster.until("the node to be idle", |cluster| {
            let state =
                cluster.command("sinfo").args(["-h", "-N", "-o", "%T"]).output().map(|o| o.stdout).unwrap_or_default();
            String::from_utf8_lossy(&state).trim() == "idle"
        });
        cluster
    }

    /// A command of the cluster's (its slurm.conf in SLURM_CONF; the grader the jobs run in GRADER).
    fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut command = Command::new(program);
        command.env("SLURM_CONF", &self.conf).env("GRADER", env!("CARGO_BIN_EXE_grader")).current_dir(self.dir.path());
        command
    }

    fn spawn(&mut self, name: &'static str, command: &mut Command) {
        let child = command.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null()).spawn();
        self.daemons.push((name, child.unwrap_or_else(|e| panic!("cannot start {name}: {e}"))));
    }

    fn scontrol(&self, args: &[&str]) -> String {
        let output = self.command("scontrol").args(args).output().unwrap();
        String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr)
    }

    /// Polls `done` until it holds; fails with the daemons' logs if a daemon ends or after [`CLUSTER_START`].
    fn until(&mut self, what: &str, done: impl Fn(&Cluster) -> bool) {
        let started = Instant::now();
        while !done(self) {
            let ended = self.daemons.iter_mut().find_map(|(name, child)| Some((*name, child.try_wait().ok()??)));
            if let Some((name, status)) = ended {
                panic!("{name} ended ({status}) while waiting for {what}:{}", self.logs());
            }
            assert!(started.elapsed() < CLUSTER_START, "no {what} after {CLUSTER_START:?}:{}", self.logs());
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Waits for the job `id` to end; returns `scontrol show job`'s line of it.
    fn wait_for(&self, id: &str, out: &Path) -> String {
        let started = Instant::now();
        loop {
            let line = self.scontrol(&["show", "job", "-o", id]);
            let ended = ["COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY"];
            if ended.iter().any(|state| line.contains(&format!("JobState={state} "))) {
                return line;
            }
            let logs: String = std::fs::read_dir(out.join("logs"))
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| {
                    format!("\n{}:\n{}", e.path().display(), std::fs::read_to_string(e.path()).unwrap_or_default())
                })
                .collect();
            assert!(
                started.elapsed() < JOBS_END,
                "job {id} still running after {JOBS_END:?}: {line}{logs}{}",
                self.logs()
            );
            std::thread::sleep(Duration::from_secs(1));
        }
    }

    /// The last lines of each daemon's log, for a failure's message.
    fn logs(&self) -> String {
        ["munged.log", "slurmctld.log", "slurmd.log"]
            .iter()
            .map(|name| {
                let text = std::fs::read_to_string(self.dir.path().join(name)).unwrap_or_default();
                let lines: Vec<&str> = text.lines().collect();
                format!("\n--- {name} (last lines):\n{}", lines[lines.len().saturating_sub(15)..].join("\n"))
            })
            .collect()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if self.daemons.iter().any(|(name, _)| *name == "slurmctld") {
            let _ = self.command("scancel").args(["--user", "root"]).output();
        }
        for (_, child) in self.daemons.iter_mut().rev() {
            // SAFETY: kill(2) on a process this test started and has not reaped.
            unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
            let deadline = Instant::now() + Duration::from_secs(10);
            while matches!(child.try_wait(), Ok(None)) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Root and the programs, or a failure that says what is missing and how to get it.
fn prerequisites() {
    // SAFETY: geteuid(2) has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        panic!("the Slurm test starts slurmd, which needs root: run the tests as root (CI does)");
    }
    let path: Vec<PathBuf> = std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .chain(["/usr/sbin", "/usr/bin"].map(PathBuf::from))
        .collect();
    let missing: Vec<&str> = PROGRAMS.into_iter().filter(|p| !path.iter().any(|dir| dir.join(p).is_file())).collect();
    assert!(
        missing.is_empty(),
        "the Slurm test needs {}: run `make slurm` (it installs Debian's slurm-wlm and munge)",
        missing.join(", ")
    );
}

/// A one-node cluster's slurm.conf: the controller on this host, the node `localhost`, free ports, state
/// and spool under `dir`, munge on `socket`.
fn slurm_conf(dir: &Path, socket: &Path) -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    let host = host.trim().split('.').next().unwrap();
    let (ctld, slurmd) = (free_port(), free_port());
    let d = dir.display();
    format!(
        "ClusterName=grader-test\nSlurmctldHost={host}(127.0.0.1)\nSlurmctldPort={ctld}\nSlurmdPort={slurmd}\n\
         AuthType=auth/munge\nAuthInfo=socket={}\nCredType=cred/munge\nSlurmUser=root\nSlurmdUser=root\n\
         ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\nSelectType=select/cons_tres\n\
         SelectTypeParameters=CR_Core\nAccountingStorageType=accounting_storage/none\n\
         JobAcctGatherType=jobacct_gather/none\nJobCompType=jobcomp/none\nMpiDefault=none\n\
         StateSaveLocation={d}/state\nSlurmdSpoolDir={d}/spool\nSlurmctldPidFile={d}/slurmctld.pid\n\
         SlurmdPidFile={d}/slurmd.pid\nSlurmctldLogFile={d}/slurmctld.log\nSlurmdLogFile={d}/slurmd.log\n\
         MinJobAge=3600\nReturnToService=2\n\
         NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN\n\
         PartitionName=debug Nodes=localhost Default=YES State=UP MaxTime=INFINITE\n",
        socket.display()
    )
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}
