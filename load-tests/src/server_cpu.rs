//! [`ServerCpu`]: the CPU time of the server processes (`--server-pid`), read from Linux's
//! `/proc/PID/stat` at the start and the end of each measured window, so that a report can say
//! how much server CPU each call cost.
//!
//! `/proc/PID/stat` gives a process's user and system time (fields 14 and 15) in clock ticks.
//! The tick rate is `sysconf(_SC_CLK_TCK)`; calling it needs `unsafe`, which the workspace
//! forbids, so the load generator takes Linux's fixed `USER_HZ` of 100, the value the kernel
//! exports through `/proc` on every mainstream architecture (x86, ARM, RISC-V, POWER, s390).
//!
//! Only a server on this machine can be measured this way, so every target must be a loopback
//! address: a pid says nothing about another host's server.

use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use tonic::transport::Uri;

/// Clock ticks per second of the times in `/proc/PID/stat` (Linux's `USER_HZ`).
pub(crate) const CLOCK_TICKS_PER_SECOND: u64 = 100;

/// Where Linux mounts the process file system.
const PROC: &str = "/proc";

/// The server processes whose CPU time a run measures.
#[derive(Clone, Debug)]
pub(crate) struct ServerCpu {
    pids: Vec<u32>,
    /// The process file system (`/proc`; another directory in tests).
    root: PathBuf,
}

impl ServerCpu {
    /// The meter of `pids` serving `targets` (URLs); `None` when no pid is given. Fails when
    /// the system has no `/proc`, a pid has no process, or a target is on another host.
    pub(crate) fn open(pids: &[u32], targets: &[String]) -> Result<Option<ServerCpu>, String> {
        ServerCpu::open_in(Path::new(PROC), cfg!(target_os = "linux"), pids, targets)
    }

    /// [`ServerCpu::open`] over the process file system at `root`, on Linux when `linux`.
    fn open_in(
        root: &Path,
        linux: bool,
        pids: &[u32],
        targets: &[String],
    ) -> Result<Option<ServerCpu>, String> {
        if pids.is_empty() {
            return Ok(None);
        }
        if !linux || !root.is_dir() {
            return Err(format!(
                "--server-pid reads Linux's {}/PID/stat, which this system does not have",
                root.display()
            ));
        }
        for target in targets {
            check_local(target)?;
        }
        let meter = ServerCpu {
            pids: pids.to_vec(),
            root: root.to_path_buf(),
        };
        // Read each process once now, so that a wrong pid fails before any load is sent.
        meter.sample()?;
        Ok(Some(meter))
    }

    /// The CPU time (user and system) the processes have used so far, summed.
    pub(crate) fn sample(&self) -> Result<Duration, String> {
        let mut ticks: u64 = 0;
        for &pid in &self.pids {
            let path = self.root.join(pid.to_string()).join("stat");
            let text = std::fs::read_to_string(&path).map_err(|error| {
                format!("no process {pid} to measure ({}: {error})", path.display())
            })?;
            let used = cpu_ticks(&text).map_err(|error| format!("{}: {error}", path.display()))?;
            ticks = ticks.saturating_add(used);
        }
        Ok(ticks_to_duration(ticks))
    }
}

/// `ticks` clock ticks as a duration.
fn ticks_to_duration(ticks: u64) -> Duration {
    let micros_per_tick = 1_000_000 / CLOCK_TICKS_PER_SECOND;
    Duration::from_micros(ticks.saturating_mul(micros_per_tick))
}

/// The user plus system time of a `/proc/PID/stat` line, in clock ticks.
///
/// The second field is the command name in parentheses, and the name itself may hold spaces
/// and parentheses (a process may call itself `a) (b`), so the fields are counted from the
/// last `)` of the line: the state (field 3) comes right after it.
pub(crate) fn cpu_ticks(stat: &str) -> Result<u64, String> {
    let (_, after_name) = stat
        .rsplit_once(')')
        .ok_or_else(|| "no `)` closing the command name".to_string())?;
    // Fields 3, 4, ... of the line; utime is field 14 and stime field 15.
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let field = |number: usize, name: &str| -> Result<u64, String> {
        let value = fields
            .get(number - 3)
            .ok_or_else(|| format!("no field {number} ({name})"))?;
        value
            .parse::<u64>()
            .map_err(|_| format!("field {number} ({name}) is `{value}`, not a tick count"))
    };
    let user = field(14, "utime")?;
    let system = field(15, "stime")?;
    Ok(user.saturating_add(system))
}

