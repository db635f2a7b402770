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
//!
//! A pid of the wrong process (a shell, `sleep`, pid 1) would be measured without complaint and
//! report a server CPU near zero, so at start-up each process must listen on a TCP port, and
//! each target's port must be one that a given process listens on. The sockets a process holds
//! are the `socket:[INODE]` links of `/proc/PID/fd`, and the listening ones are the rows in
//! state `0A` (LISTEN) of `/proc/PID/net/tcp` and `tcp6`, the tables of the process's own
//! network namespace (a server in a container has its own). When the links cannot be read
//! (another user's process), the check is skipped: the meter still works, it just cannot verify.

use std::collections::{BTreeSet, HashSet};
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
        check_listening(root, pids, targets)?;
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

/// Fails when a process of `pids` listens on no TCP port, or when no process of `pids` listens
/// on the port of one of `targets`. Processes whose sockets cannot be read are not checked, and
/// then neither are the targets' ports, since such a process may be the one listening.
fn check_listening(root: &Path, pids: &[u32], targets: &[String]) -> Result<(), String> {
    let mut heard = BTreeSet::new();
    let mut every_process_read = true;
    for &pid in pids {
        match listening_ports(root, pid) {
            None => every_process_read = false,
            Some(ports) if ports.is_empty() => {
                return Err(format!(
                    "--server-pid {pid} listens on no TCP port, so it is not a server; give the \
                     pid of the server process"
                ));
            }
            Some(ports) => heard.extend(ports),
        }
    }
    if !every_process_read {
        return Ok(());
    }
    for target in targets {
        let port = target_port(target)?;
        if !heard.contains(&port) {
            let given: Vec<String> = pids.iter().map(u32::to_string).collect();
            let listened: Vec<String> = heard.iter().map(u16::to_string).collect();
            let who = match given.as_slice() {
                [one] => format!("process {one} listens"),
                many => format!("processes {} listen", many.join(", ")),
            };
            return Err(format!(
                "no --server-pid process listens on port {port} of target `{target}`: {who} on \
                 TCP port {} only; give the pid of the server at `{target}`",
                listened.join(", ")
            ));
        }
    }
    Ok(())
}

/// The TCP ports process `pid` listens on; `None` when its file descriptors or socket tables
/// cannot be read.
fn listening_ports(root: &Path, pid: u32) -> Option<BTreeSet<u16>> {
    let process = root.join(pid.to_string());
    let mut inodes = HashSet::new();
    let descriptors = std::fs::read_dir(process.join("fd")).ok()?;
    // A descriptor closed since the listing has no link any more: it is no socket to match.
    for entry in descriptors.flatten() {
        let Ok(link) = std::fs::read_link(entry.path()) else {
            continue;
        };
        if let Some(inode) = socket_inode(&link.to_string_lossy()) {
            inodes.insert(inode);
        }
    }
    let mut ports = BTreeSet::new();
    let mut tables_read = 0;
    for table in ["tcp", "tcp6"] {
        // A kernel without IPv6 has no tcp6 table; one table read is enough to match against.
        let Ok(text) = std::fs::read_to_string(process.join("net").join(table)) else {
            continue;
        };
        tables_read += 1;
        ports.extend(
            text.lines()
                .filter_map(listening_socket)
                .filter(|(inode, _)| inodes.contains(inode))
                .map(|(_, port)| port),
        );
    }
    (tables_read > 0).then_some(ports)
}

/// The inode of a `/proc/PID/fd` link naming a socket (`socket:[12345]`).
fn socket_inode(link: &str) -> Option<u64> {
    link.strip_prefix("socket:[")?
        .strip_suffix(']')?
        .parse()
        .ok()
}

/// The inode and local port of a row of `/proc/net/tcp` or `tcp6` in state LISTEN (`0A`);
/// `None` for the header, another state or a malformed row.
///
/// A row reads `sl local rem st tx:rx tr:when retrnsmt uid timeout inode ...`, the local
/// address being `ADDRESS:PORT` in hexadecimal (8 address digits for IPv4, 32 for IPv6).
pub(crate) fn listening_socket(row: &str) -> Option<(u64, u16)> {
    let fields: Vec<&str> = row.split_whitespace().collect();
    let (_, port) = fields.get(1)?.rsplit_once(':')?;
    if *fields.get(3)? != "0A" {
        return None;
    }
    let port = u16::from_str_radix(port, 16).ok()?;
    let inode = fields.get(9)?.parse().ok()?;
    Some((inode, port))
}

