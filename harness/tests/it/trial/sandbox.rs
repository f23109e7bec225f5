//! The sandbox confines what a model-written script can do: tried directly with attack scripts.

use crate::common;
use harness::trial::sandbox::{self, Limits, Mode};
use std::path::Path;
use std::time::Duration;

pub(super) fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

pub(super) fn sh(ws: &Path, script: &str, timeout: u64) -> sandbox::Output {
    sandbox::set_helper(env!("CARGO_BIN_EXE_harness"));
    std::fs::write(ws.join("attack.sh"), script).unwrap();
    rt().block_on(sandbox::run(
        "sh",
        &["attack.sh".to_string()],
        ws,
        &Limits {
            timeout: Duration::from_secs(timeout),
            ..Limits::default()
        },
        Mode::Confined,
    ))
    .unwrap()
}

#[test]
fn a_script_runs_in_its_workspace_as_an_unprivileged_user_and_can_write_there() {
    let ws = tempfile::tempdir().unwrap();
    let o = sh(ws.path(), "id -u\necho made > out.txt\ncat out.txt\n", 10);
    assert_eq!(o.code, Some(0), "{o:?}");
    let uid: u32 = o.stdout.lines().next().unwrap().trim().parse().unwrap();
    assert_ne!(uid, 0, "{o:?}");
    assert!(o.stdout.contains("made"), "{o:?}");
}

#[test]
fn a_script_cannot_read_or_write_outside_its_workspace() {
    let ws = tempfile::tempdir().unwrap();
    let other = tempfile::tempdir().unwrap();
    std::fs::write(other.path().join("secret.txt"), "other trial").unwrap();
    let checkout = common::repo_root();
    let script = format!(
        "cat /etc/passwd && echo READ-PASSWD\n\
         cat {other}/secret.txt && echo READ-OTHER\n\
         ls {checkout} && echo READ-CHECKOUT\n\
         ls /root && echo READ-HOME\n\
         echo x > /tmp/{{escape}}\n\
         echo x > {other}/planted && echo WROTE-OTHER\n\
         echo done\n",
        other = other.path().display(),
        checkout = checkout.display()
    );
    // The command's /tmp is its own: what it writes there never reaches the host's.
    let escape = format!("sandbox-escape-{}", std::process::id());
    let script = script.replace("{escape}", &escape);
    let o = sh(ws.path(), &script, 10);
    assert!(!Path::new("/tmp").join(&escape).exists());
    assert!(o.stdout.contains("done"), "{o:?}");
    for bad in [
        "READ-PASSWD",
        "READ-OTHER",
        "READ-CHECKOUT",
        "READ-HOME",
        "WROTE-OTHER",
    ] {
        assert!(!o.stdout.contains(bad), "{bad}: {o:?}");
    }
    assert!(!other.path().join("planted").exists());
}

#[test]
fn a_script_cannot_reach_the_network_not_even_loopback() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let ws = tempfile::tempdir().unwrap();
    let script = format!(
        "python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=2); print('CONNECTED')\" || echo refused\n"
    );
    let o = sh(ws.path(), &script, 10);
    assert!(!o.stdout.contains("CONNECTED"), "{o:?}");
    assert!(o.stdout.contains("refused"), "{o:?}");
}

#[test]
fn nothing_a_script_starts_outlives_the_time_limit() {
    let ws = tempfile::tempdir().unwrap();
    let marker = ws.path().join("alive");
    // One child stays in the process group, one leaves it with setsid: neither may survive.
    let script = "(while true; do date +%N > alive; sleep 0.1; done) &\nsetsid sh -c 'while true; do date +%N > alive; sleep 0.1; done' &\nsleep 60\n";
    let started = std::time::Instant::now();
    let o = sh(ws.path(), script, 2);
    assert!(o.timed_out, "{o:?}");
    // The script sleeps 60 s: the 2 s limit must end it well before (generous under load).
    assert!(started.elapsed() < Duration::from_secs(40));
    std::thread::sleep(Duration::from_millis(600));
    let before = std::fs::read_to_string(&marker).unwrap_or_default();
    std::thread::sleep(Duration::from_millis(600));
    let after = std::fs::read_to_string(&marker).unwrap_or_default();
    assert_eq!(before, after, "a background process is still writing");
}

/// Host processes whose command line holds `marker` (seen from outside every namespace).
fn survivors(marker: &str) -> Vec<i32> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let cmdline = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
        if String::from_utf8_lossy(&cmdline).contains(marker) {
            found.push(pid);
        }
    }
    found
}

/// Kill what a failed test left behind, then report it.
fn reap(marker: &str) -> Vec<i32> {
    let left = survivors(marker);
    for pid in &left {
        unsafe { libc::kill(*pid, libc::SIGKILL) };
    }
    left
}

/// A sleep whose length names the test (GNU sleep takes a fraction), found later in /proc.
fn marker(n: u32) -> String {
    format!("9999.{}{n}", std::process::id())
}

