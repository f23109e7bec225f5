//! The seccomp allow-list every sandboxed command runs under (installed last, just before
//! exec, after Landlock; inherited by everything it starts): the system calls a shell, a test
//! runner and an interpreter need (`ALLOWED`), nothing else. Every other call fails with
//! EPERM: the key calls (`keyctl`, `add_key`, `request_key`), `bpf`, `perf_event_open`,
//! `io_uring_*`, `kexec_*`, the mount family, `unshare`/`setns`, `ptrace` and the rest of
//! `DENIED`; `clone` with a namespace flag fails with EPERM and `clone3` (whose flags a filter
//! cannot read) with ENOSYS, so the C library falls back to `clone`; `socket` and `socketpair`
//! open AF_UNIX, AF_INET and AF_INET6 (and route netlink, the namespace's own) and fail with
//! EAFNOSUPPORT for every other family (AF_VSOCK, AF_PACKET, uevent netlink …). A call made
//! through another architecture's entry (i386 or x32 on x86_64) kills the process.

use super::syscalls::{ALLOWED, DENIED};

/// The architectures the filter is built for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arch {
    X86_64,
    Aarch64,
}

impl Arch {
    /// The architecture this binary runs on, if the filter knows it.
    pub fn native() -> Option<Arch> {
        if cfg!(target_arch = "x86_64") {
            Some(Arch::X86_64)
        } else if cfg!(target_arch = "aarch64") {
            Some(Arch::Aarch64)
        } else {
            None
        }
    }

    /// `AUDIT_ARCH_*`, as `seccomp_data.arch` gives it.
    pub fn audit(self) -> u32 {
        match self {
            Arch::X86_64 => 0xC000_003E,
            Arch::Aarch64 => 0xC000_00B7,
        }
    }

    /// The number of the call `name` on this architecture (None: it has no such call).
    pub fn number(self, name: &str) -> Option<u32> {
        ALLOWED
            .iter()
            .chain(DENIED)
            .find(|(n, _, _)| *n == name)
            .and_then(|(_, x, a)| match self {
                Arch::X86_64 => *x,
                Arch::Aarch64 => *a,
            })
    }
}

/// One classic BPF instruction (`struct sock_filter`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub struct Insn {
    pub code: u16,
    pub jt: u8,
    pub jf: u8,
    pub k: u32,
}

pub const LD_W_ABS: u16 = 0x20; // BPF_LD (0) | BPF_W (0) | BPF_ABS (0x20)
pub const JEQ_K: u16 = 0x05 | 0x10; // BPF_JMP | BPF_JEQ | BPF_K
pub const JGE_K: u16 = 0x05 | 0x30; // BPF_JMP | BPF_JGE | BPF_K
pub const JSET_K: u16 = 0x05 | 0x40; // BPF_JMP | BPF_JSET | BPF_K
pub const RET_K: u16 = 0x06; // BPF_RET | BPF_K

pub const RET_ALLOW: u32 = 0x7fff_0000;
pub const RET_KILL_PROCESS: u32 = 0x8000_0000;
pub const RET_ERRNO: u32 = 0x0005_0000;

/// `clone` flags that make a namespace.
const NAMESPACE_FLAGS: u32 = 0x0002_0000 // CLONE_NEWNS
    | 0x0200_0000 // CLONE_NEWCGROUP
    | 0x0400_0000 // CLONE_NEWUTS
    | 0x0800_0000 // CLONE_NEWIPC
    | 0x1000_0000 // CLONE_NEWUSER
    | 0x2000_0000 // CLONE_NEWPID
    | 0x4000_0000; // CLONE_NEWNET

/// Offsets in `struct seccomp_data`.
const NR: u32 = 0;
const ARCH: u32 = 4;
const ARG0_LOW: u32 = 16;
const ARG2_LOW: u32 = 32;

/// The address families `socket` and `socketpair` may open (the network namespace has no
/// route, so AF_INET and AF_INET6 reach nothing); every other family fails with EAFNOSUPPORT,
/// AF_VSOCK (a VM's way to its host) and AF_NETLINK for anything but routes among them.
pub const SOCKET_FAMILIES: &[(&str, u32)] = &[("AF_UNIX", 1), ("AF_INET", 2), ("AF_INET6", 10)];
const AF_NETLINK: u32 = 16;
/// NETLINK_ROUTE: the namespace's own interfaces and routes, which glibc's getaddrinfo reads.
const NETLINK_ROUTE: u32 = 0;