/// The port of `target` (a URL), or its scheme's default one.
fn target_port(target: &str) -> Result<u16, String> {
    let uri: Uri = target
        .parse()
        .map_err(|error| format!("bad target `{target}`: {error}"))?;
    Ok(uri
        .port_u16()
        .unwrap_or(if uri.scheme_str() == Some("https") {
            443
        } else {
            80
        }))
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
        // The test process is a server only once it listens, on the target's port.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let target = vec![format!("http://127.0.0.1:{port}")];
        let meter = ServerCpu::open(&[std::process::id()], &target)
            .unwrap()
            .expect("a pid was given");
        assert!(meter.sample().is_ok());
        // Port 9 (discard) is not this process's: nothing in the tests listens there.
        let elsewhere = vec!["http://127.0.0.1:9".to_string()];
        let error = ServerCpu::open(&[std::process::id()], &elsewhere).unwrap_err();
        assert!(error.contains("port 9 of target"), "{error}");
        assert!(
            error.contains(&format!("process {} listens", std::process::id())),
            "{error}"
        );
        drop(listener);
    }

    /// A row of `/proc/net/tcp` for a socket on local port `port` in `state` with `inode`.
    fn tcp_row(port: u16, state: &str, inode: u64) -> String {
        format!(
            "   1: 0100007F:{port:04X} 00000000:0000 {state} 00000000:00000000 00:00000000 \
             00000000  1000        0 {inode} 1 0000000000000000 100 0 0 10 0"
        )
    }

    /// A row of `/proc/net/tcp6` for a socket on local port `port` in `state` with `inode`.
    fn tcp6_row(port: u16, state: &str, inode: u64) -> String {
        format!(
            "   0: 00000000000000000000000000000000:{port:04X} \
             00000000000000000000000000000000:0000 {state} 00000000:00000000 00:00000000 \
             00000000  1000        0 {inode} 1 0000000000000000 100 0 0 10 0"
        )
    }

    #[test]
    fn listening_rows_give_their_inode_and_port() {
        assert_eq!(
            listening_socket(&tcp_row(50051, "0A", 12345)),
            Some((12345, 50051))
        );
        assert_eq!(listening_socket(&tcp6_row(443, "0A", 99)), Some((99, 443)));
        // A kernel row as printed, port 0xC383 = 50051.
        let kernel = "   0: 00000000:C383 00000000:0000 0A 00000000:00000000 00:00000000 \
                      00000000     0        0 27182 1 ffff8881 100 0 0 10 0";
        assert_eq!(listening_socket(kernel), Some((27182, 50051)));
    }

    #[test]
    fn other_rows_are_not_listening_sockets() {
        let header = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when \
                      retrnsmt   uid  timeout inode";
        assert_eq!(listening_socket(header), None);
        assert_eq!(listening_socket(""), None);
        // 01 is ESTABLISHED, 06 TIME_WAIT: a connection, not a server.
        assert_eq!(listening_socket(&tcp_row(50051, "01", 7)), None);
        assert_eq!(listening_socket(&tcp6_row(50051, "06", 7)), None);
        assert_eq!(
            listening_socket("   0: 0100007F:ZZZZ 00000000:0000 0A 0 0 0 0 0 5"),
            None
        );
        assert_eq!(
            listening_socket("   0: 0100007F:C383 00000000:0000 0A 0 0"),
            None
        );
        assert_eq!(
            listening_socket("   0: 0100007F 00000000:0000 0A 0 0 0 0 0 5"),
            None
        );
    }

    #[test]
    fn socket_links_give_their_inode() {
        assert_eq!(socket_inode("socket:[12345]"), Some(12345));
        assert_eq!(socket_inode("pipe:[12345]"), None);
        assert_eq!(socket_inode("/dev/null"), None);
        assert_eq!(socket_inode("socket:[x]"), None);
    }

    #[test]
    fn target_ports_default_to_the_scheme() {
        assert_eq!(target_port("http://127.0.0.1:50051"), Ok(50051));
        assert_eq!(target_port("http://localhost"), Ok(80));
        assert_eq!(target_port("https://[::1]"), Ok(443));
    }

    /// Gives process `pid` of the fake `/proc` at `root` sockets with these `inodes`, and the
    /// socket tables `tcp` and `tcp6`.
    #[cfg(unix)]
    fn give_sockets(root: &Path, pid: u32, inodes: &[u64], tcp: &[String], tcp6: &[String]) {
        let process = root.join(pid.to_string());
        std::fs::create_dir_all(process.join("fd")).unwrap();
        std::fs::create_dir_all(process.join("net")).unwrap();
        // The standard streams first, as in a real process: links that are no sockets.
        std::os::unix::fs::symlink("/dev/null", process.join("fd").join("0")).unwrap();
        for (number, inode) in inodes.iter().enumerate() {
            let link = format!("socket:[{inode}]");
            let fd = process.join("fd").join((number + 3).to_string());
            std::os::unix::fs::symlink(link, fd).unwrap();
        }
        let header = "  sl  local_address rem_address   st tx_queue rx_queue\n";
        std::fs::write(
            process.join("net").join("tcp"),
            header.to_string() + &tcp.join("\n"),
        )
        .unwrap();
        std::fs::write(
            process.join("net").join("tcp6"),
            header.to_string() + &tcp6.join("\n"),
        )
        .unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_process_listening_on_the_target_port_is_accepted() {
        let root = fake_proc(&[(100, stat_line(100, "deckmate-server", 1, 1))]);
        // Another process's listener on 50051 (inode 8) does not count; this one's, on tcp6, does.
        let tcp = [tcp_row(50051, "0A", 8), tcp_row(40000, "01", 5)];
        give_sockets(&root, 100, &[5, 6], &tcp, &[tcp6_row(50051, "0A", 6)]);
        assert!(ServerCpu::open_in(&root, true, &[100], &local()).is_ok());
        let _ = std::fs::remove_dir_all(root);
    }

    #[cfg(unix)]
    #[test]
    fn a_process_listening_nowhere_is_refused() {
        let root = fake_proc(&[(1, stat_line(1, "sleep", 0, 0))]);
        let tcp = [tcp_row(50051, "0A", 8), tcp_row(40000, "01", 5)];
        give_sockets(&root, 1, &[5], &tcp, &[]);
        let error = ServerCpu::open_in(&root, true, &[1], &local()).unwrap_err();
        assert!(
            error.contains("--server-pid 1 listens on no TCP port"),
            "{error}"
        );
        let _ = std::fs::remove_dir_all(root);
    }

    #[cfg(unix)]
    #[test]
    fn a_process_listening_on_another_port_is_refused() {
        let root = fake_proc(&[(1, stat_line(1, "init", 0, 0))]);
        give_sockets(&root, 1, &[5], &[tcp_row(22, "0A", 5)], &[]);
        let error = ServerCpu::open_in(&root, true, &[1], &local()).unwrap_err();
        assert!(error.contains("port 50051 of target"), "{error}");
        assert!(
            error.contains("process 1 listens on TCP port 22 only"),
            "{error}"
        );
        let _ = std::fs::remove_dir_all(root);
    }

    #[cfg(unix)]
    #[test]
    fn replicas_need_one_listener_on_each_target_port() {
        let root = fake_proc(&[
            (100, stat_line(100, "deckmate-server", 1, 1)),
            (200, stat_line(200, "deckmate-server", 1, 1)),
        ]);
        let rows = [tcp_row(50051, "0A", 5), tcp_row(50052, "0A", 6)];
        give_sockets(&root, 100, &[5], &rows, &[]);
        give_sockets(&root, 200, &[6], &rows, &[]);
        // Replicas behind one address: each listens, one of them on the target's port.
        assert!(ServerCpu::open_in(&root, true, &[100, 200], &local()).is_ok());
        let both = vec![
            "http://127.0.0.1:50051".to_string(),
            "http://127.0.0.1:50052".to_string(),
        ];
        assert!(ServerCpu::open_in(&root, true, &[100, 200], &both).is_ok());
        let third = vec!["http://localhost:50053".to_string()];
        let error = ServerCpu::open_in(&root, true, &[100, 200], &third).unwrap_err();
        assert!(error.contains("port 50053"), "{error}");
        assert!(
            error.contains("processes 100, 200 listen on TCP port 50051, 50052 only"),
            "{error}"
        );
        let _ = std::fs::remove_dir_all(root);
    }

    #[test]
    fn a_process_whose_sockets_cannot_be_read_is_not_checked() {
        // No fd directory stands for one that another user's process keeps from us.
        let root = fake_proc(&[(100, stat_line(100, "deckmate-server", 1, 1))]);
        let far = vec!["http://127.0.0.1:1".to_string()];
        assert!(ServerCpu::open_in(&root, true, &[100], &far).is_ok());
        let _ = std::fs::remove_dir_all(root);
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
