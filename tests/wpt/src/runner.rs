//! Runs one test page in the shell, as a child process with a hard timeout.
//!
//! The shell's stdout is read line by line (see `report.rs`); once the
//! completion line arrives the shell is killed (its event loop may idle on).
//! An exit with the shell's timeout status ([`SHELL_TIMEOUT_STATUS`]: its
//! `--timeout` watchdog stopped the page) is TIMEOUT with the shell's
//! message. Past the deadline it is killed and the file is TIMEOUT; death by a signal
//! or a panic (exit code 101) is CRASH; any other exit before completion is
//! ERROR with the end of its stderr. None of these stops the run.

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::report::{Collector, SubtestResult};

/// How the shell is started.
#[derive(Debug, Clone)]
pub struct Shell {
    pub binary: PathBuf,
    /// Arguments after the URL (host mapping, CA file, ...).
    pub args: Vec<String>,
}

/// The outcome of one test file.
#[derive(Debug, Clone)]
pub struct FileOutcome {
    /// OK, ERROR, TIMEOUT, CRASH or PRECONDITION_FAILED.
    pub status: String,
    /// Why, when not OK (harness message, shell error, stderr tail).
    pub message: Option<String>,
    pub subtests: Vec<SubtestResult>,
    pub duration: Duration,
}

/// The shell's exit status when its `--timeout` stopped the page
/// (`jsprof_shell::EXIT_TIMEOUT`; the harness runs the shell binary and
/// does not link its crate).
pub const SHELL_TIMEOUT_STATUS: i32 = 124;

const STDERR_TAIL: usize = 4000;
/// How long to wait for the exit status once stdout closed.
const EXIT_GRACE: Duration = Duration::from_secs(5);

impl Shell {
    /// Loads `url` and collects its results, killing the shell at `timeout`.
    pub fn run(&self, url: &str, timeout: Duration) -> FileOutcome {
        let start = Instant::now();
        let mut command = Command::new(&self.binary);
        command
            .arg(url)
            .args(&self.args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // Its own process group, so that a kill reaches its children.
            command.process_group(0);
        }
        let spawned = command.spawn();
        let mut child = match spawned {
            Ok(child) => child,
            Err(e) => {
                return FileOutcome {
                    status: "ERROR".into(),
                    message: Some(format!("cannot start {}: {e}", self.binary.display())),
                    subtests: vec![],
                    duration: start.elapsed(),
                }
            }
        };
        let (tx, rx) = mpsc::channel();
        let stdout = child.stdout.take().expect("piped stdout");
        let stdout_thread = std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut line = Vec::new();
            loop {
                line.clear();
                match reader.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if tx
                            .send(String::from_utf8_lossy(&line).into_owned())
                            .is_err()
                        {
                            break;
                        }
                    }
                }
            }
        });
        let mut stderr = child.stderr.take().expect("piped stderr");
        let (stderr_tx, stderr_rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut tail: Vec<u8> = Vec::new();
            let mut chunk = [0u8; 4096];
            while let Ok(n) = stderr.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                tail.extend_from_slice(&chunk[..n]);
                if tail.len() > 2 * STDERR_TAIL {
                    tail.drain(..tail.len() - STDERR_TAIL);
                }
            }
            let text = String::from_utf8_lossy(&tail).into_owned();
            let mut cut = text.len().saturating_sub(STDERR_TAIL);
            while !text.is_char_boundary(cut) {
                cut += 1;
            }
            let _ = stderr_tx.send(text[cut..].to_owned());
        });

        let deadline = start + timeout;
        let mut collector = Collector::default();
        let end = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(line) => {
                    if collector.feed(&line) {
                        break End::Completed;
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => break End::TimedOut,
                Err(mpsc::RecvTimeoutError::Disconnected) => break End::StdoutClosed,
            }
        };
        let exit = match end {
            End::Completed | End::TimedOut => {
                kill(&mut child);
                None
            }
            End::StdoutClosed => {
                wait_with_deadline(&mut child, deadline.max(Instant::now() + EXIT_GRACE))
            }
        };
        // The reader threads end when the pipes close; a grandchild holding
        // them open must not block the run, so they are not joined.
        drop(rx);
        drop(stdout_thread);
        let stderr_tail = stderr_rx
            .recv_timeout(Duration::from_secs(2))
            .unwrap_or_default();
        let mut outcome = classify(end, exit, &collector, &stderr_tail, timeout);
        outcome.duration = start.elapsed();
        outcome
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    Completed,
    TimedOut,
    StdoutClosed,
}