fn stmt(code: u16, k: u32) -> Insn {
    Insn {
        code,
        jt: 0,
        jf: 0,
        k,
    }
}

fn jump(code: u16, k: u32, jt: u8, jf: u8) -> Insn {
    Insn { code, jt, jf, k }
}

/// The calls whose verdict reads an argument, each with rules of its own ahead of the list.
const ARGUMENT_RULES: &[&str] = &["clone", "socket", "socketpair"];

/// `clone` with a namespace flag: EPERM; `clone3`, whose flags sit behind a pointer: ENOSYS.
fn clone_rules(arch: Arch, eperm: u32) -> Vec<Insn> {
    let mut p = Vec::new();
    if let Some(clone) = arch.number("clone") {
        p.push(jump(JEQ_K, clone, 0, 4));
        p.push(stmt(LD_W_ABS, ARG0_LOW));
        p.push(jump(JSET_K, NAMESPACE_FLAGS, 0, 1));
        p.push(stmt(RET_K, eperm));
        p.push(stmt(RET_K, RET_ALLOW));
    }
    if let Some(clone3) = arch.number("clone3") {
        p.push(jump(JEQ_K, clone3, 0, 1));
        p.push(stmt(RET_K, RET_ERRNO | libc::ENOSYS as u32));
    }
    p
}

/// `socket` or `socketpair` (call number `nr`): a family of [`SOCKET_FAMILIES`] or route
/// netlink runs, anything else fails with EAFNOSUPPORT (as an unbuilt family would).
fn socket_rules(nr: u32) -> Vec<Insn> {
    let families = SOCKET_FAMILIES.len() as u8;
    let mut p = vec![jump(JEQ_K, nr, 0, families + 6), stmt(LD_W_ABS, ARG0_LOW)];
    for (i, (_, af)) in SOCKET_FAMILIES.iter().enumerate() {
        // Taken: over the rest of the families and the netlink test to the allow.
        p.push(jump(JEQ_K, *af, families - i as u8 + 2, 0));
    }
    p.push(jump(JEQ_K, AF_NETLINK, 0, 3));
    p.push(stmt(LD_W_ABS, ARG2_LOW));
    p.push(jump(JEQ_K, NETLINK_ROUTE, 0, 1));
    p.push(stmt(RET_K, RET_ALLOW));
    p.push(stmt(RET_K, RET_ERRNO | libc::EAFNOSUPPORT as u32));
    p
}

/// The filter for `arch`: the architecture checked, then the allow-list one call at a time
/// (the kernel caches the answer for every call whose verdict reads no argument, so the length
/// of the list costs nothing after a call's first use).
pub fn program(arch: Arch) -> Vec<Insn> {
    let eperm = RET_ERRNO | libc::EPERM as u32;
    let mut p = vec![
        stmt(LD_W_ABS, ARCH),
        jump(JEQ_K, arch.audit(), 1, 0),
        stmt(RET_K, RET_KILL_PROCESS),
        stmt(LD_W_ABS, NR),
    ];
    if arch == Arch::X86_64 {
        // The x32 ABI's calls (bit 30 set) are a second table: refused as a whole.
        p.push(jump(JGE_K, 0x4000_0000, 0, 1));
        p.push(stmt(RET_K, eperm));
    }
    p.extend(clone_rules(arch, eperm));
    for call in ["socket", "socketpair"] {
        p.extend(arch.number(call).map(socket_rules).unwrap_or_default());
    }
    for (name, x, a) in ALLOWED {
        let nr = match arch {
            Arch::X86_64 => x,
            Arch::Aarch64 => a,
        };
        if let (Some(nr), false) = (nr, ARGUMENT_RULES.contains(name)) {
            p.push(jump(JEQ_K, *nr, 0, 1));
            p.push(stmt(RET_K, RET_ALLOW));
        }
    }
    p.push(stmt(RET_K, eperm));
    p
}