#[test]
fn exec_setsid_does_not_outlive_the_time_limit() {
    let ws = tempfile::tempdir().unwrap();
    let m = marker(1);
    // Leaves the process group and becomes the namespace's first process itself.
    let o = sh(ws.path(), &format!("exec setsid sleep {m}\n"), 1);
    assert!(o.timed_out, "{o:?}");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        reap(&m),
        Vec::<i32>::new(),
        "the sleep survived the time limit"
    );
}

#[test]
fn a_double_forked_daemon_does_not_outlive_the_commands_end() {
    let ws = tempfile::tempdir().unwrap();
    let m = marker(2);
    let script = format!(
        "sh -c 'setsid sleep {m} </dev/null >/dev/null 2>&1 &'\n\
         (exec setsid sh -c 'exec sleep {m}' </dev/null >/dev/null 2>&1 &)\n\
         echo started\n"
    );
    let started = std::time::Instant::now();
    let o = sh(ws.path(), &script, 20);
    assert!(!o.timed_out && o.stdout.contains("started"), "{o:?}");
    // Not held to the 20 s limit by the daemons (the limit would time it out, above).
    assert!(started.elapsed() < Duration::from_secs(19));
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(reap(&m), Vec::<i32>::new(), "a daemon outlived the command");
}

#[test]
fn a_fork_bomb_in_one_trial_leaves_another_trials_tests_running() {
    sandbox::set_helper(env!("CARGO_BIN_EXE_harness"));
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let m = marker(3);
    // Forks until the process limit refuses, and keeps trying: every child sleeps.
    std::fs::write(
        a.path().join("bomb.py"),
        "import os, sys, time\nwhile True:\n    try:\n        if os.fork() == 0:\n            time.sleep(float(sys.argv[1]))\n            os._exit(0)\n    except OSError:\n        time.sleep(0.01)\n",
    )
    .unwrap();
    std::fs::write(
        b.path().join("tests.sh"),
        "for i in 1 2 3 4 5 6 7 8 9 10; do sleep 0.2 & done\nwait && echo ALL-RAN\n",
    )
    .unwrap();
    let limits = |secs| Limits {
        timeout: Duration::from_secs(secs),
        ..Limits::default()
    };
    let (bomb_args, tests_args) = (["bomb.py".to_string(), m.clone()], ["tests.sh".to_string()]);
    let (bomb_limits, tests_limits) = (limits(6), limits(3));
    let (bomb, tests) = rt().block_on(async {
        let bomb = sandbox::run(
            "python3",
            &bomb_args,
            a.path(),
            &bomb_limits,
            Mode::Confined,
        );
        let tests = async {
            // Let the bomb reach its process limit first.
            tokio::time::sleep(Duration::from_millis(2500)).await;
            sandbox::run("sh", &tests_args, b.path(), &tests_limits, Mode::Confined).await
        };
        tokio::join!(bomb, tests)
    });
    let (bomb, tests) = (bomb.unwrap(), tests.unwrap());
    assert!(bomb.timed_out, "{bomb:?}");
    assert!(
        tests.stdout.contains("ALL-RAN") && tests.code == Some(0),
        "the other trial's tests were starved: {tests:?}"
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(reap(&m), Vec::<i32>::new());
}

/// A folder outside the workspace that anyone may enter, so only the sandbox keeps a script out.
fn open_outside() -> tempfile::TempDir {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::tempdir().unwrap();
    std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    d
}

#[test]
fn a_pathname_unix_socket_outside_the_workspace_is_unreachable() {
    use std::os::unix::fs::PermissionsExt;
    let outside = open_outside();
    let path = outside.path().join("host.sock");
    let listener = std::os::unix::net::UnixListener::bind(&path).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o777)).unwrap();
    let ws = tempfile::tempdir().unwrap();
    let script = format!(
        "python3 -c \"import socket; s = socket.socket(socket.AF_UNIX); s.connect('{}'); print('CONNECTED')\" || echo refused\n",
        path.display()
    );
    let o = sh(ws.path(), &script, 10);
    assert!(o.stdout.contains("refused"), "{o:?}");
    assert!(!o.stdout.contains("CONNECTED"), "{o:?}");
    drop(listener);
}

#[test]
fn nothing_outside_the_workspace_can_even_be_stat_ed() {
    let outside = open_outside();
    let file = outside.path().join("other-trial.txt");
    std::fs::write(&file, "x".repeat(1234)).unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    let checkout = common::repo_root().join("Cargo.toml");
    let ws = tempfile::tempdir().unwrap();
    let script = format!(
        "for f in {file} {checkout} /root /etc/shadow /etc/passwd /home; do\n\
           stat -c '%s %u' \"$f\" >/dev/null 2>&1 && echo \"LEAK $f\"\n\
         done\n\
         echo checked\n",
        file = file.display(),
        checkout = checkout.display()
    );
    let o = sh(ws.path(), &script, 10);
    assert!(o.stdout.contains("checked"), "{o:?}");
    assert!(!o.stdout.contains("LEAK"), "{o:?}");
}