/// Kills the shell and its process group (which this runner created for
/// it), then reaps it.
fn kill(child: &mut Child) {
    #[cfg(unix)]
    if let Ok(pgid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: kill(2) with a negative pid signals that process group
        // only: the group of this child, made by `process_group(0)`.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// Waits for the exit; kills the child if it outlives `deadline` (it closed
/// stdout but kept running).
fn wait_with_deadline(child: &mut Child, deadline: Instant) -> Option<ExitStatus> {
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() >= deadline => {
                kill(child);
                return None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(_) => {
                kill(child);
                return None;
            }
        }
    }
}

fn classify(
    end: End,
    exit: Option<ExitStatus>,
    collector: &Collector,
    stderr_tail: &str,
    timeout: Duration,
) -> FileOutcome {
    let subtests = collector.subtests().to_vec();
    let mut details = Vec::new();
    if !collector.protocol_errors.is_empty() {
        details.push(format!(
            "malformed result lines: {}",
            collector.protocol_errors.join("; ")
        ));
    }
    let (status, message) = match (end, &collector.completion) {
        (End::Completed, Some(c)) => (c.status.clone(), c.message.clone()),
        (End::TimedOut, _) => (
            "TIMEOUT".to_owned(),
            Some(format!("the shell was killed after {timeout:?}")),
        ),
        _ => match exit {
            Some(status) if status.code() == Some(SHELL_TIMEOUT_STATUS) => (
                "TIMEOUT".to_owned(),
                Some("the shell's --timeout stopped the page".to_owned()),
            ),
            Some(status) if is_crash(&status) => (
                "CRASH".to_owned(),
                Some(format!("the shell crashed ({status})")),
            ),
            Some(status) => (
                "ERROR".to_owned(),
                Some(format!(
                    "the shell exited ({status}) before testharness.js completed"
                )),
            ),
            None => (
                "TIMEOUT".to_owned(),
                Some("the shell closed its output but did not exit".to_owned()),
            ),
        },
    };
    if status != "OK" {
        let stderr_tail = stderr_tail.trim();
        if !stderr_tail.is_empty() {
            details.push(format!("shell stderr:\n{stderr_tail}"));
        }
        if !collector.console.is_empty() {
            details.push(format!("page output:\n{}", collector.console.join("\n")));
        }
    }
    let message = match (message, details.is_empty()) {
        (m, true) => m,
        (m, false) => Some(m.into_iter().chain(details).collect::<Vec<_>>().join("\n")),
    };
    FileOutcome {
        status,
        message,
        subtests,
        duration: Duration::ZERO,
    }
}

#[cfg(unix)]
fn is_crash(status: &ExitStatus) -> bool {
    use std::os::unix::process::ExitStatusExt;
    status.signal().is_some() || status.code() == Some(101)
}

#[cfg(not(unix))]
fn is_crash(status: &ExitStatus) -> bool {
    status.code() == Some(101)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::report::MARK;

    /// A fake shell: a shell script that ignores its arguments. A child
    /// process writes it: had this process written it, another test's fork
    /// could still hold the file open for writing when it is executed
    /// (ETXTBSY).
    fn fake(script: &str) -> (tempfile::TempDir, Shell) {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fake-shell");
        let mut writer = Command::new("/bin/sh")
            .arg("-c")
            .arg("cat > \"$0\" && chmod 755 \"$0\"")
            .arg(&path)
            .stdin(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = writer.stdin.take().unwrap();
        stdin
            .write_all(format!("#!/bin/sh\n{script}\n").as_bytes())
            .unwrap();
        drop(stdin);
        assert!(writer.wait().unwrap().success());
        (
            dir,
            Shell {
                binary: path,
                args: vec!["--quiet".into()],
            },
        )
    }

    const LONG: Duration = Duration::from_secs(30);

    #[test]
    fn completed_run_reports_results_and_kills_the_idle_shell() {
        let (_d, shell) = fake(&format!(
            "echo 'hello'\n\
             echo '{MARK}{{\"type\":\"result\",\"name\":\"a\",\"status\":\"PASS\"}}'\n\
             echo '{MARK}{{\"type\":\"complete\",\"status\":\"OK\",\"tests\":[{{\"name\":\"a\",\"status\":\"PASS\"}}]}}'\n\
             exec sleep 60"
        ));
        let outcome = shell.run("http://x/", LONG);
        assert_eq!(outcome.status, "OK");
        assert_eq!(outcome.subtests.len(), 1);
        assert!(outcome.duration < LONG);
    }

    #[test]
    fn hanging_shell_is_timeout_with_partial_results() {
        let (_d, shell) = fake(&format!(
            "echo '{MARK}{{\"type\":\"result\",\"name\":\"a\",\"status\":\"FAIL\"}}'\nexec sleep 60"
        ));
        let outcome = shell.run("http://x/", Duration::from_millis(500));
        assert_eq!(outcome.status, "TIMEOUT");
        assert_eq!(outcome.subtests[0].status, "FAIL");
    }

    /// The shell's own `--timeout` (its watchdog) ends it with status 124
    /// before the kill: TIMEOUT, with the shell's message and the results
    /// so far.
    #[test]
    fn the_shells_timeout_status_is_timeout() {
        let (_d, shell) = fake(&format!(
            "echo '{MARK}{{\"type\":\"result\",\"name\":\"a\",\"status\":\"PASS\"}}'\n\
             echo 'jsprof: timeout: script interrupted after 1 s in http://x/:3' >&2\nexit 124"
        ));
        let outcome = shell.run("http://x/", LONG);
        assert_eq!(outcome.status, "TIMEOUT");
        assert_eq!(outcome.subtests[0].status, "PASS");
        let message = outcome.message.unwrap();
        assert!(message.contains("--timeout stopped the page"), "{message}");
        assert!(
            message.contains("interrupted after 1 s in http://x/:3"),
            "{message}"
        );
    }

    #[test]
    fn signal_death_is_crash() {
        let (_d, shell) = fake("echo 'dying' >&2\nkill -SEGV $$");
        let outcome = shell.run("http://x/", LONG);
        assert_eq!(outcome.status, "CRASH");
        assert!(outcome.message.unwrap().contains("dying"));
    }

    #[test]
    fn a_timeout_kills_the_shells_children_too() {
        let (dir, shell) = fake("sleep 60 &\necho $! > \"$(dirname \"$0\")/child.pid\"\nwait");
        let outcome = shell.run("http://x/", Duration::from_millis(500));
        assert_eq!(outcome.status, "TIMEOUT");
        let pid = std::fs::read_to_string(dir.path().join("child.pid")).unwrap();
        let pid: i32 = pid.trim().parse().unwrap();
        // Reaped by init or gone: kill(pid, 0) fails once it is dead. It was
        // sent SIGKILL, so wait briefly for the kernel to finish it.
        let mut alive = true;
        for _ in 0..100 {
            // SAFETY: signal 0 only checks for existence.
            alive = unsafe { libc::kill(pid, 0) } == 0 && !is_zombie(pid);
            if !alive {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(!alive, "the shell's child {pid} survived");
        assert!(outcome.duration < Duration::from_secs(10));
    }

    fn is_zombie(pid: i32) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .map(|s| {
                s.rsplit(')')
                    .next()
                    .unwrap_or("")
                    .trim_start()
                    .starts_with('Z')
            })
            .unwrap_or(false)
    }

    #[test]
    fn panic_exit_code_is_crash() {
        let (_d, shell) = fake("exit 101");
        assert_eq!(shell.run("http://x/", LONG).status, "CRASH");
    }

    #[test]
    fn early_exit_is_error_with_stderr() {
        let (_d, shell) = fake("echo \"jsprof: cannot load $1\" >&2\nexit 1");
        let outcome = shell.run("http://x/page.html", LONG);
        assert_eq!(outcome.status, "ERROR");
        let message = outcome.message.unwrap();
        assert!(
            message.contains("cannot load http://x/page.html"),
            "{message}"
        );
    }

    #[test]
    fn missing_binary_is_error() {
        let shell = Shell {
            binary: "/nonexistent/jsprof".into(),
            args: vec![],
        };
        let outcome = shell.run("http://x/", LONG);
        assert_eq!(outcome.status, "ERROR");
        assert!(outcome.message.unwrap().contains("cannot start"));
    }

    #[test]
    fn harness_error_status_is_passed_through() {
        let (_d, shell) = fake(&format!(
            "echo '{MARK}{{\"type\":\"complete\",\"status\":\"ERROR\",\"message\":\"uncaught\",\"tests\":[]}}'"
        ));
        let outcome = shell.run("http://x/", LONG);
        assert_eq!(outcome.status, "ERROR");
        assert!(outcome.message.unwrap().starts_with("uncaught"));
    }
}