/// Run `program` on a call as the kernel would (only the instructions [`program`] emits):
/// its return value. For the tests, which check the filter of either architecture anywhere.
pub fn evaluate(program: &[Insn], arch: u32, nr: u32, arg0: u64) -> u32 {
    evaluate_args(program, arch, nr, [arg0, 0, 0])
}

/// [`evaluate`] with the call's first three arguments.
pub fn evaluate_args(program: &[Insn], arch: u32, nr: u32, args: [u64; 3]) -> u32 {
    let (mut acc, mut pc) = (0u32, 0usize);
    loop {
        let i = program[pc];
        pc += 1;
        let taken = match i.code {
            LD_W_ABS => {
                acc = match i.k {
                    NR => nr,
                    ARCH => arch,
                    ARG0_LOW => args[0] as u32,
                    ARG2_LOW => args[2] as u32,
                    k => panic!("load of offset {k}"),
                };
                continue;
            }
            RET_K => return i.k,
            JEQ_K => acc == i.k,
            JGE_K => acc >= i.k,
            JSET_K => acc & i.k != 0,
            c => panic!("instruction {c:#x}"),
        };
        pc += if taken { i.jt } else { i.jf } as usize;
    }
}

/// Install the filter for this architecture on the calling thread (and so on everything it
/// execs and starts). Sets `no_new_privs`, which a filter needs from an unprivileged process.
#[cfg(target_os = "linux")]
pub fn install() -> Result<(), String> {
    let arch = Arch::native().ok_or("no seccomp filter for this architecture")?;
    let prog = program(arch);
    let fprog = libc::sock_fprog {
        len: prog.len() as u16,
        filter: prog.as_ptr() as *mut libc::sock_filter,
    };
    let err = || std::io::Error::last_os_error().to_string();
    if unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) } != 0 {
        return Err(err());
    }
    let set = unsafe {
        libc::prctl(
            libc::PR_SET_SECCOMP,
            libc::SECCOMP_MODE_FILTER,
            &fprog as *const libc::sock_fprog,
        )
    };
    if set != 0 {
        return Err(err());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const EPERM: u32 = RET_ERRNO | libc::EPERM as u32;

    #[test]
    fn the_filter_builds_for_x86_64_and_aarch64_and_denies_what_it_names() {
        for arch in [Arch::X86_64, Arch::Aarch64] {
            let p = program(arch);
            assert!(p.len() < 4096, "{arch:?}: {} instructions", p.len());
            let run = |name: &str, arg0: u64| {
                let nr = arch
                    .number(name)
                    .unwrap_or_else(|| panic!("{name} on {arch:?}"));
                evaluate(&p, arch.audit(), nr, arg0)
            };
            for name in [
                "read",
                "write",
                "openat",
                "execve",
                "mmap",
                "exit_group",
                "wait4",
            ] {
                assert_eq!(run(name, 0), RET_ALLOW, "{arch:?} {name}");
            }
            for (name, x, a) in DENIED {
                let nr = match arch {
                    Arch::X86_64 => x,
                    Arch::Aarch64 => a,
                };
                let Some(nr) = nr else { continue };
                let want = if *name == "clone3" {
                    RET_ERRNO | libc::ENOSYS as u32
                } else {
                    EPERM
                };
                assert_eq!(evaluate(&p, arch.audit(), *nr, 0), want, "{arch:?} {name}");
            }
            for name in ["keyctl", "add_key", "request_key", "bpf", "io_uring_setup"] {
                assert_eq!(run(name, 0), EPERM, "{arch:?} {name}");
            }
            // A plain fork-like clone runs; one that makes a user namespace does not.
            assert_eq!(run("clone", 0x11 /* SIGCHLD */), RET_ALLOW);
            assert_eq!(run("clone", 0x1000_0011), EPERM);
            // A number nobody allowed, and another architecture's entry.
            assert_eq!(evaluate(&p, arch.audit(), 999, 0), EPERM);
            assert_eq!(evaluate(&p, 0x4000_0003, 0, 0), RET_KILL_PROCESS);
        }
        let x32_read = 0x4000_0000;
        assert_eq!(
            evaluate(&program(Arch::X86_64), Arch::X86_64.audit(), x32_read, 0),
            EPERM
        );
    }

    /// socket(2)'s families: (name, number).
    const FAMILIES: &[(&str, u64)] = &[
        ("AF_UNIX", 1),
        ("AF_INET", 2),
        ("AF_INET6", 10),
        ("AF_NETLINK", 16),
        ("AF_PACKET", 17),
        ("AF_BLUETOOTH", 31),
        ("AF_ALG", 38),
        ("AF_VSOCK", 40),
        ("AF_XDP", 44),
    ];

    #[test]
    fn socket_opens_only_unix_inet_and_inet6_and_route_netlink_on_both_architectures() {
        let eafnosupport = RET_ERRNO | libc::EAFNOSUPPORT as u32;
        for arch in [Arch::X86_64, Arch::Aarch64] {
            let p = program(arch);
            for call in ["socket", "socketpair"] {
                let nr = arch.number(call).unwrap();
                for (family, af) in FAMILIES {
                    let want = match *family {
                        "AF_UNIX" | "AF_INET" | "AF_INET6" => RET_ALLOW,
                        // NETLINK_ROUTE (0): the namespace's own routes, which glibc reads.
                        "AF_NETLINK" => RET_ALLOW,
                        _ => eafnosupport,
                    };
                    let got = evaluate_args(&p, arch.audit(), nr, [*af, 1, 0]);
                    assert_eq!(got, want, "{arch:?} {call}({family}, _, 0)");
                }
                // Netlink for anything but routes (uevents: 15; audit: 9; sock_diag: 4).
                for protocol in [15u64, 9, 4] {
                    let got = evaluate_args(&p, arch.audit(), nr, [16, 3, protocol]);
                    assert_eq!(got, eafnosupport, "{arch:?} {call}(AF_NETLINK, {protocol})");
                }
                // Only the low 32 bits are the family (the kernel reads an int).
                let got = evaluate_args(&p, arch.audit(), nr, [(1 << 32) | 40, 1, 0]);
                assert_eq!(got, eafnosupport, "{arch:?} {call}: high bits");
            }
        }
    }

    /// Every row of the tables against the kernel's, as the `syscalls` crate generates them from
    /// the kernel's own tables (x86_64's syscall_64.tbl, aarch64's asm-generic unistd.h).
    #[test]
    fn every_rows_number_is_the_kernels_on_x86_64_and_aarch64() {
        use std::str::FromStr;
        let mut wrong = Vec::new();
        for (name, x, a) in ALLOWED.iter().chain(DENIED) {
            let x_kernel = syscalls::x86_64::Sysno::from_str(name)
                .ok()
                .map(|s| s.id() as u32);
            // asm-generic's __NR3264_fstatat is __NR_newfstatat on 64-bit (unistd.h: "#define
            // __NR_newfstatat __NR3264_fstatat"); the crate keeps the 3264 name.
            let a_name = if *name == "newfstatat" {
                "fstatat"
            } else {
                name
            };
            let a_kernel = syscalls::aarch64::Sysno::from_str(a_name)
                .ok()
                .map(|s| s.id() as u32);
            if (*x, *a) != (x_kernel, a_kernel) {
                wrong.push(format!(
                    "{name}: ({x:?}, {a:?}), kernel ({x_kernel:?}, {a_kernel:?})"
                ));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
        assert_eq!(Arch::Aarch64.number("fchmodat2"), Some(452));
        assert_eq!(Arch::X86_64.number("fchmodat2"), Some(452));
        for arch in [Arch::X86_64, Arch::Aarch64] {
            let nr = arch.number("fchmodat2").unwrap();
            assert_eq!(evaluate(&program(arch), arch.audit(), nr, 0), RET_ALLOW);
        }
    }

    #[test]
    fn no_call_is_both_allowed_and_denied_and_the_numbers_are_this_targets() {
        for (name, _, _) in DENIED {
            assert!(!ALLOWED.iter().any(|(n, _, _)| n == name), "{name}");
        }
        #[cfg(target_arch = "x86_64")]
        let native = Arch::X86_64;
        #[cfg(target_arch = "aarch64")]
        let native = Arch::Aarch64;
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        for (name, nr) in [
            ("read", libc::SYS_read),
            ("keyctl", libc::SYS_keyctl),
            ("clone", libc::SYS_clone),
            ("io_uring_setup", libc::SYS_io_uring_setup),
        ] {
            assert_eq!(native.number(name), Some(nr as u32), "{name}");
        }
    }
}