/// Fails unless `target` (a URL) names this machine: `localhost` or a loopback address.
pub(crate) fn check_local(target: &str) -> Result<(), String> {
    let uri: Uri = target
        .parse()
        .map_err(|error| format!("bad target `{target}`: {error}"))?;
    let host = uri.host().unwrap_or_default();
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let local = bare.eq_ignore_ascii_case("localhost")
        || bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback());
    if local {
        Ok(())
    } else {
        Err(format!(
            "--server-pid measures processes of this machine, but target `{target}` is on \
             another host: its server is another host's server"
        ))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU32, Ordering};

    use super::*;

    /// A stat line of process `pid` named `name` with `utime` and `stime`.
    fn stat_line(pid: u32, name: &str, utime: u64, stime: u64) -> String {
        // Fields 3 to 13, then utime and stime, then the rest as a kernel writes them.
        format!(
            "{pid} ({name}) S 1 {pid} {pid} 0 -1 4194560 2612 0 0 0 {utime} {stime} 0 0 20 0 \
             9 0 1234567 987654321 3000 18446744073709551615 1 1 0 0 0 0 0 4096 17663 0 0 0 17 \
             1 0 0 0 0 0\n"
        )
    }

    /// A fresh directory standing for `/proc`, holding the given processes.
    fn fake_proc(processes: &[(u32, String)]) -> PathBuf {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let root = std::env::temp_dir().join(format!(
            "deckmate-load-proc-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&root);
        for (pid, stat) in processes {
            let dir = root.join(pid.to_string());
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("stat"), stat).unwrap();
        }
        std::fs::create_dir_all(&root).unwrap();
        root
    }

    fn local() -> Vec<String> {
        vec!["http://127.0.0.1:50051".to_string()]
    }

    #[test]
    fn the_times_are_read_after_the_last_parenthesis() {
        assert_eq!(
            cpu_ticks(&stat_line(42, "deckmate-server", 150, 25)),
            Ok(175)
        );
        // A name holding ") (" and spaces would shift every field if split at the first ')'.
        let tricky = stat_line(7, "evil) (name) 9 9 9", 3, 4);
        assert_eq!(cpu_ticks(&tricky), Ok(7));
        assert_eq!(cpu_ticks(&stat_line(8, "", 0, 0)), Ok(0));
    }

    #[test]
    fn malformed_lines_are_refused() {
        assert!(cpu_ticks("12 no-parenthesis S 1").is_err());
        assert!(
            cpu_ticks("12 (short) S 1 2 3")
                .unwrap_err()
                .contains("field 14")
        );
        let negative = stat_line(5, "x", 1, 2).replace(" 1 2 0 0 20", " -1 2 0 0 20");
        assert!(cpu_ticks(&negative).unwrap_err().contains("utime"));
    }

    #[test]
    fn ticks_are_hundredths_of_a_second() {
        assert_eq!(ticks_to_duration(1), Duration::from_millis(10));
        assert_eq!(ticks_to_duration(250), Duration::from_millis(2500));
    }

    #[test]
    fn the_processes_are_summed() {
        let root = fake_proc(&[
            (100, stat_line(100, "deckmate-server", 10, 5)),
            (200, stat_line(200, "deckmate) (server", 1, 4)),
        ]);
        let meter = ServerCpu::open_in(&root, true, &[100, 200], &local())
            .unwrap()
            .expect("pids were given");
        assert_eq!(meter.sample(), Ok(Duration::from_millis(200)));
        std::fs::write(
            root.join("100").join("stat"),
            stat_line(100, "deckmate-server", 30, 5),
        )
        .unwrap();
        assert_eq!(meter.sample(), Ok(Duration::from_millis(400)));
        let _ = std::fs::remove_dir_all(root);
    }

    #[test]
    fn no_pid_means_no_meter_even_off_linux() {
        let missing = Path::new("/nonexistent-proc-for-deckmate-load");
        assert!(
            ServerCpu::open_in(missing, false, &[], &local())
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn a_system_without_proc_is_refused() {
        let missing = Path::new("/nonexistent-proc-for-deckmate-load");
        let error = ServerCpu::open_in(missing, true, &[1], &local()).unwrap_err();
        assert!(error.contains("does not have"), "{error}");
        let root = fake_proc(&[(1, stat_line(1, "init", 0, 0))]);
        let error = ServerCpu::open_in(&root, false, &[1], &local()).unwrap_err();
        assert!(error.contains("Linux"), "{error}");
        let _ = std::fs::remove_dir_all(root);
    }

    #[test]
    fn a_pid_without_a_process_is_refused() {
        let root = fake_proc(&[(100, stat_line(100, "deckmate-server", 1, 1))]);
        let error = ServerCpu::open_in(&root, true, &[100, 101], &local()).unwrap_err();
        assert!(error.contains("no process 101"), "{error}");
        let _ = std::fs::remove_dir_all(root);
    }

    #[test]
    fn this_process_can_be_measured_on_linux() {
        if !cfg!(target_os = "linux") {
            return;
        }
        let meter = ServerCpu::open(&[std::process::id()], &local())
            .unwrap()
            .expect("a pid was given");
        assert!(meter.sample().is_ok());
    }

    #[test]
    fn only_targets_on_this_machine_can_be_measured() {
        for target in [
            "http://127.0.0.1:50051",
            "http://localhost:50051",
            "https://LOCALHOST",
            "http://[::1]:50051",
            "http://127.0.0.2:9",
        ] {
            assert_eq!(check_local(target), Ok(()), "{target}");
        }
        for target in [
            "http://10.0.0.5:50051",
            "http://deckmate.example:443",
            "http://[2001:db8::1]:50051",
            "http://localhost.example:50051",
        ] {
            let error = check_local(target).unwrap_err();
            assert!(error.contains("another host's server"), "{target}: {error}");
        }
        let root = fake_proc(&[(100, stat_line(100, "deckmate-server", 1, 1))]);
        let targets = vec![
            "http://127.0.0.1:50051".to_string(),
            "http://10.1.2.3:50051".to_string(),
        ];
        let error = ServerCpu::open_in(&root, true, &[100], &targets).unwrap_err();
        assert!(error.contains("10.1.2.3"), "{error}");
        let _ = std::fs::remove_dir_all(root);
    }
}