#[test]
fn a_flood_of_output_is_cut_as_it_is_read() {
    let ws = tempfile::tempdir().unwrap();
    // 200 MiB to stdout: kept to the limit, counted in full.
    let o = sh(
        ws.path(),
        "head -c 209715200 /dev/zero | tr '\\0' x\necho done >&2\n",
        20,
    );
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    assert!(o.stdout.len() < 70 << 10, "{}", o.stdout.len());
    assert!(
        o.stdout
            .ends_with("[output cut at 65536 bytes of 209715200]"),
        "{}",
        &o.stdout[65000..]
    );
    assert!(o.stderr.contains("done"));
}

#[test]
fn the_workspace_and_tmp_are_mounted_nosuid_and_nodev_inside_the_sandbox() {
    // A setuid file or a device node a script makes in its workspace or /tmp must give it
    // nothing: the mounts it can write are nosuid and nodev, like the root's tmpfs.
    if sandbox::check().is_err() {
        crate::common::skipped("no sandbox on this machine");
        return;
    }
    let ws = tempfile::tempdir().unwrap();
    let o = sh(ws.path(), "cat /proc/self/mounts\n", 10);
    assert_eq!(o.code, Some(0), "{o:?}");
    let ws_path = ws.path().display().to_string();
    for at in [ws_path.as_str(), "/tmp"] {
        let line = o
            .stdout
            .lines()
            .rfind(|l| l.split(' ').nth(1) == Some(at))
            .unwrap_or_else(|| panic!("{at} is not a mount: {}", o.stdout));
        let opts: Vec<&str> = line.split(' ').nth(3).unwrap().split(',').collect();
        assert!(
            opts.contains(&"nosuid") && opts.contains(&"nodev"),
            "{at}: {line}"
        );
    }
}

/// The number of a system call on this machine, for a script's ctypes call.
fn nr(name: &str) -> u32 {
    let arch = sandbox::seccomp::Arch::native().expect("x86_64 or aarch64");
    arch.number(name).unwrap()
}

#[test]
fn keyctl_bpf_and_io_uring_fail_inside_the_sandbox_while_tests_still_run() {
    let ws = tempfile::tempdir().unwrap();
    // A key planted by one command is nobody's later: each command has a fresh session keyring,
    // and the key calls themselves are refused.
    let probe = r#"import ctypes
libc = ctypes.CDLL(None, use_errno=True)
for name, nr, args in [("keyctl", KEYCTL, (0, -3)), ("add_key", ADD_KEY, (b"user", b"planted", b"x", 1, -3)),
                       ("request_key", REQUEST_KEY, (b"user", b"ci-token", None, 0)),
                       ("bpf", BPF, (0, None, 0)), ("io_uring_setup", URING, (8, None)),
                       ("perf_event_open", PERF, (None, 0, -1, -1, 0))]:
    r = libc.syscall(nr, *args)
    print(name, "ALLOWED" if r >= 0 else "errno=%d" % ctypes.get_errno())
"#
    .replace("KEYCTL", &nr("keyctl").to_string())
    .replace("ADD_KEY", &nr("add_key").to_string())
    .replace("REQUEST_KEY", &nr("request_key").to_string())
    .replace("BPF", &nr("bpf").to_string())
    .replace("URING", &nr("io_uring_setup").to_string())
    .replace("PERF", &nr("perf_event_open").to_string());
    std::fs::write(ws.path().join("probe.py"), probe).unwrap();
    std::fs::create_dir(ws.path().join("tests")).unwrap();
    std::fs::write(ws.path().join("tests/__init__.py"), "").unwrap();
    std::fs::write(
        ws.path().join("tests/test_ok.py"),
        "import unittest, subprocess, tempfile, threading, os\n\
         class T(unittest.TestCase):\n    def test_it(self):\n\
         \x20       with tempfile.TemporaryDirectory() as d:\n\
         \x20           with open(d + '/x', 'w') as f: f.write('x')\n\
         \x20           os.mkfifo(d + '/p')\n\
         \x20       t = threading.Thread(target=lambda: None); t.start(); t.join()\n\
         \x20       self.assertEqual(subprocess.run(['sh', '-c', 'echo hi | cat'], capture_output=True).stdout, b'hi\\n')\n",
    )
    .unwrap();
    let o = sh(
        ws.path(),
        "python3 probe.py\npython3 -m unittest -q 2>&1 && echo UNITTEST-OK\n",
        30,
    );
    for name in [
        "keyctl",
        "add_key",
        "request_key",
        "bpf",
        "io_uring_setup",
        "perf_event_open",
    ] {
        assert!(
            o.stdout.contains(&format!("{name} errno=1\n")),
            "{name} not refused with EPERM: {o:?}"
        );
    }
    assert!(o.stdout.contains("UNITTEST-OK"), "{o:?}");
}
