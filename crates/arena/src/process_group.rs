//! Engines run in a process group of their own, so that stopping an engine stops everything it
//! started. Engines are often wrapper scripts (`#!/bin/sh` running `node engine.js`): killing
//! the script alone would leave the real engine running, still thinking on a core.
//!
//! Signals go through the `kill` program (`kill -TERM -- -PGID`), which needs no `unsafe` and
//! no C library binding. Elsewhere than on unix there are no groups: the caller falls back to
//! killing the one process it started.

use std::process::{Command, Stdio};

/// Makes the program `command` starts the leader of a new process group, whose id is then the
/// program's process id. Keyboard signals of the terminal no longer reach it; the match stops
/// its engines itself.
pub fn start_own_group(command: &mut Command) {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    #[cfg(not(unix))]
    let _ = command;
}

/// Sends `signal` (a name such as `TERM` or `KILL`) to every process in the group whose leader
/// is `leader`. Whether the signal reached a process; `false` too when `kill` could not run.
pub fn signal_group(leader: u32, signal: &str) -> bool {
    if !cfg!(unix) {
        return false;
    }
    Command::new("kill")
        .arg(format!("-{signal}"))
        .arg("--")
        .arg(format!("-{leader}"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        // "No such process" when the group is already gone is no news.
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn the_whole_group_is_signalled() {
        // A shell that starts a sleeping grandchild and waits for it.
        let mut command = Command::new("sh");
        command.args(["-c", "sleep 30 & wait"]);
        start_own_group(&mut command);
        let mut child = command.spawn().unwrap();
        let leader = child.id();
        // Give the shell a moment to start its grandchild.
        std::thread::sleep(Duration::from_millis(100));
        assert!(signal_group(leader, "KILL"));
        let deadline = Instant::now() + Duration::from_secs(5);
        while child.try_wait().unwrap().is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(child.try_wait().unwrap().is_some());
        // Everyone is gone; the group id no longer names a group.
        std::thread::sleep(Duration::from_millis(50));
        assert!(!signal_group(leader, "0") || group_only_zombies(leader));
    }

    /// Whether the group's remaining members are all zombies (an orphan killed in a container
    /// whose first process does not reap them stays one).
    fn group_only_zombies(pgid: u32) -> bool {
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return false;
        };
        entries.flatten().all(|e| {
            let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
                return true;
            };
            // pid (comm) state ppid pgrp …; comm may hold spaces, so split after ')'.
            let Some((_, rest)) = stat.rsplit_once(')') else {
                return true;
            };
            let fields: Vec<&str> = rest.split_whitespace().collect();
            fields.get(2) != Some(&pgid.to_string().as_str()) || fields.first() == Some(&"Z")
        })
    }
}
